"""The box's integrity (docs/game.md §2.7): the talon on the sheet against the deal's known
talon, the versions of a fouled deal, and «коробка не совпадает» — a table's report and the
director's decision on it.

- **The known talon** of a version of the deal's cards: for version 1 the talon of
  ``Deal.cards`` when the cards are known (dealt by the app or entered), else ``Deal.talon``
  as the first table recorded it; for a later version its own cards' or talon (the talon the
  reporting table found), else the first talon a sheet of that version recorded.
- A sheet whose talon differs from the known one is refused on the ``talon`` field: the
  table is told to check the box and, if it really differs, to report it. The refusal never
  names the known talon (the table may not have played the deal yet), and after
  ``TALON_TRIES`` different wrong talons the table's check closes (each answer tells a
  little); the director sees the talons tried on the report. A talon that only
  sheets gave (no cards, no report) and no other sheet of the version carries may still be
  corrected: it was one table's typing, not the box.
- **The version** a table-play played: ``scoring.compare.versions`` (pure).
- **A report** (``BoxReport``) is open until the director marks the deal fouled from that
  table on (a new ``DealVersion``, its results then compared apart) or dismisses it. Both
  redraw the room's console at once (its version token and the table's row token).
"""

from __future__ import annotations

from copy import copy
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Q
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from events import clockdoc, staff
from events.actionlog import log_action
from events.cards import (
    CardError,
    card_text,
    from_ppn,
    sorted_cards,
    suit_of,
)
from events.models import BoxReport, DealVersion, Seat
from scoring.compare.versions import Fouling, PlayAt, play_versions
from scoring.games.common.messages import Problems
from scoring.games.common.talon import TALON_ORDER, read_talon, talon_text
from scoring.games.forms import parse_talon, talon_grid
from scoring.models import Deal, ScoreSheet, TablePlay, TalonRefusal

__all__ = [
    "TALON_TRIES",
    "KnownTalon",
    "TalonDiffers",
    "box_report_create",
    "box_report_dismiss",
    "box_report_foul",
    "cards_html",
    "cards_shown",
    "deal_play_versions",
    "known_talon",
    "parse_talon",
    "play_version",
    "talon_problem",
    "talon_refusals",
    "talon_refused",
    "talon_recorded",
]

SOURCE_CARDS = "cards"  # the deal's (or version's) cards are known
SOURCE_SHEET = "sheet"  # the first table that recorded it
SOURCE_REPORT = "report"  # the talon the reporting table found (a version ≥ 2)


# --- cards as the pages show them -------------------------------------------------------------


def cards_shown(cards) -> str:
    """«♠Т ♥7»: each card as the page's language names it (plain text, for messages)."""
    return " ".join(card_text(c, get_language()) for c in _ordered(cards or ()))


def cards_html(cards):
    """The same with the red suits (♦ ♥) marked for the page's colours."""
    language = get_language()
    return format_html_join(
        " ",
        '<span class="card-name{}">{}</span>',
        (
            (" red" if suit_of(c) in (2, 3) else "", card_text(c, language))
            for c in _ordered(cards or ())
        ),
    )


def _ordered(cards):
    return sorted_cards(cards, TALON_ORDER)


# --- versions -----------------------------------------------------------------------------------


def _plays_at(deal: Deal) -> list[PlayAt]:
    return [
        PlayAt(pk, room, number)
        for pk, room, number in TablePlay.objects.filter(board_set_id=deal.board_set_id)
        .order_by()
        .values_list("pk", "round__room_id", "round__number")
    ]


def deal_versions(deal: Deal) -> dict[int, DealVersion]:
    return {v.number: v for v in DealVersion.objects.filter(deal=deal).order_by("number")}


def deal_play_versions(deal: Deal, versions: dict[int, DealVersion] | None = None) -> dict:
    """play id → the version of the cards it played."""
    versions = deal_versions(deal) if versions is None else versions
    if not versions:
        return {}
    return play_versions(
        _plays_at(deal), [Fouling(v.number, v.from_play_id) for v in versions.values()]
    )


def play_version(play: TablePlay, deal: Deal, versions: dict[int, DealVersion] | None = None):
    """The number of the version of the cards ``play`` played (1 when never fouled)."""
    versions = deal_versions(deal) if versions is None else versions
    if not versions:
        return 1
    return deal_play_versions(deal, versions).get(play.pk, 1)


# --- the known talon ----------------------------------------------------------------------------


@dataclass(frozen=True)
class KnownTalon:
    cards: tuple[int, ...]
    source: str  # SOURCE_CARDS, SOURCE_SHEET or SOURCE_REPORT
    version: int

    @property
    def shown(self) -> str:
        return cards_shown(self.cards)

    @property
    def html(self):
        return cards_html(self.cards)


