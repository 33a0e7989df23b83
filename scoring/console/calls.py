"""The console's part of «Позвать судью» (issue 34): the room's open calls as the board
draws them, and the director's «Иду» and «Решено» (``events.calls``)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from events import calls
from events.access import director_event
from events.models import TableCall


def board_calls(event, room) -> list[dict]:
    """The room's open calls, each with its buttons' addresses: one query."""
    return [
        {
            "call": call,
            "going_url": reverse("director:call_going", args=[event.pk, call.pk]),
            "close_url": reverse("director:call_close", args=[event.pk, call.pk]),
        }
        for call in calls.open_calls(room)
    ]


def _answer(request, event, call_pk, service):
    call = get_object_or_404(
        TableCall.objects.filter(table__room__session__event=event).select_related(
            "table__room__session__event"
        ),
        pk=call_pk,
    )
    try:
        service(call, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        # Back to the calls (a room director on a phone keeps his place, not the clock's).
        back = reverse("director:room_detail", args=[event.pk, call.table.room_id]) + "#calls"
    return redirect(back)


@director_event
@require_POST
def call_going(request, event, call_pk):
    """«Иду»: the director is on his way to the table."""
    return _answer(request, event, call_pk, calls.call_going)


@director_event
@require_POST
def call_close(request, event, call_pk):
    """«Решено»: the call is resolved."""
    return _answer(request, event, call_pk, calls.call_close)
