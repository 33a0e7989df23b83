"""What the «Явка» section of the room's console is drawn from (issue 34): the room's
check-in (``events.checkin.room_checkins``) and who may come in for a missing player."""

from __future__ import annotations

from events import checkin
from events.models import Room


def checkin_board(room: Room, error: dict | None = None) -> dict:
    """What the «Явка» section (director/_console_checkin.html) is drawn from: a fixed
    number of queries whatever the room's size. ``error``: a refused substitute, shown next
    to its row with what was chosen (``entry``, ``arriving``, ``text``)."""
    state = checkin.room_checkins(room)
    wanted = state.missing and state.substitute_from is not None
    return {
        "checkin": state,
        "checkin_candidates": checkin.substitute_candidates(room.session) if wanted else [],
        "checkin_error": error or {},
    }
