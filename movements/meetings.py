"""Who met whom, and each session's lines (docs/game.md §6.4). Pure Python (no Django).

A *seating* is what a session did: round → table → position → entry id. Only seats at a
table count: a pause meets nobody. Pairs are ``(a, b)`` with ``a < b``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from itertools import combinations
from math import comb

from movements import engine

Pair = tuple[int, int]
Seating = Mapping[int, Mapping[int, Mapping[str, int]]]

#: The order lines are named and become rooms in: N → room 1, E → room 2, S, W.
LINE_ORDER = ("N", "E", "S", "W")


def pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


def met_pairs(seating: Seating) -> set[Pair]:
    """Every pair of entries who sat at one table in some round."""
    found: set[Pair] = set()
    for tables in seating.values():
        for seats in tables.values():
            found.update(pair(a, b) for a, b in combinations(set(seats.values()), 2))
    return found


def player_lines(seating: Seating) -> dict[str, list[int]]:
    """Position → the entries of that line. **Choice** (docs/game.md §6.4): a player's line
    is the position he held most often in the session; a tie goes to the position of his
    first round at a table. Each line lists its players in the order they first sat
    (round, then table)."""
    held: dict[int, Counter] = {}
    first: dict[int, tuple[int, int, str]] = {}
    for rnd in sorted(seating):
        for table in sorted(seating[rnd]):
            for position, entry in seating[rnd][table].items():
                held.setdefault(entry, Counter())[position] += 1
                first.setdefault(entry, (rnd, table, position))
    lines: dict[str, list[int]] = {}
    for entry in sorted(first, key=first.__getitem__):
        counts = held[entry]
        most = max(counts.values())
        line = first[entry][2] if counts[first[entry][2]] == most else _first_most(counts, most)
        lines.setdefault(line, []).append(entry)
    return {p: lines[p] for p in LINE_ORDER if p in lines} | {
        p: v for p, v in lines.items() if p not in LINE_ORDER
    }


def _first_most(counts: Counter, most: int) -> str:
    return next(p for p in LINE_ORDER if counts.get(p) == most)


def schedule_pairs(schedule: engine.Schedule) -> frozenset[Pair]:
    """Pairs of a room's participants (1…n) who sit at one table in some round."""
    found: set[Pair] = set()
    for plan in schedule.round_plans:
        for tp in plan.tables:
            found.update(pair(a, b) for a, b in combinations(tp.seats.values(), 2))
    return frozenset(found)


@lru_cache(maxsize=256)
def room_pairs(kind: str, tables: int, seats: int, participants: int) -> frozenset[Pair]:
    """:func:`schedule_pairs` of a built-in full-session room, cached by its shape."""
    if kind == "scheme":
        return schedule_pairs(engine.builtin_scheme_schedule(participants))
    return schedule_pairs(engine.movement(tables, seats, skip=kind == "skip"))


def seated_pairs(rooms: Iterable[tuple[frozenset[Pair], list[int]]]) -> set[Pair]:
    """The pairs of entries an option makes meet: each room's participant pairs, with room
    participant k → the k-th entry of that room's list."""
    found: set[Pair] = set()
    for pairs, members in rooms:
        found.update(pair(members[a - 1], members[b - 1]) for a, b in pairs)
    return found


def meeting_figures(everyone: Iterable[int], met: set[Pair], new: set[Pair]) -> dict:
    """For the players who play now (``everyone``), given the pairs ``met`` before and the
    pairs an option makes meet (``new``): pairs never met before, and after the option how
    many meet for the first time, meet again, and still never met."""
    players = set(everyone)
    total = comb(len(players), 2)
    before = {p for p in met if p[0] in players and p[1] in players}
    first = new - before
    return {
        "pairs": total,
        "never_before": total - len(before),
        "first_time": len(first),
        "again": len(new & before),
        "never_after": total - len(before) - len(first),
    }
