"""What a player's phone shows: where to sit now and next, the clock, the latest news."""

from dataclasses import dataclass

from events import clock
from events.models import Entry, Round, Seat


@dataclass
class Place:
    round: int
    room: str
    table: int | None  # None: a pause
    position: str
    set: int | None
    set_goes_to: list[int] | None = None  # for N: tables that play this set next round
    table_key: str = ""  # the table's scoring link

    @property
    def is_pause(self) -> bool:
        return self.table is None


def _place(seat: Seat, sets: dict[tuple[int, int], int]) -> Place:
    return Place(
        round=seat.round.number,
        room=str(seat.round.room),
        table=seat.table.number if seat.table_id else None,
        position=seat.position,
        set=sets.get((seat.round_id, seat.table.number)) if seat.table_id else None,
        table_key=seat.table.key if seat.table_id else "",
    )


def player_places(entry: Entry) -> dict:
    """The player's current/upcoming seats in his latest session, and where his set goes."""
    from scoring.models import TablePlay

    seats = list(
        Seat.objects.filter(entry=entry)
        .select_related("round__room__session", "table")
        .order_by("-round__room__session__number", "round__number")
    )
    if not seats:
        return {"room": None, "current": None, "now": None, "next": None, "rounds": []}
    session_id = seats[0].round.room.session_id
    seats = [s for s in seats if s.round.room.session_id == session_id]
    room = seats[0].round.room
    room_rounds = list(room.rounds.order_by("number"))
    plays = TablePlay.objects.filter(round__room=room).select_related("table", "board_set")
    sets = {(p.round_id, p.table.number): p.board_set.number for p in plays}
    by_round = {s.round.number: s for s in seats}
    current = next(
        (r for r in room_rounds if r.state in (Round.State.RUNNING, Round.State.PAUSED)), None
    )
    upcoming = next((r for r in room_rounds if r.state == Round.State.PENDING), None)
    now_round = current or upcoming
    now = (
        _place(by_round[now_round.number], sets)
        if now_round and now_round.number in by_round
        else None
    )
    following = now_round.number + 1 if now_round else None
    nxt = _place(by_round[following], sets) if following in by_round else None
    if now and not now.is_pause and now.position == "N" and following in by_round:
        now_sets = {t: s for (rid, t), s in sets.items() if rid == now_round.pk}
        next_round = next(r for r in room_rounds if r.number == following)
        next_sets = {t: s for (rid, t), s in sets.items() if rid == next_round.pk}
        now.set_goes_to = clock.set_destinations(now_sets, next_sets).get(now.table, [])
    return {
        "room": room,
        "current": current,
        "upcoming": upcoming,
        "now": now,
        "next": nxt,
        "rounds": [_place(s, sets) for s in seats],
    }
