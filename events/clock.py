"""Pure timing maths of the round clock, and the moves announced at «Конец тура!».

Imports nothing from Django: instants are timezone-aware datetimes, spans are timedeltas.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

RUNNING, PAUSED, PENDING, FINISHED = "running", "paused", "pending", "finished"


def round_length(
    *,
    deals: int,
    minutes_per_deal: int,
    session_seconds: int | None = None,
    round_seconds: int | None = None,
) -> timedelta:
    """deals-in-set × minutes-per-deal, unless the director set the session's or the round's."""
    if round_seconds:
        return timedelta(seconds=round_seconds)
    if session_seconds:
        return timedelta(seconds=session_seconds)
    return timedelta(minutes=deals * minutes_per_deal)


def remaining(
    state: str,
    *,
    ends_at: datetime | None,
    paused_remaining: timedelta | None,
    now: datetime,
    length: timedelta,
) -> timedelta:
    """Time left on the clock, never negative."""
    if state == PENDING:
        return length
    if state == FINISHED:
        return timedelta(0)
    if state == PAUSED:
        return max(paused_remaining or timedelta(0), timedelta(0))
    return max(ends_at - now, timedelta(0))


def warning_at(ends_at: datetime, warning_minutes: int) -> datetime | None:
    """When «Осталось N минут» is due, or None when the warning is off."""
    if not warning_minutes:
        return None
    return ends_at - timedelta(minutes=warning_minutes)


@dataclass(frozen=True)
class LineMove:
    line: str
    tables: int  # how many tables forward (+) or back (−); 0 stays


def line_moves(
    now_seats: Mapping[int, tuple[int, str]], next_seats: Mapping[int, tuple[int, str]], tables: int
) -> list[LineMove] | None:
    """Each line's move when every player of the line moves alike (prime and skip rooms).

    ``now_seats``/``next_seats``: participant → (table, position). None when the lines do
    not move as blocks (special schemes): then only each player's own next seat is told.
    """
    steps: dict[str, set[int]] = {}
    for who, (table, position) in now_seats.items():
        if who not in next_seats:
            return None
        next_table, next_position = next_seats[who]
        if next_position != position:
            return None
        step = (next_table - table) % tables
        if step > tables // 2:
            step -= tables
        steps.setdefault(position, set()).add(step)
    if any(len(s) != 1 for s in steps.values()):
        return None
    order = "NESW"
    return [LineMove(line, next(iter(steps[line]))) for line in sorted(steps, key=order.index)]


def set_destinations(
    now_sets: Mapping[int, int], next_sets: Mapping[int, int]
) -> dict[int, list[int]]:
    """Where each table's set goes at «Конец тура!»: table → tables that play it next round.

    An empty list means the set is not played next round: it goes back to the director.
    """
    tables_by_set: dict[int, list[int]] = {}
    for table, board_set in sorted(next_sets.items()):
        tables_by_set.setdefault(board_set, []).append(table)
    return {
        table: tables_by_set.get(board_set, []) for table, board_set in sorted(now_sets.items())
    }


ON_CLOCK = (RUNNING, PAUSED)


def current_round(rounds):
    """The round a room is at: the one on the clock, else the latest finished, else the first
    (``rounds``: objects with ``state`` and ``number``)."""
    rounds = list(rounds)
    on_clock = [r for r in rounds if r.state in ON_CLOCK]
    if on_clock:
        return on_clock[0]
    finished = [r for r in rounds if r.state == FINISHED]
    if finished:
        return max(finished, key=lambda r: r.number)
    return min(rounds, key=lambda r: r.number, default=None)
