"""Ways to seat exactly N participants, best first. Pure Python (no Django).

A room is one movement with its own clock: a prime room (T prime ≥ 5 tables of 3 or
4), a skip room (any T ≥ 4, seed procedure 3) or a special scheme. An option is a
multiset of up to ``max_rooms`` rooms whose participants add up to N (seed procedures
1, 2 and 4: regroup 3/4 seats, split into rooms, special schemes; 26 = 13 + 13).

Ranking, best first:

1. no participant plays a set twice;
2. every deal is compared: each set is played at two tables or more. The 12-scheme,
   and table 1 of the 13-scheme, play sets no other table of the room plays — nothing
   to compare their results with, which defeats a duplicate event — unless the option
   has a second identical room that plays the same boards (26 = 13 + 13);
3. highest coverage (pairs of participants who meet at least once / all pairs) —
   so one room beats a split, and a prime room (every cross-line pair meets once)
   beats a skip room of the same size;
4. fewest rooms, 5. fewest pauses, 6. fewest skips, then prime before scheme before
   skip.

The search is a branch and bound over rooms in non-increasing size: a partial option
whose best imaginable completion (the rest meeting everyone) cannot enter the top
``limit`` is dropped. Room figures are cached per (kind, tables, seats).

Time (docs/game.md §5.4): a set has as many deals as the table
has players (3 or 4), a round lasts deals per set × minutes per deal, so a room's session
is rounds × deals per set × minutes per deal of play — the time players take to move
between rounds is not in it. Rooms run their own clocks: the session lasts as long as its
longest room. :func:`single_rooms` says which one-room movements exist for a count, so a
page can say why an option splits the players into rooms.
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb

from movements import engine
from movements import schemes as scheme_data

KIND_ORDER = {"prime": 0, "scheme": 1, "skip": 2}
#: docs/game.md §5.4: 5 minutes a deal by default (the director may change it); an event has its own.
MINUTES_PER_DEAL = 5


@dataclass(frozen=True, slots=True)
class RoomSummary:
    kind: str
    tables: int
    seats: int
    participants: int
    rounds: int
    met: int  # pairs who meet at least once
    histogram: tuple[tuple[int, int], ...]
    set_repeats: int
    pauses: int
    skips: int
    tables_per_set_min: int
    tables_per_set_max: int
    name: str = ""
    scheme_id: int | None = None  # a director's own scheme (the built-in ones have none)

    @property
    def compared(self) -> bool:
        return self.tables_per_set_min >= 2

    @property
    def deals_per_set(self) -> int:
        """A set has one deal per player of the table (the round clock counts the same)."""
        return self.seats

    @property
    def deals(self) -> int:
        """Deals a table plays in the full session: rounds × deals per set."""
        return self.rounds * self.deals_per_set

    def minutes(self, minutes_per_deal: int = MINUTES_PER_DEAL) -> int:
        """Playing time of the full session: rounds × deals per set × minutes per deal."""
        return self.deals * minutes_per_deal

    def as_dict(self, minutes_per_deal: int = MINUTES_PER_DEAL) -> dict:
        doc = {
            "kind": self.kind,
            "tables": self.tables,
            "seats": self.seats,
            "participants": self.participants,
            "rounds": self.rounds,
            "deals_per_set": self.deals_per_set,
            "deals": self.deals,
            "minutes": self.minutes(minutes_per_deal),
        }
        if self.name:
            doc["name"] = self.name
        if self.scheme_id is not None:
            doc["scheme_id"] = self.scheme_id
        pairs = comb(self.participants, 2)
        doc["metrics"] = {
            "coverage": round(self.met / pairs, 4) if pairs else 0.0,
            "pair_meetings": {str(k): v for k, v in self.histogram},
            "set_repeats": self.set_repeats,
            "pauses": self.pauses,
            "skips": self.skips,
            "tables_per_set": {"min": self.tables_per_set_min, "max": self.tables_per_set_max},
        }
        return doc


@lru_cache(maxsize=4096)
def room_summary(kind: str, tables: int, seats: int, scheme: int = 0) -> RoomSummary:
    """Figures of one full-session room, from the line offsets (no seating built)."""
    if kind == "scheme":
        return scheme_summary(engine.builtin_scheme_schedule(scheme))
    if kind == "prime":
        offsets, skips = engine.prime_offsets(tables, seats), []
    else:
        offsets, skips = engine.skip_offsets(tables, seats)
    histogram, _ = engine.rigid_pair_histogram(tables, offsets, tables)
    histogram = +histogram  # drop empty buckets
    return RoomSummary(
        kind,
        tables,
        seats,
        tables * seats,
        tables,
        comb(tables * seats, 2) - histogram.get(0, 0),
        tuple(sorted(histogram.items())),
        0,
        0,
        sum(s.extra for s in skips),
        tables,
        tables,
    )


def scheme_summary(schedule: engine.Schedule, scheme_id: int | None = None) -> RoomSummary:
    """Figures of a special scheme's room (built-in or a director's own)."""
    m = engine.generic_metrics(schedule)
    return RoomSummary(
        "scheme",
        schedule.tables,
        schedule.seats,
        schedule.participants,
        schedule.rounds,
        m["pairs"] - m["pair_meetings"].get("0", 0),
        tuple(sorted((int(k), v) for k, v in m["pair_meetings"].items())),
        m["set_repeats"],
        m["pauses"],
        0,
        m["tables_per_set"]["min"],
        m["tables_per_set"]["max"],
        schedule.name,
        scheme_id,
    )


def room_from_dict(room: dict) -> RoomSummary:
    """A built-in room named as in ``Option.as_dict()["rooms"]``: kind + tables and seats,
    or kind "scheme" + participants. Figures are recomputed, never taken from the input.

    Raises :class:`engine.MovementError` saying what would work instead.
    """
    if not isinstance(room, dict):
        raise engine.MovementError("a room must be an object with kind, tables and seats")
    kind = room.get("kind")
    try:
        if kind == "scheme":
            participants = int(room["participants"])
            engine.builtin_scheme_schedule(participants)  # raises with the counts that exist
            return room_summary("scheme", 0, 0, participants)
        if kind in ("prime", "skip"):
            tables, seats = int(room["tables"]), int(room["seats"])
            engine.check_shape(tables, seats, skip=kind == "skip")
            return room_summary(kind, tables, seats)
    except KeyError as missing:
        raise engine.MovementError(f"a {kind} room needs {missing.args[0]!r}") from None
    except (TypeError, ValueError) as error:
        if isinstance(error, engine.MovementError):
            raise
        raise engine.MovementError(f"bad number in the room: {error}") from None
    raise engine.MovementError(f"unknown kind {kind!r}: use prime, skip or scheme")


def option_of(rooms: tuple[RoomSummary, ...] | list[RoomSummary]) -> Option:
    """An option made of these rooms, with its rank key (to merge with :func:`plan`'s)."""
    rooms = tuple(rooms)
    return Option(rooms, sum(r.participants for r in rooms), _rank_key(rooms))


@lru_cache(maxsize=64)
def _catalog(max_participants: int) -> tuple[RoomSummary, ...]:
    """Every room of at most ``max_participants``, largest first."""
    rooms = []
    for seats in (4, 3):
        for tables in range(4, max_participants // seats + 1):
            kind = "prime" if engine.is_prime(tables) and tables >= 5 else "skip"
            rooms.append(room_summary(kind, tables, seats))
    for n in scheme_data.builtin_counts():
        if n <= max_participants:
            rooms.append(room_summary("scheme", 0, 0, n))
    return tuple(
        sorted(rooms, key=lambda r: (-r.participants, KIND_ORDER[r.kind], -r.seats, r.tables))
    )


@dataclass(frozen=True)
class Option:
    rooms: tuple[RoomSummary, ...]
    participants: int
    key: tuple = field(compare=False, default=())

    def metrics(self, minutes_per_deal: int = MINUTES_PER_DEAL) -> dict:
        n = self.participants
        histogram: Counter = Counter()
        for room in self.rooms:
            histogram.update(dict(room.histogram))
        pairs = comb(n, 2)
        histogram[0] += pairs - sum(comb(r.participants, 2) for r in self.rooms)
        met = sum(r.met for r in self.rooms)
        return {
            "rooms": len(self.rooms),
            "pairs": pairs,
            "pair_meetings": {str(k): histogram[k] for k in sorted(histogram) if histogram[k]},
            "coverage": round(met / pairs, 4) if pairs else 0.0,
            "set_repeats": sum(r.set_repeats for r in self.rooms),
            "every_deal_compared": _compared(self.rooms),
            "tables_per_set": {
                "min": min(r.tables_per_set_min for r in self.rooms),
                "max": max(r.tables_per_set_max for r in self.rooms),
            },
            "rounds": {
                "min": min(r.rounds for r in self.rooms),
                "max": max(r.rounds for r in self.rooms),
            },
            "pauses": sum(r.pauses for r in self.rooms),
            "skips": sum(r.skips for r in self.rooms),
            "tables_per_deal": _tables_per_deal(self.rooms),
            "deals_per_set": {
                "min": min(r.deals_per_set for r in self.rooms),
                "max": max(r.deals_per_set for r in self.rooms),
            },
            "session": {
                "minutes_per_deal": minutes_per_deal,
                "minutes": max(r.minutes(minutes_per_deal) for r in self.rooms),
            },
        }

    def as_dict(self, minutes_per_deal: int = MINUTES_PER_DEAL) -> dict:
        return {
            "rooms": [r.as_dict(minutes_per_deal) for r in self.rooms],
            "metrics": self.metrics(minutes_per_deal),
        }


def _tables_per_deal(rooms: tuple[RoomSummary, ...]) -> dict[str, int]:
    """How many tables play each deal over the session, min and max. ``tables_per_set``
    counts one room; rooms with the same movement play copies of one family of sets
    (``services.session_create``), so their tables add up: in 26 = 13 + 13 table 1 of each
    room plays its sets alone in the room (1) but a copy is played in the other room (2)."""
    twins = Counter(rooms)
    return {
        "min": min(r.tables_per_set_min * twins[r] for r in rooms),
        "max": max(r.tables_per_set_max * twins[r] for r in rooms),
    }


def _compared(rooms: tuple[RoomSummary, ...]) -> bool:
    """Every deal is played at two tables or more, counting identical rooms that play
    the same boards (the rooms list is sorted, so twins are neighbours)."""
    return all(
        room.compared or any(other == room for other in rooms[:i] + rooms[i + 1 :])
        for i, room in enumerate(rooms)
    )


def _rank_key(rooms: tuple[RoomSummary, ...]) -> tuple:
    return (
        any(r.set_repeats for r in rooms),
        not _compared(rooms),
        -sum(r.met for r in rooms),
        len(rooms),
        sum(r.pauses for r in rooms),
        sum(r.skips for r in rooms),
        sum(KIND_ORDER[r.kind] for r in rooms),
        tuple((-r.participants, KIND_ORDER[r.kind], -r.seats, r.tables) for r in rooms),
    )


@dataclass(frozen=True)
class Plan:
    participants: int
    options: tuple[Option, ...]
    nearest: tuple[int, ...] = ()

    def as_dict(self, minutes_per_deal: int = MINUTES_PER_DEAL) -> dict:
        return {
            "participants": self.participants,
            "options": [o.as_dict(minutes_per_deal) for o in self.options],
            "nearest": list(self.nearest),
            "single_room": single_rooms(self.participants),
        }


def single_rooms(participants: int) -> dict:
    """The one-room movements for exactly ``participants``: prime rooms (T prime ≥ 5 tables
    of 3 or 4), skip rooms (any other T ≥ 4) as [tables, seats], and whether a special
    scheme exists. All empty: the count can only be seated in several rooms."""
    found: dict[str, list[list[int]]] = {"prime": [], "skip": []}
    for seats in (4, 3):
        tables, rest = divmod(participants, seats)
        if rest or tables < 4:
            continue
        kind = "prime" if engine.is_prime(tables) and tables >= 5 else "skip"
        found[kind].append([tables, seats])
    return found | {"scheme": participants in scheme_data.builtin_counts()}


def plan(participants: int, *, limit: int = 20, max_rooms: int = 4) -> Plan:
    """The ``limit`` best ways to seat exactly ``participants`` in ≤ ``max_rooms`` rooms.

    With none, ``nearest`` holds the nearest counts below and above that can be seated.
    """
    if participants < 1:
        return Plan(participants, (), tuple(_nearest(max(participants, 0), max_rooms)))
    options = _search(participants, limit, max_rooms)
    if options:
        return Plan(participants, tuple(options))
    return Plan(participants, (), tuple(_nearest(participants, max_rooms)))


def _search(n: int, limit: int, max_rooms: int) -> list[Option]:
    catalog = _catalog(n)
    sizes = [-r.participants for r in catalog]  # ascending, for bisect
    smallest = min((r.participants for r in catalog), default=n + 1)
    best: list[tuple[tuple, tuple[RoomSummary, ...]]] = []

    def worst_kept() -> tuple | None:
        return best[-1][0] if len(best) >= limit else None

    def visit(start: int, rem: int, chosen: tuple[RoomSummary, ...]) -> None:
        left = max_rooms - len(chosen)
        # largest rooms first; a room larger than rem is skipped via bisect
        i = max(start, bisect.bisect_left(sizes, -rem))
        met_so_far = sum(r.met for r in chosen)
        repeats = any(r.set_repeats for r in chosen)
        while i < len(catalog):
            room = catalog[i]
            i += 1
            if room.participants * left < rem:
                break  # rooms only get smaller from here
            rest = rem - room.participants
            rooms = (*chosen, room)
            if rest == 0:
                key = _rank_key(rooms)
                bar = worst_kept()
                if bar is None or key < bar:
                    bisect.insort(best, (key, rooms))
                    del best[limit:]
                continue
            if left == 1 or rest < smallest:
                continue
            bar = worst_kept()
            if bar is not None:
                # a room seen uncompared may still get its twin later: stay optimistic
                optimistic = (
                    repeats or bool(room.set_repeats),
                    False,
                    -(met_so_far + room.met + comb(rest, 2)),
                )
                if optimistic > bar[:3]:
                    continue
            visit(i - 1, rest, rooms)

    visit(0, n, ())
    return [Option(rooms, n, key) for key, rooms in best]


@lru_cache(maxsize=1024)
def _feasible(n: int, rooms_left: int) -> bool:
    if n == 0:
        return True
    if rooms_left == 0 or n < 0:
        return False
    return any(_feasible(n - s, rooms_left - 1) for s in _room_sizes(n))


@lru_cache(maxsize=1024)
def _room_sizes(limit: int) -> tuple[int, ...]:
    """Participant counts of all rooms up to ``limit``, as in :func:`_catalog`."""
    sizes = {seats * tables for seats in (3, 4) for tables in range(4, limit // seats + 1)}
    sizes.update(n for n in scheme_data.builtin_counts() if n <= limit)
    return tuple(sorted(sizes, reverse=True))


def _nearest(n: int, max_rooms: int) -> list[int]:
    below = next((m for m in range(n - 1, 0, -1) if _feasible(m, max_rooms)), None)
    above = next(m for m in range(n + 1, n + 100) if _feasible(m, max_rooms))
    return [m for m in (below, above) if m is not None]


# --- a further session by lines (docs/game.md §6.4) -------------------------------------


def group_rooms(participants: int) -> tuple[RoomSummary, ...] | None:
    """The rooms that seat one group of a session «by lines»: the best one-room option the
    planner knows for the count, else its best option in several rooms; None when nothing
    seats the count."""
    options = plan(participants).options if participants > 0 else ()
    single = next((o for o in options if len(o.rooms) == 1), None)
    if single is not None:
        return single.rooms
    return options[0].rooms if options else None


def _partitions(items: list[str]):
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for part in _partitions(rest):
        yield [[head], *part]
        for i in range(len(part)):
            yield [*part[:i], [head, *part[i]], *part[i + 1 :]]


def line_groupings(
    sizes: dict[str, int], *, max_rooms: int = 8
) -> list[list[tuple[tuple[str, ...], tuple]]]:
    """Ways to seat a session «by lines»: each grouping is a list of (lines, rooms), every
    group of lines seated in its own rooms (players of different groups never meet).

    Each line a room of its own when every line's count has a one-room movement; otherwise
    every way of joining lines (two or more into one group) or splitting a line into rooms
    that seats every group — never all lines in one group, which is no longer «by lines».
    At most ``max_rooms`` rooms in all (what ``services.session_create`` seats). Empty when
    nothing fits (the caller says which line's count is the trouble)."""
    lines = [line for line in sizes if sizes[line] > 0]
    if len(lines) < 2:
        return []
    singles = []
    for line in lines:
        rooms = group_rooms(sizes[line])
        if rooms is None or len(rooms) != 1:
            break
        singles.append(((line,), rooms))
    else:
        if len(singles) <= max_rooms:
            return [singles]
    found = []
    for part in _partitions(lines):
        if len(part) < 2:
            continue
        part.sort(key=lambda group: lines.index(group[0]))
        grouping = []
        for group in part:
            rooms = group_rooms(sum(sizes[line] for line in group))
            if rooms is None:
                break
            grouping.append((tuple(group), rooms))
        else:
            if sum(len(rooms) for _lines, rooms in grouping) <= max_rooms:
                found.append(grouping)
    return found
