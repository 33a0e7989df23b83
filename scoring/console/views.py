"""The room's live console (the director's room page): the clock and its controls, the grid
of score sheets by table and deal, disputes and late tables. A scoring read model over the
events layer's clock, so it lives here; its addresses are the director's
(/director/events/<id>/rooms/<room>/…)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from events import announcements, clockdoc, notices, rounds, staff
from events.access import director_event
from events.models import Announcement, Event, Room, Round
from events.params import query_errors, query_int
from scoring.console import board as console
from scoring.console.calls import board_calls
from scoring.console.checkin_board import checkin_board


def forms_int_field(data, name, label) -> int:
    """The whole number typed in a clock control (a sign allowed: «−2» minutes)."""
    raw = data.get(name, "").strip()
    try:
        return int(raw)
    except ValueError:
        raise ValidationError(
            _("«%(field)s» must be a whole number, not «%(value)s».")
            % {"field": label, "value": raw}
        ) from None


ROUND_ACTIONS = {
    "start": rounds.round_start,
    "pause": rounds.round_pause,
    "resume": rounds.round_resume,
    "adjust": rounds.round_adjust,
    "end": rounds.round_end_now,
}


def _round_asked(request) -> int | None:
    """The console's ``?round=N`` (a round number in the room); None: follow the clock."""
    return query_int(request.GET, "round")


def _console(room, round_number) -> console.Console:
    try:
        return console.console_state(room, round_number=round_number)
    except console.NoSuchRound:
        raise Http404(_("No such round in this room.")) from None


def _room(event, room_pk) -> Room:
    return get_object_or_404(
        Room.objects.of_event(event).select_related("session__event"), pk=room_pk
    )


def _grid(state: console.Console) -> list[dict]:
    """The grid's rows with each cell's sign and name, and the empty cells that fill a row
    of a smaller set up to the widest one."""
    return [
        {
            "row": row,
            "cells": [(cell, *console.LEGEND[cell.state]) for cell in row.cells],
            "padding": range(len(state.deals) - len(row.cells)),
        }
        for row in state.rows
    ]


def _room_page(
    request,
    event,
    room,
    *,
    typed=None,
    status=200,
    round_number=None,
    field_errors=None,
    confirm_end=False,
    checkin_error=None,
):
    log = (
        Announcement.objects.filter(room=room)
        .select_related("round", "room")
        .order_by("-fired_at", "-id")
    )
    state = _console(room, round_number)
    return render(
        request,
        "director/room_detail.html",
        {
            "event": event,
            "room": room,
            "clock": clockdoc.room_clock(room),
            "current": room.rounds.on_clock().first(),
            "next_round": rounds.room_next_round(room),
            "log": [
                (
                    a,
                    announcements.headline(a),
                    announcements.details(a),
                    (a.fired_at - a.due_at).total_seconds() if a.due_at else None,
                )
                for a in log[:100]
            ],
            "typed": typed or {},
            "field_errors": field_errors or {},
            "confirm_end": confirm_end,
            "other_rooms": room.session.rooms.exclude(pk=room.pk).exists(),
            **_board(event, room, state),
            # «Явка» (director/_console_checkin.html): drawn with the page, not polled.
            **checkin_board(room, checkin_error),
        },
        status=status,
    )


def _board(event, room, state: console.Console) -> dict:
    """What the console's board (director/_console_board.html) is drawn from: the same on
    the page and in the poller's console.html."""
    return {
        "console": state,
        # The tables' calls «Позвать судью», at the board's top (director/_console_calls.html).
        "calls": board_calls(event, room),
        "legend": [(name, *console.LEGEND[name], state.counts[name]) for name in console.STATES],
        "rows_html": _rows_html(state),
        "page_path": reverse("director:room_detail", args=[event.pk, room.pk]),
    }


def _rows_html(state: console.Console) -> list[str]:
    """The grid's rows drawn (director/_console_row.html), each kept under its row's key,
    the language and the grid's width: after a save only that table's row is drawn again,
    so the whole board costs the same at 20 tables as at 100."""
    lang = get_language() or ""
    width = len(state.deals)
    items = dict(zip(state.row_keys, _grid(state), strict=True))
    keys = {f"console:rowhtml:{lang}:{width}:{key}": key for key in state.row_keys}
    row = get_template("director/_console_row.html")

    def draw(missing):
        return {html_key: row.render({"item": items[keys[html_key]]}) for html_key in missing}

    drawn = clockdoc.many_by_tokens(list(keys), draw, timeout=console.ROW_TIMEOUT)
    # Safe: drawn by our own template, which escapes what it shows.
    return [mark_safe(drawn[html_key]) for html_key in keys]