def _cards_talon(ppn: str, seats: str) -> tuple[int, ...] | None:
    """The talon of known cards, in the order every talon here is kept (TALON_ORDER)."""
    try:
        return sorted_talon(from_ppn(ppn, seats).talon)
    except CardError:
        return None


def _same_cards(a, b) -> bool:
    """Two talons are the same cards whatever their order."""
    return a is not None and b is not None and frozenset(a) == frozenset(b)


def known_talon(
    deal: Deal, version: int = 1, versions: dict[int, DealVersion] | None = None
) -> KnownTalon | None:
    """The talon of ``version`` of the deal's cards, when it is known (see the module)."""
    if version == 1:
        if deal.cards and (cards := _cards_talon(deal.cards, deal.active_seats)):
            return KnownTalon(cards, SOURCE_CARDS, 1)
        found = parse_talon(deal.talon)
        return KnownTalon(found, SOURCE_SHEET, 1) if found else None
    versions = deal_versions(deal) if versions is None else versions
    row = versions.get(version)
    if row is None:
        return None
    if row.cards and (cards := _cards_talon(row.cards, deal.active_seats)):
        return KnownTalon(cards, SOURCE_CARDS, version)
    found = parse_talon(row.talon)
    if not found:
        return None
    reported = BoxReport.objects.filter(version=row, talon=row.talon).exists()
    return KnownTalon(found, SOURCE_REPORT if reported else SOURCE_SHEET, version)


def _others_carry(deal: Deal, play: TablePlay, known: KnownTalon, versions) -> bool:
    """Whether a sheet of another table of the same version records the known talon."""
    of_version = deal_play_versions(deal, versions) if versions else {}
    for play_id, data in (
        ScoreSheet.objects.filter(deal=deal, current__isnull=False)
        .exclude(play=play)
        .values_list("play_id", "current__data")
    ):
        if of_version.get(play_id, 1) == known.version and _same_cards(
            parse_talon((data or {}).get("talon")), known.cards
        ):
            return True
    return False


#: A table may try this many different talons other than the known one before its talon
#: check closes: each answer says a little about the real talon (docs/game.md §2.7).
TALON_TRIES = 3


class TalonDiffers(ValidationError):
    """A sheet's talon is not the known talon of the deal: on the ``talon`` field, naming
    no card of the known one; ``talon`` is what was typed."""

    def __init__(self, talon, message: str):
        super().__init__({"talon": message})
        self.talon = tuple(talon)


def _differs_error(found) -> TalonDiffers:
    # The table may not have played the deal yet (the phone lies on the table during the
    # auction): the known talon is never named here. The director sees it on the report.
    return TalonDiffers(
        found,
        _(
            "This talon (%(found)s) is not the talon recorded for this deal. Check the box: if "
            "its talon really is other cards, report «the box does not match» on this deal's "
            "page; nothing of what you typed is lost."
        )
        % {"found": cards_shown(found)},
    )


def _tries_error(found) -> TalonDiffers:
    return TalonDiffers(
        found,
        _(
            "%(n)d different talons typed here were not the talon recorded for this deal, so "
            "the talon is not checked again at this table: report «the box does not match» on "
            "this deal's page, or ask the director to enter the sheet. Nothing of what you "
            "typed is lost."
        )
        % {"n": TALON_TRIES},
    )


def talon_refusals(play: TablePlay, deal: Deal) -> list[str]:
    """The talons this table was refused on this deal (as stored, e.g. «S8 S7»)."""
    return list(
        TalonRefusal.objects.filter(play=play, deal=deal)
        .order_by("at")
        .values_list("talon", flat=True)
    )


def talon_refused(play: TablePlay, deal: Deal, talon) -> None:
    """Keep a talon a table was refused (after the write that refused it rolled back). The
    refusal that closes the table's check sends the deal to the director at once: a report
    «коробка не совпадает» with the last talon typed, on his console (docs/game.md §2.7)."""
    TalonRefusal.objects.get_or_create(play=play, deal=deal, talon=talon_text(sorted_talon(talon)))
    if len(talon_refusals(play, deal)) >= TALON_TRIES:
        box_report_create(
            play,
            deal,
            kind=BoxReport.Kind.TALON,
            talon=talon_text(sorted_talon(talon)),
            note=_("%(n)d different talons typed at this table were refused: the director decides.")
            % {"n": TALON_TRIES},
        )


