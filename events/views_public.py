"""Public pages of an event (/e/<slug>/): the hall screen's clock."""

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

from events import clockdoc
from events.models import Event


def _doc(slug, room: str | None = None) -> dict:
    if room is not None and not room.isdecimal():
        raise Http404
    doc = clockdoc.event_clock(slug, room_id=int(room) if room is not None else None)
    if doc is None:
        raise Http404
    return doc


def clock(request, slug):
    event = get_object_or_404(Event, slug=slug)
    return render(request, "public/clock.html", {"event": event, "doc": _doc(slug)})


@never_cache
def clock_json(request, slug):
    """The hall screen's poll: served from the room clock documents (events/clockdoc.py).
    ``?room=<pk>``: that room's clock alone, whatever the hall shows (the director's room
    page)."""
    return JsonResponse(_doc(slug, request.GET.get("room")))
