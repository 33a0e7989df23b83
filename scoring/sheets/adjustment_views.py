"""The director's adjustments pages (docs/game.md §5): the event's list, one table-round's artificial scores and penalties, a whole round's table of scores set at once, and their deletion."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from events import meanwhile, staff
from events.access import director_event
from events.boards import TABLE_ORDER, set_layout
from events.models import ActionLog, Round, Seat
from events.params import query_errors, query_int
from scoring.models import Adjustment
from scoring.sheets import adjustment_tokens, services
from scoring.sheets.forms import AdjustmentForm, RoundTable, TableAdjustmentForm
from scoring.sheets.views import _play, _play_context, _plays, _seats


def _event_rounds(event, user) -> list[Round]:
    """The rounds the whole-table form offers: every round of the event, a room director's
    rooms' only (the others' would be refused on sending)."""
    found = Round.objects.filter(room__session__event=event)
    mine = staff.rooms_of(user, event)
    if mine is not None:  # (labelled with their rooms: _many_rooms)
        found = found.filter(room__number__in=mine)
    return list(
        found.select_related("room__session").order_by(
            "room__session__number", "room__number", "number"
        )
    )


def _many_rooms(event) -> bool:
    return Round.objects.filter(room__session__event=event).values("room_id").distinct().count() > 1


def _round_tables(event) -> dict[int, list[RoundTable]]:
    """Each round's tables for the whole-table form: the seats taken at each (from the
    round's seats) and its set's deals' active seats (``events.boards``), in two queries."""
    taken: dict[tuple[int, int], set[str]] = {}
    for round_id, table, position in (
        Seat.objects.filter(round__room__session__event=event, table__isnull=False)
        .order_by()
        .values_list("round_id", "table__number", "position")
    ):
        taken.setdefault((round_id, table), set()).add(position)
    found: dict[int, list[RoundTable]] = {}
    for round_id, table, players in (
        _plays(event)
        .order_by("round_id", "table__number")
        .values_list("round_id", "table__number", "board_set__players")
    ):
        deals = tuple(
            "".join(s.value for s in layout.active_seats) for layout in set_layout(players)
        )
        seats = "".join(p for p in TABLE_ORDER if p in taken.get((round_id, table), ()))
        found.setdefault(round_id, []).append(RoundTable(table, seats, deals))
    return found


def _table_form_initial(event, rounds, wanted) -> dict:
    """Prefill from ``?play=<id>`` (the table-round page links here); else the round on the
    clock (or the latest one started)."""
    play = (
        _plays(event).select_related("table").filter(pk=wanted).first()
        if wanted is not None
        else None
    )
    if play is not None:
        return {"round": play.round_id, "table": play.table.number}
    on_clock = [r for r in rounds if r.is_on_clock]
    started = [r for r in rounds if r.state != Round.State.PENDING]
    chosen = (on_clock or started[-1:] or rounds[:1] or [None])[0]
    return {"round": chosen.pk} if chosen else {}


def _adjustments_page(request, event, form, *, status=200):
    adjustments = list(
        Adjustment.objects.filter(play__round__room__session__event=event)
        .select_related(
            "play__round__room__session",
            "play__table__room",
            "deal__board_set",
            "entry",
            "created_by",
        )
        .order_by(
            "play__round__room__session__number",
            "play__round__room__number",
            "play__round__number",
            "play__table__number",
            "deal__number",
            "id",
        )
    )
    # A row's deletion carries its table-round's adjustments only (not the whole event's).
    by_play: dict[int, list[int]] = {}
    for a in adjustments:
        by_play.setdefault(a.play_id, []).append(a.pk)
    for a in adjustments:
        a.play_token = adjustment_tokens.token_of(by_play[a.play_id])
    return render(
        request,
        "scoring/adjustments.html",
        {
            "event": event,
            "adjustments": adjustments,
            # What the page's forms were drawn from (issue 34: changed meanwhile).
            "adjustments_token": adjustment_tokens.token_of(a.pk for a in adjustments),
            "table_form": form,
            # A room director gives whole-table scores in his rooms: the form is his too.
            "can_adjust": staff.role_of(request.user, event) in staff.RULES["adjust"],
            "multi_room": _many_rooms(event),
        },
        status=status,
    )


