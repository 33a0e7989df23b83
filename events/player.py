"""Where a player sits now and next: his room, the round on the clock and his two seats.

Only the seating and the clock live here (events). The set each table plays is scoring's
(``TablePlay``), so the phone's page is put together by ``scoring.player_page``, which calls
:func:`player_seats` and adds the sets; events never imports scoring.

Every read is a fixed number of queries that return only the rows the phone shows: his room,
the first two rounds of the room not yet finished, his seats in those rounds. Nothing grows
with the rounds planned or the number of tables.
"""

from dataclasses import dataclass

from events.models import Entry, Room, Round, Seat

ON_CLOCK = (Round.State.RUNNING, Round.State.PAUSED)


@dataclass
class Place:
    round: int
    room: str
    table: int | None  # None: a pause
    position: str
    set: int | None = None  # filled by scoring (the table-play of the round)
    set_goes_to: list[int] | None = None  # for N: tables that play this set next round
    table_key: str = ""  # the table's scoring link
    round_id: int | None = None
    table_id: int | None = None

    @property
    def is_pause(self) -> bool:
        return self.table is None


@dataclass
class PlayerSeats:
    room: Room | None = None
    current: Round | None = None  # the room's round on the clock
    upcoming: Round | None = None  # the room's first round not yet started
    now: Place | None = None  # his seat in the current round, else in the upcoming one
    next: Place | None = None  # his seat in the round after that


def _place(seat: Seat) -> Place:
    return Place(
        round=seat.round.number,
        room=str(seat.round.room),
        table=seat.table.number if seat.table_id else None,
        position=seat.position,
        table_key=seat.table.key if seat.table_id else "",
        round_id=seat.round_id,
        table_id=seat.table_id,
    )


def player_room(entry: Entry) -> Room | None:
    """The room of the player's latest session (where his first seat of it is). One query."""
    seat = (
        Seat.objects.filter(entry=entry)
        .select_related("round__room__session")
        .order_by("-round__room__session__number", "round__number")
        .first()
    )
    return seat.round.room if seat else None


def player_seats(entry: Entry) -> PlayerSeats:
    """His room, its current and upcoming rounds, and his seats now and next: three queries."""
    room = player_room(entry)
    if room is None:
        return PlayerSeats()
    # Rounds start in order (rounds.round_start refuses otherwise), so the first two rounds
    # not finished are the one on the clock (if any) and the next pending one.
    open_rounds = list(
        Round.objects.filter(room=room).exclude(state=Round.State.FINISHED).order_by("number")[:2]
    )
    current = next((r for r in open_rounds if r.state in ON_CLOCK), None)
    upcoming = next((r for r in open_rounds if r.state == Round.State.PENDING), None)
    found = PlayerSeats(room=room, current=current, upcoming=upcoming)
    now_round = current or upcoming
    if now_round is None:
        return found
    by_round = {
        seat.round.number: seat
        for seat in Seat.objects.filter(
            entry=entry,
            round__room=room,
            round__number__in=[now_round.number, now_round.number + 1],
        )
        .select_related("round", "table")
        .order_by()  # two rows: no sort (Seat's ordering would join up to the event)
    }
    for seat in by_round.values():
        seat.round.room = room  # str(room) for the place, without another query
    if now_round.number in by_round:
        found.now = _place(by_round[now_round.number])
    if now_round.number + 1 in by_round:
        found.next = _place(by_round[now_round.number + 1])
    return found