def talon_problem(play: TablePlay, deal: Deal, talon, *, by_director: bool = False) -> None:
    """Raise :class:`TalonDiffers` when the sheet's talon is not the known one. Asked only
    when a sheet is saved (never on «Проверить»: an answer before the play would tell the
    talon). A table that has been refused ``TALON_TRIES`` different talons is refused any
    talon, new or repeated, right or wrong, unchecked; the director is never limited."""
    if not talon:
        return
    versions = deal_versions(deal)
    known = known_talon(deal, play_version(play, deal, versions), versions)
    if known is None or (by_director and _same_cards(known.cards, talon)):
        return
    if not by_director and len(talon_refusals(play, deal)) >= TALON_TRIES:
        # Closed: any talon, new or tried before, right or wrong, gets the same answer
        # without being compared — else sending a guess twice would compare it.
        raise _tries_error(talon)
    if _same_cards(known.cards, talon):
        return
    if known.source == SOURCE_SHEET and not _others_carry(deal, play, known, versions):
        return  # only this table's own earlier typing: it may correct it
    raise _differs_error(talon)


def sorted_talon(talon) -> tuple[int, ...]:
    return tuple(sorted_cards(talon, TALON_ORDER))


def talon_recorded(play: TablePlay, deal: Deal, talon) -> None:
    """After a sheet with a talon is written (in its transaction): the version's talon is set
    when it was not known yet, or corrected when only this table had given it; a talon
    another table set meanwhile that differs refuses the write."""
    if not talon:
        return
    text = talon_text(talon)
    versions = deal_versions(deal)
    version = play_version(play, deal, versions)
    if version == 1:
        if Deal.objects.filter(pk=deal.pk, talon="").update(talon=text):
            return
        deal.talon = Deal.objects.filter(pk=deal.pk).values_list("talon", flat=True).get()
    else:
        row = versions.get(version)
        if row is None:
            return
        if DealVersion.objects.filter(pk=row.pk, talon="").update(talon=text):
            return
        row.talon = DealVersion.objects.filter(pk=row.pk).values_list("talon", flat=True).get()
    known = known_talon(deal, version, versions)
    if known is None or _same_cards(known.cards, talon):
        return
    if known.source == SOURCE_SHEET and not _others_carry(deal, play, known, versions):
        if version == 1:
            Deal.objects.filter(pk=deal.pk).update(talon=text)
        else:
            DealVersion.objects.filter(pk=versions[version].pk).update(talon=text)
        return
    raise _differs_error(talon)


# --- «коробка не совпадает» ---------------------------------------------------------------------


def deal_page(
    play: TablePlay, deal: Deal, *, played: bool = False, typed=None, errors=None
) -> dict:
    """What a table's deal page shows of its box: the talon of the version it plays, once
    known and once this table has played the deal (``played``: its sheet is written; the
    phone lies on the table during the auction, and a dealt box's talon is known from the
    start, so it is never shown before the play — docs/game.md §2.7); its reports and how they were decided; the report form (what was typed, its
    problems). One query when the deal was never fouled nor reported by this table: the
    deal's talon is read fresh (another table may have just recorded it), the rest only
    when there is something to show."""
    fresh = (
        Deal.objects.filter(pk=deal.pk)
        .annotate(
            fouled=Exists(DealVersion.objects.filter(deal=OuterRef("pk"))),
            reported=Exists(BoxReport.objects.filter(deal=OuterRef("pk"), play=play)),
        )
        .values("talon", "cards", "fouled", "reported")
        .get()
    )
    now = copy(deal)
    now.talon, now.cards = fresh["talon"], fresh["cards"]
    versions = deal_versions(deal) if fresh["fouled"] else {}
    version = play_version(play, deal, versions) if versions else 1
    typed = typed or {}
    reports = []
    if fresh["reported"]:
        reports = list(
            BoxReport.objects.filter(play=play, deal=deal).order_by("-reported_at", "-pk")
        )
    return {
        "known_talon": known_talon(now, version, versions) if played else None,
        "card_version": version,
        "box_reports": reports,
        "report_kinds": BoxReport.Kind.choices,
        "report_typed": typed,
        "report_errors": errors or {},
        "report_grid": talon_grid(typed.get("talon") or ()),
    }


def _changed(play: TablePlay) -> None:
    """The room's console (its board and this table's row) and the table's pages redraw."""
    clockdoc.room_and_entries_changed(play.round.room_id, [], play.table_id)


