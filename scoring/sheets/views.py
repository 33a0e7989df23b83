"""The director's scoring pages: sheets per round and table, the scorer form (check, then
save), a sheet's history, adjustments, publishing the results. Views only translate."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from events.access import director_event
from events.boards import TABLE_ORDER
from events.models import Round, Seat
from events.params import query_errors, query_int
from events.services import event_set_results_public
from scoring.games.forms import parse_talon
from scoring.models import Deal, Proof, ScoreSheet, ScoreSheetVersion, TablePlay
from scoring.sheets import adjustment_tokens, boxes, display, error_summary, services
from scoring.sheets.forms import AdjustmentForm
from scoring.sheets.scorer import ScorerStep, scorer_form, scorer_step
from scoring.standings import disclosure

# Lazy: rendered in the language of the request that shows them.
OUTCOMES = {
    "created": gettext_lazy("Deal %(code)s saved."),
    "corrected": gettext_lazy("Deal %(code)s corrected: version %(version)d."),
    "unchanged": gettext_lazy(
        "Deal %(code)s: the same result is already recorded; nothing changed."
    ),
    "disputed": gettext_lazy("Deal %(code)s: a different result is kept as a proposal."),
}
STALE_CHECK = gettext_lazy(
    "The sheet changed since it was checked: look at the settlement below and save again."
)


def _plays(event):
    return TablePlay.objects.filter(round__room__session__event=event)


def _play(event, play_pk) -> TablePlay:
    return get_object_or_404(
        _plays(event).select_related("round__room__session__event", "table__room", "board_set"),
        pk=play_pk,
    )


def _seats(play: TablePlay) -> list[Seat]:
    seats = Seat.objects.filter(round_id=play.round_id, table_id=play.table_id).select_related(
        "entry"
    )
    return sorted(seats, key=lambda seat: TABLE_ORDER.index(seat.position))


def _round_the_table(mapping) -> list[tuple[str, object]]:
    """(seat, value) of a sheet's per-seat mapping in table order: a JSON column keeps no
    order of its own (PostgreSQL's reads back E N S W)."""
    mapping = mapping if isinstance(mapping, dict) else {}
    return [(seat, mapping[seat]) for seat in TABLE_ORDER if seat in mapping]


def _defence_text(result) -> str:
    """«E вист · S пас», round the table, in the words of the result's own game."""
    return display.result_defence(result)


def _tricks_text(result) -> str:
    """«N 7 · E 3», round the table."""
    return display.result_tricks(result)


def _players(play: TablePlay) -> dict[str, str]:
    return {seat.position: seat.entry.full_name for seat in _seats(play)}


@director_event
@query_errors
def overview(request, event):
    """Sheets per round and table, with their status; the round is chosen in the page."""
    rounds = list(
        Round.objects.filter(room__session__event=event)
        .select_related("room__session")
        .order_by("room__session__number", "room__number", "number")
    )
    chosen = None
    wanted = query_int(request.GET, "round")
    if wanted is not None:
        chosen = next((r for r in rounds if r.pk == wanted), None)
        if chosen is None:
            raise Http404(_("No such round in this event."))
    if chosen is None and rounds:
        on_clock = [r for r in rounds if r.is_on_clock]
        started = [r for r in rounds if r.state != Round.State.PENDING]
        chosen = (on_clock or started[-1:] or rounds)[0]
    plays = []
    if chosen is not None:
        plays = list(
            _plays(event)
            .filter(round=chosen)
            .select_related("table", "board_set")
            .annotate(
                recorded=Count("sheets"),
                disputed=Count("sheets", filter=Q(sheets__status=ScoreSheet.Status.DISPUTED)),
                confirmed=Count("sheets", filter=Q(sheets__status=ScoreSheet.Status.CONFIRMED)),
            )
            .order_by("table__number")
        )
    access = services.plays_access(plays)
    for play in plays:
        play.access = access[play.pk]
    disputed = (
        ScoreSheet.objects.filter(
            play__round__room__session__event=event, status=ScoreSheet.Status.DISPUTED
        )
        .select_related("play__round", "play__table", "deal__board_set")
        .order_by("play__round__number", "play__table__number", "deal__number")
    )
    return render(
        request,
        "scoring/overview.html",
        {
            "event": event,
            "rounds": rounds,
            "chosen": chosen,
            "plays": plays,
            "disputed": disputed,
            "any_open": any(p.access.open for p in plays),
            "sessions": event.sessions.order_by("number"),
            "disclosure": disclosure.event_disclosure(event),
            "multi_room": len({r.room_id for r in rounds})
            > len({r.room.session_id for r in rounds}),
        },
    )


def _play_context(event, play, form=None):
    seats = _seats(play)
    deals = list(play.board_set.deals.order_by("number"))
    sheets = {
        s.deal_id: s for s in ScoreSheet.objects.filter(play=play).select_related("current", "deal")
    }
    latest = services.sheet_versions_count([s.pk for s in sheets.values()])
    rows = [
        {
            "deal": deal,
            "sheet": sheets.get(deal.pk),
            "versions": latest.get(sheets[deal.pk].pk, 0) if deal.pk in sheets else 0,
            "sits_out": [s for s in seats if s.position not in deal.active_seats],
            "tricks": _tricks_text(sheets[deal.pk].current.result)
            if deal.pk in sheets and sheets[deal.pk].current_id
            else "",
        }
        for deal in deals
    ]
    adjustments = list(play.adjustments.select_related("entry", "deal", "created_by"))
    return {
        "event": event,
        "play": play,
        "access": services.players_access(play),
        "seats": seats,
        "rows": rows,
        "adjustments": adjustments,
        # What the page's adjustment forms were drawn from (issue 34: changed meanwhile).
        "adjustments_token": adjustment_tokens.token_of(a.pk for a in adjustments),
        "form": form or AdjustmentForm(seats=seats, deals=deals),
    }


@director_event
def play_detail(request, event, play_pk):
    """One table in one round: its set's deals, their sheets, and its adjustments."""
    play = _play(event, play_pk)
    return render(request, "scoring/play.html", _play_context(event, play))


def _deal_of(play: TablePlay, number: int) -> Deal:
    deal = play.board_set.deals.filter(number=number).select_related("board_set").order_by().first()
    if deal is None:
        raise Http404(_("No such deal in this set."))
    return deal


@director_event
def sheet_form(request, event, play_pk, number):
    """The scorer form: «Check» shows the settlement, «Save» records exactly what was shown."""
    play = _play(event, play_pk)
    deal = _deal_of(play, number)
    sheet = (
        ScoreSheet.objects.filter(play=play, deal=deal).select_related("current").order_by().first()
    )
    players = _players(play)
    if request.method == "POST":
        step = scorer_step(request.POST, play, deal, players, by_user=request.user)
        if step.recorded:
            done = step.recorded
            messages.success(
                request,
                OUTCOMES[done.outcome] % {"code": deal.code, "version": done.version.number},
            )
            return redirect("director:play", pk=event.pk, play_pk=play.pk)
        if step.stale:
            messages.warning(request, STALE_CHECK)
    else:
        step = ScorerStep(scorer_form(play, deal, players, sheet=sheet))
    # A refused form's problems at the top, each linked to its field; the first is focused
    # (as on the table's phone: scoring.sheets.error_summary).
    summary = error_summary.Summary(error_summary.scorer_problems(step.form))
    error_summary.mark_autofocus(step.form, summary.first)
    return render(
        request,
        "scoring/sheet_form.html",
        {
            "event": event,
            "play": play,
            "deal": deal,
            "sheet": sheet,
            "error_summary": summary,
            "autofocus": summary.first,
            "form": step.form,
            "checked": step.checked,
            "preview": step.preview(deal, players),
            "sits_out": [s for s in TABLE_ORDER if s not in deal.active_seats and s in players],
            "players": players,
            "cancel_url": reverse("director:play", args=[event.pk, play.pk]),
        },
        status=400 if summary else 200,
    )


def _sheet(event, sheet_pk) -> ScoreSheet:
    return get_object_or_404(
        ScoreSheet.objects.filter(play__round__room__session__event=event).select_related(
            "play__round__room__session",
            "play__table",
            "play__board_set",
            "deal",
            "current",
            "confirmed_by_entry",
        ),
        pk=sheet_pk,
    )


#: What the history says of a version's confirmation.
CONFIRMED_BY_PLAYER = "player"  # a player of another seat, with his proof
CONFIRMED_BY_DIRECTOR = "director"  # the director's own word (his entry, or his «Confirm»)
UNCONFIRMED = "unconfirmed"  # the current version, waiting for a second person
DISPUTED_NOW = "disputed"  # the current version, with a different proposal after it
PROPOSAL = "proposal"  # a player's different result, after the current version
REPLACED = "replaced"  # an earlier version: a later one took its place


@dataclass(frozen=True)
class Confirmation:
    state: str
    entry: object = None  # the player who confirmed it (CONFIRMED_BY_PLAYER, or before a dispute)
    proof: str = ""  # how he showed it was he (scoring.models.Proof's label)
    at: datetime | None = None


@dataclass(frozen=True)
class VersionRow:
    """A version as the sheet's history shows it: who entered it and how he proved it was he,
    who confirmed it and how, when, and the talon it recorded."""

    version: ScoreSheetVersion
    current: bool
    proposed: bool
    entered_proof: str  # the Proof label; the director's own word for his versions
    confirmation: Confirmation
    defence: str
    tricks: str
    points: list[tuple[str, str]]  # (seat, points) round the table
    talon: str  # the cards with their suit symbols (HTML); "" for none


def _confirmation(sheet: ScoreSheet, version: ScoreSheetVersion) -> Confirmation:
    """Only the current version is ever confirmed (``services.sheet_confirm``); the sheet
    keeps who did it and how, and its last change is the moment it became confirmed."""
    if version.pk != sheet.current_id:
        if sheet.current is not None and version.number > sheet.current.number:
            return Confirmation(PROPOSAL)
        return Confirmation(REPLACED)
    by = sheet.confirmed_by_entry
    proof = Proof(sheet.confirmed_proof).label if by is not None else ""
    if sheet.status == ScoreSheet.Status.CONFIRMED:
        if by is not None:
            return Confirmation(CONFIRMED_BY_PLAYER, by, proof, sheet.updated_at)
        return Confirmation(CONFIRMED_BY_DIRECTOR, at=sheet.updated_at)
    if sheet.status == ScoreSheet.Status.DISPUTED:
        return Confirmation(DISPUTED_NOW, by, proof)
    return Confirmation(UNCONFIRMED)


def _version_rows(sheet: ScoreSheet, versions) -> list[VersionRow]:
    director_word = _("the director's own word")
    return [
        VersionRow(
            version=v,
            current=v.pk == sheet.current_id,
            proposed=sheet.current is not None and v.number > sheet.current.number,
            entered_proof=Proof(v.proof).label
            if v.entered_by_entry_id
            else (director_word if v.entered_by_user_id else ""),
            confirmation=_confirmation(sheet, v),
            defence=_defence_text(v.result),
            tricks=_tricks_text(v.result),
            points=[
                (seat, display.number_text(points))
                for seat, points in _round_the_table((v.result or {}).get("scores"))
            ],
            talon=boxes.cards_html(parse_talon((v.data or {}).get("talon")) or ()),
        )
        for v in versions
    ]


@director_event
def sheet_detail(request, event, sheet_pk):
    """A sheet's every version: who entered it and how he proved it was he, who confirmed it
    and how, when, and the talon it recorded; accept a proposal or confirm."""
    sheet = _sheet(event, sheet_pk)
    versions = sheet.versions.select_related(
        "entered_by_user", "entered_by_entry", "via_entry"
    ).order_by("-number")
    seats = _seats(sheet.play)
    return render(
        request,
        "scoring/sheet_detail.html",
        {
            "event": event,
            "sheet": sheet,
            "versions": _version_rows(sheet, versions),
            "players": {seat.position: seat.entry.full_name for seat in seats},
            "seats": seats,
        },
    )


@director_event
@require_POST
def sheet_confirm(request, event, sheet_pk):
    sheet = _sheet(event, sheet_pk)
    services.sheet_confirm(sheet, by_user=request.user)
    messages.success(request, _("Deal %(code)s confirmed.") % {"code": sheet.deal.code})
    return redirect("director:sheet", pk=event.pk, sheet_pk=sheet.pk)


@director_event
@require_POST
def sheet_restore(request, event, sheet_pk):
    sheet = _sheet(event, sheet_pk)
    try:
        number = query_int(request.POST, "version")  # ASCII digits only: «٣» is refused
        if number is None:
            raise ValueError
        done = services.sheet_restore(sheet, number, by_user=request.user)
    except ValueError:
        messages.error(request, _("Choose a version."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            OUTCOMES[done.outcome] % {"code": sheet.deal.code, "version": done.version.number},
        )
    return redirect("director:sheet", pk=event.pk, sheet_pk=sheet.pk)


#: What the director's open/close of a finished round's table said.
ACCESS_DONE = {
    TablePlay.Access.OPEN: gettext_lazy(
        "Table %(table)d may enter and confirm the sheets of round %(round)d again."
    ),
    TablePlay.Access.CLOSED: gettext_lazy(
        "Table %(table)d is closed: only you record the sheets of round %(round)d now."
    ),
    TablePlay.Access.CLOCK: gettext_lazy(
        "Table %(table)d follows the clock again for the sheets of round %(round)d."
    ),
}


@director_event
@require_POST
def play_access(request, event, play_pk):
    """The director opens a finished round to one table's players again, or closes it."""
    play = _play(event, play_pk)
    try:
        play = services.play_access_set(play, request.POST.get("access", ""), by_user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            ACCESS_DONE[play.players_access]
            % {"table": play.table.number, "round": play.round.number},
        )
    return redirect("director:play", pk=event.pk, play_pk=play.pk)


@director_event
@require_POST
def round_close(request, event, round_pk):
    """The director closes a finished round to every table (e.g. the session's last one)."""
    rnd = get_object_or_404(Round.objects.filter(room__session__event=event), pk=round_pk)
    try:
        services.round_access_set(rnd, TablePlay.Access.CLOSED, by_user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("Round %(n)d is closed to the tables: only you record its sheets now.")
            % {"n": rnd.number},
        )
    return redirect(f"{reverse('director:overview', args=[event.pk])}?round={rnd.pk}")


@director_event
@require_POST
def publish(request, event):
    public = request.POST.get("public") == "1"
    event_set_results_public(event, public, by_user=request.user)
    if public:
        # What becomes public now, and what later (scoring.standings.disclosure, docs/game.md §4.5).
        found = disclosure.event_disclosure(event)
        if not found.shown:
            text = _(
                "The results are public now: the standings and each player's totals. No deal "
                "is played out yet: each one's cards, analysis and travellers become public "
                "once every table has played it, and each session's seed once all its deals "
                "are played."
            )
        else:
            text = ngettext(
                "The results are public now: the standings and each player's totals. Of the "
                "%(total)d deal, %(shown)d is played out and public with its cards, analysis "
                "and travellers; the others follow as every table plays them, and each "
                "session's seed once all its deals are played.",
                "The results are public now: the standings and each player's totals. Of the "
                "%(total)d deals, %(shown)d are played out and public with their cards, "
                "analysis and travellers; the others follow as every table plays them, and "
                "each session's seed once all its deals are played.",
                found.total,
            ) % {"total": found.total, "shown": found.shown}
        messages.success(request, text)
    else:
        messages.success(request, _("The results are hidden now."))
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)  # e.g. the room's console the director published from
    return redirect("director:overview", pk=event.pk)


@director_event
@require_POST
def deals_show(request, event, number):
    """«Открыть сдачи сессии сейчас»: every deal of the session public with the standings
    (and its seed), before each is played out — say, rounds the director will not play."""
    session = get_object_or_404(event.sessions.select_related("event"), number=number)
    if request.POST.get("confirm") != "1":
        messages.error(
            request,
            _("Tick the box to confirm that every deal of session %(n)d may be shown now.")
            % {"n": session.number},
        )
    else:
        disclosure.deals_show(session, by_user=request.user)
        messages.success(
            request,
            _(
                "Every deal of session %(n)d is shown now to everyone once the results are "
                "published, with its seed."
            )
            % {"n": session.number},
        )
    return redirect(f"{reverse('director:overview', args=[event.pk])}#publish")
