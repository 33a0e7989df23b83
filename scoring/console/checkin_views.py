"""The «Явка» section of the room's console (issue 34): the players' check-in of the room
(``events.checkin``), a director's mark by hand and its taking back, the session's «before
each round» switch, and a substitute seated from a missing player's row in one step
(``movements.services.seat_substitute_present``). The door (``events.access.ACTIONS``) asks
«checkin» in the room of the address, «seating» for the switch and the substitute; the
services ask again."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import checkin
from events.access import director_event
from events.models import Room
from events.params import BadQueryParam, query_int
from movements.services import seat_substitute_present, substitution_text
from scoring.console.views import _room_page

#: Their messages are shown in the «Явка» section the page comes back to (#checkin), not at
#: the page's top, out of sight (templates/base.html leaves them to the section).
SHOWN_IN_SECTION = "checkin"


def _room(event, room_pk) -> Room:
    return get_object_or_404(
        Room.objects.of_event(event).select_related("session__event"), pk=room_pk
    )


def _back(event, room):
    return redirect(reverse("director:room_detail", args=[event.pk, room.pk]) + "#checkin")


def _posted_int(request, name, minimum=1):
    try:
        return query_int(request.POST, name, minimum=minimum)
    except BadQueryParam:
        return None


def _entry(event, request, name):
    pk = _posted_int(request, name)
    return event.entries.filter(pk=pk).first() if pk is not None else None


@director_event
@require_POST
def checkin_mark(request, event, room_pk):
    """A director checks a player of the room in by hand (``unmark``: takes a mistaken mark
    back)."""
    room = _room(event, room_pk)
    entry = _entry(event, request, "entry")
    round_number = _posted_int(request, "round", minimum=0)
    undo = request.POST.get("undo") == "1"
    try:
        if entry is None or round_number is None:
            raise ValidationError(_("Choose a player of this room and the check-in's round."))
        if undo:
            checkin.checkin_unmark(room.session, entry, round=round_number, by=request.user)
        else:
            checkin.checkin_mark(room.session, entry, round=round_number, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages), extra_tags=SHOWN_IN_SECTION)
    else:
        text = _("%(name)s is no longer checked in.") if undo else _("%(name)s is checked in.")
        messages.success(request, text % {"name": entry.full_name}, extra_tags=SHOWN_IN_SECTION)
    return _back(event, room)


@director_event
@require_POST
def checkin_each_round(request, event, room_pk):
    """The session's switch: check-in before each round, or before the session only."""
    room = _room(event, room_pk)
    value = request.POST.get("each_round") == "1"
    checkin.session_set_checkin_each_round(room.session, value, by=request.user)
    if value:
        messages.success(
            request, _("The players now check in before each round."), extra_tags=SHOWN_IN_SECTION
        )
    else:
        messages.success(
            request,
            _("The players now check in once, before the session."),
            extra_tags=SHOWN_IN_SECTION,
        )
    return _back(event, room)


@director_event
@require_POST
def checkin_substitute(request, event, room_pk):
    """«Посадить замену» from a missing player's row (``movements.services.
    seat_substitute_present``): seated from the room's next round not started and checked in
    — both or neither. A refusal: the room page with the reason next to the row, the choice
    kept."""
    room = _room(event, room_pk)
    leaving = _entry(event, request, "leaving")
    arriving = _entry(event, request, "arriving")
    error = {
        "entry": leaving.pk if leaving else None,
        "arriving": arriving.pk if arriving else None,
    }
    try:
        if leaving is None:
            raise ValidationError(_("Choose the missing player to replace."))
        if arriving is None:
            raise ValidationError(_("Choose the substitute."))
        done = seat_substitute_present(
            room,
            leaving=leaving,
            arriving=arriving,
            checkin_round=checkin.room_checkins(room).round,
            by=request.user,
        )
    except ValidationError as error_raised:
        error["text"] = " ".join(error_raised.messages)
        return _room_page(request, event, room, status=400, checkin_error=error)
    messages.success(
        request,
        substitution_text(
            arriving=done.arriving,
            leaving=leaving,
            from_round=done.from_round,
            changed=done.changed,
        ),
        extra_tags=SHOWN_IN_SECTION,
    )
    return _back(event, room)
