"""How far each session of an event is played, for the standings' headings: «после тура 2 из
11» and «предварительно» while a round of the session is still to play, «итоговая» only once
every round of every room is over (docs/game.md §4.4; issue 21, finding 9).

Read from the rooms' rounds' states (``events.models.Round``) in one query, whatever the
number of sessions, rooms and rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from events.models import Round, Session


@dataclass(frozen=True)
class SessionProgress:
    number: int  # the session's number in the event
    done: int  # rounds over in every room of the session
    total: int  # rounds of the session (its longest room's)

    @property
    def final(self) -> bool:
        """Every round of every room of the session is over («Конец тура!»)."""
        return self.total > 0 and self.done >= self.total


@dataclass(frozen=True)
class EventProgress:
    sessions: tuple[SessionProgress, ...]

    @property
    def final(self) -> bool:
        """Every session seated so far is over: the event standing is final."""
        return bool(self.sessions) and all(s.final for s in self.sessions)

    @property
    def unfinished(self) -> tuple[SessionProgress, ...]:
        """The sessions with a round still to play (the event standing waits on them)."""
        return tuple(s for s in self.sessions if not s.final)

    def of(self, number: int) -> SessionProgress | None:
        return next((s for s in self.sessions if s.number == number), None)


def session_progress(rooms: list[tuple[int, int]], number: int) -> SessionProgress:
    """A session's progress from (rounds, rounds over) of each of its rooms. Rooms of
    different lengths (special schemes) count as done with the session once done with their
    own rounds; the session's round count is its longest room's."""
    rooms = [(total, over) for total, over in rooms if total]
    if not rooms:
        return SessionProgress(number, 0, 0)
    total = max(t for t, _over in rooms)
    done = min(total if over >= t else over for t, over in rooms)
    return SessionProgress(number, done, total)


def event_progress(event) -> EventProgress:
    """Every session of ``event``, in order, with how many of its rounds are over: one
    query (a session with no room yet is there too, with no rounds)."""
    per_room: dict[int, list[tuple[int, int]]] = {}
    for number, _room, total, over in (
        Session.objects.filter(event=event)
        .values_list("number", "rooms__id")
        .annotate(
            total=Count("rooms__rounds"),
            over=Count("rooms__rounds", filter=Q(rooms__rounds__state=Round.State.FINISHED)),
        )
        .order_by("number", "rooms__id")
    ):
        per_room.setdefault(number, []).append((total, over))
    return EventProgress(
        tuple(session_progress(rooms, number) for number, rooms in per_room.items())
    )
