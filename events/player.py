"""Where a player sits now and next: his room, the round on the clock and his two seats.

Only the seating and the clock live here (events). The set each table plays is scoring's
(``TablePlay``), so the phone's page is put together by ``scoring.player.page``, which calls
:func:`player_seats` and adds the sets; events never imports scoring.

Every read is a fixed number of queries: his rooms, the first two rounds of the room not yet
finished, and the seats of those two rounds (:func:`room_seating`, the same for every player
of the room, so the phones share one copy of it). Nothing grows with the rounds planned.

His room is that of the session he plays now (:func:`pick_seating`): the director may seat
the next session while this one runs, and his «now» and «next» stay this session's until its
last round is over; then they are the next session's first rounds.
"""

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from events.models import Entry, Room, Round, Seat


@dataclass
class Place:
    round: int
    room: str
    table: int | None  # None: a pause
    position: str
    set: int | None = None  # filled by scoring (the table-play of the round)
    set_label: str = ""  # the set as the cards print it: «3», or «A3» with several families
    set_goes_to: list[int] | None = None  # for N: tables that play this set next round
    table_key: str = ""  # the table's scoring link (its QR code: the gate to its round)
    play_key: str = ""  # the round link of his table in this round (filled by scoring)
    round_id: int | None = None
    table_id: int | None = None

    @property
    def is_pause(self) -> bool:
        return self.table is None


@dataclass
class PlayerSeats:
    room: Room | None = None  # the room of the session he plays (see pick_seating)
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


def player_rooms(entry: Entry) -> list[Room]:
    """The rooms he has a seat in, sessions in order (one a session he plays). One query."""
    return list(
        Room.objects.filter(pk__in=Seat.objects.filter(entry=entry).values("round__room_id"))
        .select_related("session")
        .order_by("session__number", "number")
    )


@dataclass
class RoomSeating:
    """Every player's seats now and next in one room: what :func:`player_seats` picks from.
    Built once per change of the room's clock or seating and shared by the room's phones
    (``scoring.player.page`` caches it with the sets filled in)."""

    room: Room
    current: Round | None = None
    upcoming: Round | None = None
    places: dict[int, list[Place | None]] = field(default_factory=dict)  # entry → [now, next]

    @property
    def over(self) -> bool:
        """Every round of the room is over (no round on the clock, none to start)."""
        return self.current is None and self.upcoming is None

    @property
    def started(self) -> bool:
        """A round of the room has started (rounds start in order: round 1 first)."""
        return self.current is not None or self.upcoming is None or self.upcoming.number > 1

    def of(self, entry_id: int) -> PlayerSeats:
        now, nxt = self.places.get(entry_id, (None, None))
        return PlayerSeats(
            room=self.room,
            current=self.current,
            upcoming=self.upcoming,
            now=replace(now) if now else None,  # copies: the caller may fill them in
            next=replace(nxt) if nxt else None,
        )


def room_seating(room: Room) -> RoomSeating:
    """The room's current and upcoming rounds and every seat in them: two queries, whose
    rows are the two rounds' seats (never the rounds planned beyond them)."""
    # Rounds start in order (rounds.round_start refuses otherwise), so the first two rounds
    # not finished are the one on the clock (if any) and the next pending one.
    open_rounds = list(
        Round.objects.filter(room=room).exclude(state=Round.State.FINISHED).order_by("number")[:2]
    )
    current = next((r for r in open_rounds if r.is_on_clock), None)
    upcoming = next((r for r in open_rounds if r.state == Round.State.PENDING), None)
    found = RoomSeating(room=room, current=current, upcoming=upcoming)
    now_round = current or upcoming
    if now_round is None:
        return found
    seats = (
        Seat.objects.filter(
            round__room=room, round__number__in=[now_round.number, now_round.number + 1]
        )
        .select_related("round", "table")
        .order_by()  # no sort (Seat's ordering would join up to the event)
    )
    for seat in seats:
        seat.round.room = room  # str(room) for the place, without another query
        index = seat.round.number - now_round.number
        found.places.setdefault(seat.entry_id, [None, None])[index] = _place(seat)
    return found


def pick_seating(
    room_ids: list[int], seating_of: Callable[[int], RoomSeating | None], entry_id: int
) -> RoomSeating | None:
    """The seating his seats are read from, of his rooms ``room_ids`` (sessions in order):
    the first room of a session being played in which he sits now or next; else the first
    room not over in which he does (a session not started); else (every room over, or he
    sits in none any more: replaced) his last room. So his «now» and «next» stay those of the
    session he plays, even with the next one seated meanwhile, and are the next session's
    once his is over. ``seating_of``: a room's seating, read only as far as needed (the one
    room while his session runs; every one of his before any has started)."""
    waiting = last = None
    for room_id in room_ids:
        last = seating_of(room_id)
        if last is None or last.over or entry_id not in last.places:
            continue
        if last.started:
            return last
        if waiting is None:
            waiting = last
    return waiting if waiting is not None else last


def player_seats(entry: Entry) -> PlayerSeats:
    """His room, its current and upcoming rounds, and his seats now and next."""
    rooms = {room.pk: room for room in player_rooms(entry)}
    seating = pick_seating(list(rooms), lambda pk: room_seating(rooms[pk]), entry.pk)
    return seating.of(entry.pk) if seating is not None else PlayerSeats()
