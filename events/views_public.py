"""Public pages of an event (/e/<slug>/): the hall screen's clock."""

from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from events import announcements, rounds
from events.clock import current_round
from events.models import Announcement, Event, Room


def room_clock(room: Room, now) -> dict:
    """What a clock shows for one room: the current round, its state and end, the latest news."""
    current = current_round(room.rounds.order_by("number"))
    latest = (
        Announcement.objects.filter(room=room)
        .select_related("round", "room")
        .order_by("-fired_at", "-id")
        .first()
    )
    following = rounds.room_next_round(room)
    doc = {
        "room": room.number,
        "name": str(room),
        "rounds": room.rounds_planned,
        "round": current.number if current else None,
        "state": current.state if current else None,
        "ends_at": current.ends_at.isoformat() if current and current.ends_at else None,
        "remaining_ms": int(rounds.round_remaining(current, now).total_seconds() * 1000)
        if current
        else 0,
        "length_ms": int(rounds.round_length(current).total_seconds() * 1000) if current else 0,
        "next_round": following.number if following else None,
        "auto_start_at": following.auto_start_at.isoformat()
        if following and following.auto_start_at
        else None,
        "announcement": announcements.as_dict(latest) if latest else None,
    }
    return doc


def event_clock_doc(event: Event) -> dict:
    now = timezone.now()
    rooms = (
        Room.objects.of_event(event)
        .select_related("session__event")
        .order_by("session__number", "number")
    )
    return {
        "now": now.isoformat(),
        "event": event.name,
        "rooms": [room_clock(r, now) for r in rooms],
    }


def clock(request, slug):
    event = get_object_or_404(Event, slug=slug)
    return render(request, "public/clock.html", {"event": event, "doc": event_clock_doc(event)})


@never_cache
def clock_json(request, slug):
    event = get_object_or_404(Event, slug=slug)
    return JsonResponse(event_clock_doc(event))
