"""Movement cards: the whole grid, a card per table, a card per participant. Pure Python.

The cards are read off the seating as plain data (:class:`RoomSeating`), which the
Django side builds from the ``Seat``/``TablePlay`` rows (:mod:`movements.seating`) and
the tests build straight from an engine schedule (:func:`room_from_schedule`). Where a
set goes at «Конец тура!» is :func:`events.clock.set_destinations` — one rule, one home.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from events.clock import set_destinations
from events.csvsafe import csv_safe_writer

POSITIONS = ("N", "E", "S", "W")
BOM = "\ufeff"
CSV_DELIMITER = ";"  # Excel in a Russian locale splits on «;», not on «,»


@dataclass(frozen=True, slots=True)
class Sitter:
    participant: int
    name: str = ""
    entry: int | None = None
    # The number players know him by: his own number, shown on the phones and in the
    # standings. In a first session it is the participant number; in a later one (seated by
    # lines, or after a withdrawal) the seat's participant number differs from it.
    own_number: int | None = None

    @property
    def number(self) -> int:
        return self.own_number if self.own_number is not None else self.participant

    @property
    def label(self) -> str:
        return f"{self.number} {self.name}".strip()


@dataclass(frozen=True, slots=True)
class TableRound:
    table: int
    set: int | None
    set_label: str
    seats: Mapping[str, Sitter]  # position → who sits there


@dataclass(frozen=True, slots=True)
class RoomRound:
    number: int
    tables: tuple[TableRound, ...]  # by table number
    pauses: tuple[Sitter, ...] = ()

    def table(self, number: int) -> TableRound | None:
        return next((t for t in self.tables if t.table == number), None)


@dataclass(frozen=True, slots=True)
class RoomSeating:
    number: int
    label: str
    kind: str
    tables: tuple[int, ...]
    positions: tuple[str, ...]  # positions in use, N E S W order
    rounds: tuple[RoomRound, ...]

    @property
    def has_pauses(self) -> bool:
        return any(r.pauses for r in self.rounds)


def positions_used(rounds: Iterable[RoomRound]) -> tuple[str, ...]:
    used = {p for r in rounds for t in r.tables for p in t.seats}
    return tuple(p for p in POSITIONS if p in used)


def room_from_schedule(
    schedule,
    *,
    number: int = 1,
    label: str = "",
    first: int = 1,
    names: Mapping[int, str] | None = None,
) -> RoomSeating:
    """A room's seating straight from an :class:`movements.engine.Schedule`."""
    names = names or {}

    def sitter(p: int) -> Sitter:
        who = first + p - 1
        return Sitter(who, names.get(who, ""))

    rounds = tuple(
        RoomRound(
            plan.number,
            tuple(
                TableRound(
                    tp.table,
                    tp.set,
                    str(tp.set),
                    {pos: sitter(p) for pos, p in tp.seats.items()},
                )
                for tp in sorted(plan.tables, key=lambda tp: tp.table)
            ),
            tuple(sitter(p) for p in plan.pauses),
        )
        for plan in schedule.round_plans
    )
    tables = tuple(sorted({t.table for r in rounds for t in r.tables}))
    return RoomSeating(
        number, label or str(number), schedule.kind, tables, positions_used(rounds), rounds
    )


# --- the whole grid ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GridCell:
    table: int
    set_label: str
    seats: tuple[tuple[str, Sitter | None], ...]  # (position, who) in the room's order


@dataclass(frozen=True, slots=True)
class GridRow:
    round: int
    cells: tuple[GridCell | None, ...]  # aligned with RoomSeating.tables
    pauses: tuple[Sitter, ...]


def grid(room: RoomSeating) -> list[GridRow]:
    """Rounds × tables of one room; a table that does not play a round has an empty cell."""
    rows = []
    for rnd in room.rounds:
        cells = []
        for number in room.tables:
            tr = rnd.table(number)
            cells.append(
                None
                if tr is None
                else GridCell(
                    number, tr.set_label, tuple((p, tr.seats.get(p)) for p in room.positions)
                )
            )
        rows.append(GridRow(rnd.number, tuple(cells), rnd.pauses))
    return rows


# --- table cards ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableCardRow:
    round: int
    set_label: str
    seats: tuple[tuple[str, Sitter | None], ...]
    # Tables that play this set next round; empty: the N player takes it to the director.
    goes_to: tuple[int, ...]
    last: bool  # the session's last round: every set goes back to the director


@dataclass(frozen=True, slots=True)
class TableCard:
    room: int
    room_label: str
    table: int
    positions: tuple[str, ...]
    rows: tuple[TableCardRow, ...]


def round_destinations(room: RoomSeating, index: int) -> dict[int, list[int]]:
    """For the room's ``index``-th round (0-based): table → tables that play its set next
    round; an empty list sends the set to the director (always so after the last round)."""
    rounds = room.rounds
    now = {t.table: t.set for t in rounds[index].tables if t.set is not None}
    following = rounds[index + 1] if index + 1 < len(rounds) else None
    nxt = {t.table: t.set for t in following.tables if t.set is not None} if following else {}
    return set_destinations(now, nxt)