def box_report_create(
    play: TablePlay, deal: Deal, *, kind: str, talon=None, note: str = ""
) -> tuple[BoxReport, bool]:
    """A table reports that the box of ``deal`` is not as its protocol says. Returns the
    report and whether it is new (an open report of the same table and deal is kept, not
    repeated). Raises ValidationError by field."""
    if deal.board_set_id != play.board_set_id:
        raise ValidationError({"deal": _("This deal is not in the set this table plays.")})
    if kind not in BoxReport.Kind.values:
        raise ValidationError({"kind": _("Choose what differs in the box.")})
    cards = None
    if kind == BoxReport.Kind.TALON:
        if talon in (None, "", []):
            raise ValidationError({"talon": _("Choose the two cards of the talon you found.")})
        problems = Problems()
        cards = read_talon(talon, "talon", problems)
        if cards is None:
            raise ValidationError(problems.render(_lang()))
    note = (note or "").strip()[:200]
    with transaction.atomic():
        TablePlay.objects.select_for_update(of=("self",)).filter(pk=play.pk).first()
        existing = (
            BoxReport.objects.filter(play=play, deal=deal, state=BoxReport.State.OPEN)
            .order_by("pk")
            .first()
        )
        if existing is not None:
            return existing, False
        report = BoxReport.objects.create(
            deal=deal,
            play=play,
            kind=kind,
            talon=talon_text(cards) if cards else "",
            note=note,
        )
        _changed(play)
    return report, True


def _lang() -> str:
    return "en" if (get_language() or "").startswith("en") else "ru"


def _check_director(user, report: BoxReport) -> None:
    """The account's role in the event decides box reports (in the report's room, for a room
    director): events.staff's rule."""
    room = report.play.round.room
    staff.require(user, room.session.event, "boxes", room=room)


def _report_state(report: BoxReport) -> dict:
    """A box report as its log line keeps it."""
    return {
        "report": report.pk,
        "round": report.play.round.number,
        "deal": report.deal.code,
        "what": report.kind,
        "talon": report.talon or None,
        "state": report.state,
    }


def _log_report(report: BoxReport, by_user, before: dict, **after) -> None:
    log_action(
        report.play.round.room.session.event,
        by_user,
        "box.report",
        room=report.play.round.room,
        table=report.play.table,
        summary=report.note,
        before=before,
        after={**_report_state(report), **after},
    )


def _locked(report: BoxReport) -> BoxReport:
    locked = (
        BoxReport.objects.select_for_update(of=("self",))
        .select_related("play__round__room__session__event", "play__table", "deal__board_set")
        .get(pk=report.pk)
    )
    if locked.state != BoxReport.State.OPEN:
        raise ValidationError(_("This report is decided already."))
    return locked


def box_report_foul(report: BoxReport, *, by_user) -> DealVersion:
    """Mark the deal fouled from the reporting table on: the next version of its cards
    starts at the report's table-play, with the talon the table found; the report is marked
    fouled, and the deal's comparison is done again within each version."""
    with transaction.atomic():
        report = _locked(report)
        _check_director(by_user, report)
        before = _report_state(report)
        # The deal's row locked: two decisions on one deal number their versions in turn.
        Deal.objects.select_for_update(of=("self",)).filter(pk=report.deal_id).first()
        last = DealVersion.objects.filter(deal_id=report.deal_id).aggregate(n=Max("number"))["n"]
        version = DealVersion.objects.create(
            deal_id=report.deal_id,
            number=(last or 1) + 1,
            from_play=report.play,
            talon=report.talon,
            made_by=by_user,
        )
        report.state = BoxReport.State.FOULED
        report.resolved_at = timezone.now()
        report.resolved_by = by_user
        report.version = version
        report.save(update_fields=["state", "resolved_at", "resolved_by", "version"])
        Deal.objects.filter(pk=report.deal_id).update(scores_stale=True)
        _changed(report.play)
        _log_report(report, by_user, before, version=version.number)
        # Every table of the deal: their pages show the version's talon now, and their
        # players' phones the figures compared again.
        plays = list(
            TablePlay.objects.filter(board_set_id=report.deal.board_set_id).values_list(
                "round_id", "table_id"
            )
        )
        clockdoc.tables_changed([table for _round, table in plays])
        at = Q()
        for round_id, table_id in plays:
            at |= Q(round_id=round_id, table_id=table_id)
        clockdoc.entries_changed(
            Seat.objects.filter(at, entry__isnull=False).values_list("entry_id", flat=True)
        )
    return version


def box_report_dismiss(report: BoxReport, *, by_user) -> BoxReport:
    """The box is as dealt after all (or the report was a mistake): nothing changes."""
    with transaction.atomic():
        report = _locked(report)
        _check_director(by_user, report)
        before = _report_state(report)
        report.state = BoxReport.State.DISMISSED
        report.resolved_at = timezone.now()
        report.resolved_by = by_user
        report.save(update_fields=["state", "resolved_at", "resolved_by"])
        _changed(report.play)
        _log_report(report, by_user, before)
    return report
