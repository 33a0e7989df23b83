"""Public pages of an event (/e/<slug>/): the hall screen's clock."""

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

from events import clockdoc
from events.models import Event


def _doc(slug) -> dict:
    doc = clockdoc.event_clock(slug)
    if doc is None:
        raise Http404
    return doc


def clock(request, slug):
    event = get_object_or_404(Event, slug=slug)
    return render(request, "public/clock.html", {"event": event, "doc": _doc(slug)})


@never_cache
def clock_json(request, slug):
    """The hall screen's poll: served from the room clock documents (events/clockdoc.py)."""
    return JsonResponse(_doc(slug))