def table_cards(room: RoomSeating) -> list[TableCard]:
    rounds = room.rounds
    destinations = [round_destinations(room, i) for i in range(len(rounds))]
    cards = []
    for number in room.tables:
        rows = []
        for i, rnd in enumerate(rounds):
            tr = rnd.table(number)
            if tr is None:
                continue
            rows.append(
                TableCardRow(
                    rnd.number,
                    tr.set_label,
                    tuple((p, tr.seats.get(p)) for p in room.positions),
                    tuple(destinations[i].get(number, ())),
                    i == len(rounds) - 1,
                )
            )
        cards.append(TableCard(room.number, room.label, number, room.positions, tuple(rows)))
    return cards


# --- participant cards ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParticipantRow:
    round: int
    room: int
    room_label: str
    table: int | None  # None: a pause
    position: str
    set_label: str
    name: str  # who holds the number this round (a substitute may take it over)
    entry: int | None = None

    @property
    def is_pause(self) -> bool:
        return self.table is None


@dataclass(frozen=True, slots=True)
class ParticipantCard:
    participant: int
    names: tuple[str, ...]  # every player who holds the number, in round order
    rows: tuple[ParticipantRow, ...]
    number: int | None = None  # the number shown: the first holder's own number

    @property
    def name(self) -> str:
        return " / ".join(self.names)

    @property
    def takeovers(self) -> tuple[tuple[str, int], ...]:
        """(name, round) for each substitute who took the number over, in round order."""
        out, holder = [], None
        for row in self.rows:
            if holder is not None and row.name and row.name != holder:
                out.append((row.name, row.round))
            holder = row.name or holder
        return tuple(out)

    @property
    def first_name(self) -> str:
        """Who held the number from the session's first round."""
        return self.names[0] if self.names else ""

    @property
    def room_labels(self) -> tuple[str, ...]:
        """A participant stays in his room for the session; listed once each."""
        return tuple(dict.fromkeys(r.room_label for r in self.rows))


def participant_cards(rooms: Sequence[RoomSeating]) -> list[ParticipantCard]:
    rows: dict[int, list[ParticipantRow]] = {}
    shown: dict[int, int] = {}
    for room in rooms:
        for rnd in room.rounds:
            for tr in rnd.tables:
                for position, who in tr.seats.items():
                    shown.setdefault(who.participant, who.number)
                    rows.setdefault(who.participant, []).append(
                        ParticipantRow(
                            rnd.number,
                            room.number,
                            room.label,
                            tr.table,
                            position,
                            tr.set_label,
                            who.name,
                            who.entry,
                        )
                    )
            for who in rnd.pauses:
                shown.setdefault(who.participant, who.number)
                rows.setdefault(who.participant, []).append(
                    ParticipantRow(
                        rnd.number, room.number, room.label, None, "", "", who.name, who.entry
                    )
                )
    cards = []
    for participant in sorted(rows):
        mine = tuple(sorted(rows[participant], key=lambda r: r.round))
        names = tuple(dict.fromkeys(r.name for r in mine if r.name))
        cards.append(ParticipantCard(participant, names, mine, shown[participant]))
    return cards


# --- CSV ----------------------------------------------------------------------------------


def grid_csv_rows(rooms: Sequence[RoomSeating]) -> list[list]:
    """One row per room, round and table; a pause row (empty table) lists who rests."""
    out = []
    for room in rooms:
        for row in grid(room):
            for cell in row.cells:
                if cell is None:
                    continue
                seats = dict(cell.seats)
                out.append(
                    [room.label, row.round, cell.table, cell.set_label]
                    + _seat_columns(seats)
                    + [""]
                )
            if row.pauses:
                out.append(
                    [room.label, row.round, "", ""]
                    + [""] * 8
                    + ["; ".join(s.label for s in row.pauses)]
                )
    return out


def table_csv_rows(cards: Iterable[TableCard], director: str) -> list[list]:
    """One row per table and round; the last column says where the set goes."""
    out = []
    for card in cards:
        for row in card.rows:
            goes = ", ".join(str(t) for t in row.goes_to) if row.goes_to else director
            out.append(
                [card.room_label, card.table, row.round, row.set_label]
                + _seat_columns(dict(row.seats))
                + [goes]
            )
    return out


def participant_csv_rows(cards: Iterable[ParticipantCard], pause: str) -> list[list]:
    out = []
    for card in cards:
        for row in card.rows:
            out.append(
                [
                    card.number,
                    row.name,
                    row.round,
                    row.room_label,
                    "" if row.is_pause else row.table,
                    pause if row.is_pause else row.position,
                    row.set_label,
                ]
            )
    return out


def _seat_columns(seats: Mapping[str, Sitter | None]) -> list:
    columns: list = []
    for position in POSITIONS:
        who = seats.get(position)
        columns += [who.number, who.name] if who else ["", ""]
    return columns


def csv_text(header: Sequence, rows: Iterable[Sequence]) -> str:
    """CSV with a BOM so Excel reads UTF-8 (Cyrillic names) without asking."""
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv_safe_writer(buffer, delimiter=CSV_DELIMITER, lineterminator="\r\n")  # no formulas
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()
