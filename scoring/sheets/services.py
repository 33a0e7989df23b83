"""Writes of the scoring side: score sheets, confirmations, adjustments, and what the round's
end marks. Services write; views and serializers only translate.

Every score sheet goes through :func:`sheet_record`: the rules of the deal are checked and the
settlement computed by the pure core (``scoring.games.austrian``) with the event's rule set; the deal's
layout (active seats, first hand) comes from the ``Deal`` row, never from the scorer. Who may
write:

- the director of the event, at any time: his write is final (``confirmed``) and a change is
  a new version — history is kept, nothing is overwritten silently;
- a player seated at that table in that round, while the round is on the clock and after
  «Конец тура!» until the table's next round starts (see :func:`players_access`): a first
  result is ``entered``; the same result again records nothing; a *different* result does not
  overwrite — it is kept as a proposed version and the sheet becomes ``disputed`` until the
  director decides. What players write after «Конец тура!» is marked ``late``.

A change of a sheet's current result marks the deal's comparison stale; after commit the worker
recomputes it (``scoring.tasks``), and any reader recomputes what is still stale
(``scoring.standings``), so the figure is right at the next read either way.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Max
from django.utils.translation import gettext as _

from scoring import games
from scoring.games.forms import parse_talon
from scoring.models import Deal, Proof, ScoreSheet, ScoreSheetVersion, TablePlay
from scoring.sheets import boxes
from scoring.sheets.access import (  # noqa: E402, F401
    PROVEN,
    PlayersAccess,
    _actor,
    _console_changed,
    _locked_play,
    _log_play,
    _proof_of,
    entry_open_plays,
    entry_plays,
    play_access_set,
    players_access,
    plays_access,
    round_access_set,
)
from scoring.sheets.adjustments import (  # noqa: E402, F401
    adjustment_create,
    adjustment_delete,
    adjustments_table_create,
    table_play_find,
)

# The write side's one door: what the sheets' modules do, answered here too, so that a
# caller asks ``services`` whichever module holds it (check, access, adjustments, stale).
from scoring.sheets.check import (  # noqa: E402, F401
    Checked,
    _event_of,
    data_digest,
    essence_of_data,
    sheet_check,
)

logger = logging.getLogger("scoring")


# --- recording ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recorded:
    """What :func:`sheet_record` did: ``created``, ``corrected`` (a new current version),
    ``disputed`` (a different proposal kept in history) or ``unchanged`` (same result)."""

    sheet: ScoreSheet
    version: ScoreSheetVersion
    outcome: str


def _new_version(
    sheet, checked: Checked, number: int, by_user, by_entry, note: str, proof="", where=None
):
    device, via_entry = where or ("", None)
    return ScoreSheetVersion.objects.create(
        device=device if by_entry is not None else "",
        via_entry=via_entry if by_entry is not None else None,
        sheet=sheet,
        number=number,
        data=checked.data,
        result=checked.result,
        entered_by_user=by_user,
        entered_by_entry=by_entry,
        proof=proof if by_entry is not None else Proof.NONE,
        note=(note or "").strip()[:200],
    )


def _check_expected(sheet: ScoreSheet | None, expected_version) -> None:
    if expected_version in (None, ""):
        return
    try:
        expected = int(expected_version)
    except (TypeError, ValueError):
        raise ValidationError(
            {"expected_version": _("The version must be a whole number.")}
        ) from None
    now = sheet.current.number if sheet is not None and sheet.current_id else 0
    if expected != now:
        raise ValidationError(
            {
                "expected_version": _(
                    "The sheet has changed meanwhile: it is now at version %(now)d, you edited "
                    "version %(was)d. Look at it again and send your change once more."
                )
                % {"now": now, "was": expected}
            }
        )


def sheet_record(
    play: TablePlay,
    deal: Deal,
    data: object,
    *,
    by_user=None,
    by_entry=None,
    expected_version: int | None = None,
    note: str = "",
    proof: str | None = None,
    device: str = "",
    via_entry=None,
) -> Recorded:
    """Record a deal's result at a table (see the module's rules of who may write).

    ``proof``: how the player (``by_entry``) showed who he is (``scoring.sheets.proof``); none
    given is none shown: the version is marked so for the director, and only the round at
    the table now may be written so. ``device``: the phone it is written from
    (``scoring.sheets.device.device_hash``); ``via_entry``: the player whose own link the page
    carried, if any — kept so that one person cannot confirm what he entered unproven.

    ``expected_version`` (optional): the version the writer saw (0: no sheet yet); if the
    sheet changed meanwhile, nothing is saved. Raises ValidationError {field: message} in the
    user's language, PermissionDenied for a wrong actor; nothing is saved on error (but a
    player's talon refused is kept as tried, ``boxes.talon_refused``).
    """
    try:
        return _sheet_record(
            play,
            deal,
            data,
            by_user=by_user,
            by_entry=by_entry,
            expected_version=expected_version,
            note=note,
            proof=proof,
            where=(device, via_entry),
        )
    except boxes.TalonDiffers as error:
        if by_user is None:  # the write rolled back: keep what the table tried
            boxes.talon_refused(play, deal, error.talon)
        raise


def _sheet_state(sheet: ScoreSheet, version: ScoreSheetVersion | None = None) -> dict:
    """A sheet as its log line keeps it: which one, its version, status and entered data."""
    version = version if version is not None else sheet.current
    return {
        "sheet": sheet.pk,
        "deal": sheet.deal.code,
        "version": version.number if version is not None else 0,
        "status": sheet.status,
        "data": version.data if version is not None else None,
    }


def _sheet_record(
    play, deal, data, *, by_user, by_entry, expected_version, note, proof, where, restored=None
):
    """``restored``: the version number :func:`sheet_restore` accepts (its log line's kind)."""
    with transaction.atomic():
        play = _locked_play(play, sheet_of=deal)
        proof = _proof_of(by_entry, proof)
        # The deal as given (a set's deals never change; sheet_check checks it is the
        # play's set): its board set read once if the caller did not.
        access = _actor(play, by_user, by_entry, proof)
        late = access is not None and access.late
        checked = sheet_check(play, deal, data, by_director=by_user is not None)
        boxes.talon_recorded(play, deal, checked.deal.talon)
        sheet = None
        if play.has_sheet:  # no row yet (a first save): nothing to read
            sheet = (
                ScoreSheet.objects.select_related("current")
                .filter(play=play, deal=deal)
                .order_by()
                .first()
            )
        director = by_user is not None
        if sheet is None or sheet.current_id is None:
            _check_expected(sheet, expected_version)
            if sheet is None:
                sheet = ScoreSheet.objects.create(play=play, deal=deal)
            version = _new_version(sheet, checked, 1, by_user, by_entry, note, proof, where)
            sheet.current = version
            sheet.status = ScoreSheet.Status.CONFIRMED if director else ScoreSheet.Status.ENTERED
            sheet.late = sheet.late or late
            sheet.save(update_fields=["current", "status", "late", "updated_at"])
            _console_changed(play, [deal.pk])
            if director:
                sheet.deal = deal
                _log_play(
                    play, by_user, "sheet.record", summary=note, after=_sheet_state(sheet, version)
                )
            return Recorded(sheet, version, "created")
        # The talon is no part of the result (docs/game.md §2.7): the director's change of
        # it alone is a correction; a player's is the same result.
        talon_changed = director and parse_talon(sheet.current.data.get("talon")) != parse_talon(
            checked.data.get("talon")
        )
        if essence_of_data(sheet.current.data, play, deal) == checked.essence and not talon_changed:
            current = sheet.current
            if not director and current.proof == Proof.SEAT and proof in PROVEN:
                # The same result again, now with a proof: whoever proves it is the one who
                # entered it (docs/game.md §7.2), so a second person may confirm it anywhere.
                device, via_entry = where or ("", None)
                current.entered_by_entry, current.proof = by_entry, proof
                current.device, current.via_entry = device, via_entry
                current.save(update_fields=["entered_by_entry", "proof", "device", "via_entry"])
                _console_changed(play)
            if director and sheet.status != ScoreSheet.Status.CONFIRMED:
                sheet.deal = deal
                before = _sheet_state(sheet)
                sheet.status = ScoreSheet.Status.CONFIRMED  # the director's word is final
                sheet.confirmed_by_entry, sheet.confirmed_proof = None, Proof.NONE
                sheet.save(
                    update_fields=["status", "confirmed_by_entry", "confirmed_proof", "updated_at"]
                )
                _console_changed(play)
                _log_play(
                    play,
                    by_user,
                    "sheet.restore" if restored is not None else "sheet.confirm",
                    summary=note,
                    before=before,
                    after=_sheet_state(sheet),
                )
            return Recorded(sheet, sheet.current, "unchanged")
        last = sheet.versions.order_by("-number").first()
        if not director:
            if (
                last.number > sheet.current.number
                and essence_of_data(last.data, play, deal) == checked.essence
            ):
                return Recorded(sheet, last, "unchanged")  # the same proposal sent again
            version = _new_version(
                sheet, checked, last.number + 1, None, by_entry, note, proof, where
            )
            sheet.status = ScoreSheet.Status.DISPUTED
            sheet.late = sheet.late or late
            sheet.save(update_fields=["status", "late", "updated_at"])
            _console_changed(play)
            return Recorded(sheet, version, "disputed")
        _check_expected(sheet, expected_version)
        sheet.deal = deal
        before = _sheet_state(sheet)
        version = _new_version(sheet, checked, last.number + 1, by_user, None, note)
        sheet.current = version
        sheet.status = ScoreSheet.Status.CONFIRMED
        sheet.confirmed_by_entry, sheet.confirmed_proof = None, Proof.NONE
        sheet.save()
        changed = [deal.pk, *_carried_resettle(play, deal)]
        _console_changed(play, changed)
        after = _sheet_state(sheet, version)
        if restored is not None:
            after["restored"] = restored
        _log_play(
            play,
            by_user,
            "sheet.restore" if restored is not None else "sheet.correct",
            summary=note,
            before=before,
            after=after,
        )
        return Recorded(sheet, version, "corrected")


def _carried_resettle(play: TablePlay, deal: Deal) -> list[int]:
    """A game whose deals carry over (the running pot): after a correction the later deals
    of the set at this table are settled again (their entered data stays; their stored settlement follows)."""
    event = _event_of(play)
    if not games.of_event(event).sheets.carries_over(event):
        return []
    changed = []
    later = (
        ScoreSheet.objects.filter(play=play, deal__number__gt=deal.number, current__isnull=False)
        .select_related("current", "deal__board_set")
        .order_by("deal__number")
    )
    for sheet in later:
        try:
            checked = sheet_check(play, sheet.deal, sheet.current.data, talon=False)
        except ValidationError:
            break  # an earlier deal is missing: the pot cannot be known beyond it
        if checked.result != sheet.current.result:
            ScoreSheetVersion.objects.filter(pk=sheet.current_id).update(result=checked.result)
            changed.append(sheet.deal_id)
    return changed


def sheet_confirm(
    sheet: ScoreSheet,
    *,
    by_entry=None,
    by_user=None,
    proof: str | None = None,
    device: str = "",
    via_entry=None,
) -> ScoreSheet:
    """A player of another seat at that table, or the director, confirms the current result.

    Official means two people (docs/game.md §7.2): a player confirms only with a proof of
    who he is (``proof``: his own link or his PIN, ``scoring.sheets.proof``) — the table's link
    alone enters, it never confirms — and only when he is another person than whoever
    entered it: not the seat that entered it, not the player whose own link the entry was
    made from; and a sheet entered without a proof is never confirmed from the phone that
    entered it (``device``) nor from that player's link (``via_entry``: whose own link the
    confirming page carries). A disputed sheet waits for the director."""
    with transaction.atomic():
        sheet = (
            ScoreSheet.objects.select_for_update(of=("self",))
            .select_related("play__round__room__session__event", "play__table", "current")
            .get(pk=sheet.pk)
        )
        proof = _proof_of(by_entry, proof)
        if by_entry is not None and proof not in PROVEN:
            raise ValidationError(
                {
                    "pin": _(
                        "To confirm, show it is you: type your PIN from your name card, or "
                        "confirm from your own page. The table's link alone can enter a sheet, "
                        "not confirm it."
                    )
                }
            )
        access = _actor(sheet.play, by_user, by_entry, proof)
        if by_entry is not None:
            if sheet.status == ScoreSheet.Status.DISPUTED:
                raise ValidationError({"status": _("The sheet is disputed: the director decides.")})
            _check_second_person(sheet.current, by_entry, device, via_entry)
        if sheet.status != ScoreSheet.Status.CONFIRMED:
            before = _sheet_state(sheet) if by_entry is None else None
            sheet.status = ScoreSheet.Status.CONFIRMED
            sheet.late = sheet.late or (access is not None and access.late)
            sheet.confirmed_by_entry = by_entry
            sheet.confirmed_proof = proof
            sheet.confirmed_device = device if by_entry is not None else ""
            sheet.save(
                update_fields=[
                    "status",
                    "late",
                    "confirmed_by_entry",
                    "confirmed_proof",
                    "confirmed_device",
                    "updated_at",
                ]
            )
            _console_changed(sheet.play)
            if by_entry is None:
                _log_play(
                    sheet.play, by_user, "sheet.confirm", before=before, after=_sheet_state(sheet)
                )
        return sheet


def _check_second_person(current: ScoreSheetVersion, by_entry, device: str, via_entry) -> None:
    """Refuse a confirmation that may be the entering person's own (see
    :func:`sheet_confirm`)."""
    entered = {current.entered_by_entry_id, current.via_entry_id} - {None}
    if by_entry.pk in entered or (via_entry is not None and via_entry.pk in entered):
        raise PermissionDenied(
            _(
                "The player who entered the sheet cannot confirm it: a player of another "
                "seat at the table must, with his own PIN or from his own page."
            )
        )
    if current.proof == Proof.SEAT and (
        not current.device or not device or current.device == device
    ):
        raise PermissionDenied(
            _(
                "This sheet was entered on this phone without a PIN, so it cannot be confirmed "
                "on the same phone: the player confirming uses his own page on his own phone, "
                "or the sheet is entered again with the PIN of the player entering it."
            )
        )


def sheet_restore(sheet: ScoreSheet, number: int, *, by_user, note: str = "") -> Recorded:
    """The director settles a dispute with a version from the history (e.g. the players'
    proposal): it becomes a new current version; nothing is deleted."""
    version = sheet.versions.filter(number=number).order_by().first()
    if version is None:
        raise ValidationError({"version": _("No version %(n)s of this sheet.") % {"n": number}})
    note = note or _("version %(n)d accepted") % {"n": version.number}
    return _sheet_record(
        sheet.play,
        sheet.deal,
        version.data,
        by_user=by_user,
        by_entry=None,
        expected_version=None,
        note=note,
        proof=None,
        where=("", None),
        restored=version.number,
    )


# --- the round's end ------------------------------------------------------------------------


def late_tables_mark(rnd) -> list[int]:
    """At «Конец тура!»: mark the tables that have not recorded every deal of their set."""
    plays = (
        TablePlay.objects.filter(round=rnd)
        .select_related("board_set", "table")
        .annotate(recorded=Count("sheets"))
    )
    late = [p for p in plays if p.recorded < p.board_set.players]
    TablePlay.objects.filter(pk__in=[p.pk for p in late]).update(late=True)
    return sorted(p.table.number for p in late)


def sheet_versions_count(sheet_ids) -> dict[int, int]:
    return dict(
        ScoreSheetVersion.objects.filter(sheet_id__in=sheet_ids)
        .values("sheet_id")
        .annotate(n=Max("number"))
        .values_list("sheet_id", "n")
    )