@director_event
@query_errors
def adjustment_list(request, event):
    """Every adjustment of the event, and the form that gives a whole table its artificial
    scores at once."""
    rounds = _event_rounds(event, request.user)
    form = TableAdjustmentForm(
        rounds=rounds,
        tables=_round_tables(event),
        many_rooms=_many_rooms(event),
        initial=_table_form_initial(event, rounds, query_int(request.GET, "play")),
    )
    return _adjustments_page(request, event, form)


@director_event
@require_POST
def adjustments_table(request, event):
    """One artificial score for a whole table-round (or one of its deals), in one write."""
    rounds = _event_rounds(event, request.user)
    form = TableAdjustmentForm(
        request.POST, rounds=rounds, tables=_round_tables(event), many_rooms=_many_rooms(event)
    )
    if form.is_valid():
        c = form.cleaned_data
        try:
            play = services.table_play_find(event, round_id=c["round"], table=c["table"])
            deal = None
            if c["deal"] is not None:
                deal = play.board_set.deals.filter(number=c["deal"]).first()
                if deal is None:
                    raise ValidationError(
                        {
                            "deal": _("Set %(set)s has no deal %(n)d.")
                            % {"set": play.board_set.label, "n": c["deal"]}
                        }
                    )
            done = services.adjustments_table_create(
                play,
                by_user=request.user,
                score=c["score"],
                reason=c["reason"],
                deal=deal,
                seat_scores=form.seat_scores(),
                expected=request.POST.get("expected"),
            )
        except ValidationError as error:
            form.apply(error)
        else:
            messages.success(
                request,
                ngettext(
                    "Table %(table)d, round %(round)d: %(count)d artificial score given "
                    "(players: %(players)d, deals: %(deals)d).",
                    "Table %(table)d, round %(round)d: %(count)d artificial scores given "
                    "(players: %(players)d, deals: %(deals)d).",
                    len(done.adjustments),
                )
                % {
                    "table": play.table.number,
                    "round": play.round.number,
                    "count": len(done.adjustments),
                    "players": done.players,
                    "deals": done.deals,
                },
            )
            return redirect("director:play", pk=event.pk, play_pk=play.pk)
    return _adjustments_page(request, event, form, status=400)


@director_event
@require_POST
def adjustment_add(request, event, play_pk):
    play = _play(event, play_pk)
    seats = _seats(play)
    deals = list(play.board_set.deals.order_by("number"))
    form = AdjustmentForm(request.POST, seats=seats, deals=deals)
    if form.is_valid():
        c = form.cleaned_data
        entry = next(s.entry for s in seats if s.entry_id == c["entry"])
        deal = next((d for d in deals if d.number == c["deal"]), None)
        try:
            services.adjustment_create(
                play,
                entry=entry,
                kind=c["kind"],
                by_user=request.user,
                deal=deal,
                score=c.get("score") or "",
                penalty=c.get("penalty"),
                reason=c["reason"],
                expected=request.POST.get("expected"),
            )
        except ValidationError as error:
            form.apply(error)
        else:
            messages.success(request, _("Adjustment saved."))
            return redirect("director:play", pk=event.pk, play_pk=play.pk)
    return render(request, "scoring/play.html", _play_context(event, play, form), status=400)


@director_event
@require_POST
def adjustment_delete(request, event, adjustment_pk):
    adjustment = Adjustment.objects.filter(
        play__round__room__session__event=event, pk=adjustment_pk
    ).first()
    if adjustment is None:
        # Deleted meanwhile by another director: say so, rather than a bare «not found».
        line = (
            ActionLog.objects.filter(
                event=event, kind__in=adjustment_tokens.KINDS, before__adjustment=adjustment_pk
            )
            .order_by("-at", "-id")
            .first()
        )
        if line is None:
            raise Http404
        messages.error(
            request,
            _("This adjustment was deleted meanwhile by %(who)s at %(when)s.")
            % {"who": line.login or "—", "when": meanwhile.when(line.at)},
        )
        return redirect("director:adjustments", pk=event.pk)
    try:
        services.adjustment_delete(
            adjustment, by_user=request.user, expected=request.POST.get("expected")
        )
    except PermissionDenied:
        raise Http404 from None
    except ValidationError as refused:
        # Changed meanwhile: nothing deleted; the page drawn again says what changed.
        messages.error(request, " ".join(refused.messages))
    else:
        messages.success(request, _("Adjustment deleted."))
    if request.POST.get("back") == "play":
        return redirect("director:play", pk=event.pk, play_pk=adjustment.play_id)
    return redirect("director:adjustments", pk=event.pk)