@director_event
@query_errors
def room_detail(request, event, room_pk):
    """The room's live console: the clock and its controls, the grid of sheets, disputes and
    late tables, and the ways to act on them."""
    room = _room(event, room_pk)
    return _room_page(
        request,
        event,
        room,
        round_number=_round_asked(request),
        confirm_end=request.GET.get("confirm") == "end",
    )


@never_cache
@login_required
@query_errors
def room_console_board(request, pk, room_pk):
    """The console's board for the page's poller (console.js swaps it in whole: the page and
    the poller draw it with one template). ``?since=<version>``: 204 when nothing changed,
    the version in ``X-Console-Version``."""
    round_number = _round_asked(request)
    # One query finds the room and proves it is this director's; an unchanged version
    # answers from the cache without building the grid (hundreds of polls an hour).
    room = (
        Room.objects.filter(pk=room_pk, session__event__in=Event.objects.visible_to(request.user))
        .filter(session__event_id=pk)
        .select_related("session__event")
        .order_by()
        .first()
    )
    if room is None:
        raise Http404(_("No such event among yours."))
    version = clockdoc.console_version(room)
    if request.GET.get("since") == version:
        unchanged = HttpResponse(status=204)
        unchanged["X-Console-Version"] = version
        return unchanged
    # Drawn once per version (read before drawing) and language: every console open on the
    # room (the director's laptop, an assistant's) takes the same copy. The board holds no
    # request and no CSRF token, so one copy fits them all.
    # Whether the board shows the calls' «Иду» and «Решено»: one copy per answer (the
    # buttons' CSRF token is the page's own, put in by console.js).
    can_call = staff.may(request.user, room.session.event, "calls", room=room)
    key = (
        f"console-board:{room.pk}:{version}:{round_number or ''}:{get_language() or ''}"
        f":{'c' if can_call else '-'}"
    )

    def draw() -> str:
        state = _console(room, round_number)
        return render_to_string(
            "director/_console_board.html",
            {**_board(room.session.event, room, state), "can_call": can_call},
        )

    board = HttpResponse(clockdoc.by_tokens(key, draw))
    board["X-Console-Version"] = version
    return board


@director_event
@require_POST
def round_action(request, event, round_pk, action):
    rnd = get_object_or_404(
        Round.objects.filter(room__session__event=event).select_related("room__session__event"),
        pk=round_pk,
    )
    service = ROUND_ACTIONS.get(action)
    if service is None:
        raise Http404(_("No such clock action."))
    if action == "end" and request.POST.get("confirm") != "yes":
        # Ending a round cannot be undone: ask first (the page shows what it will do).
        return _room_page(request, event, rnd.room, confirm_end=True)
    kwargs = {}
    try:
        if action == "adjust":
            if not request.POST.get("minutes", "").strip():
                raise ValidationError(
                    _(
                        "«Add minutes»: type how many minutes to add, e.g. 5, or a negative "
                        "number such as −2 to take time off."
                    )
                )
            kwargs["seconds"] = forms_int_field(request.POST, "minutes", _("Add minutes")) * 60
        elif action == "start" and request.POST.get("minutes", "").strip():
            kwargs["length_seconds"] = forms_int_field(request.POST, "minutes", _("minutes")) * 60
        rounds.timers_unqueued()  # what an earlier request of this thread left: not ours
        service(rnd, by_user=request.user, **kwargs)
    except ValidationError as error:
        # Show the refusal on the page itself, next to the field, keeping what was typed.
        text = " ".join(error.messages)
        if action not in FIELD_ACTIONS:  # the others show it next to their field, once
            messages.error(request, text)
        typed = {action: request.POST.get("minutes", "")}
        return _room_page(
            request, event, rnd.room, typed=typed, status=400, field_errors={action: text}
        )
    notices.tell_unqueued(request)
    return redirect("director:room_detail", pk=event.pk, room_pk=rnd.room_id)


#: The clock actions whose form has a field the refusal is shown next to.
FIELD_ACTIONS = ("adjust", "start")
