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
4. fewest rooms, 5. fewest pauses, 6. fewest skips, 7. prime before scheme before
   skip, 8. larger rooms first, four seats before three, fewer tables (a tie-break).

:data:`RANKING` names these steps, in the order of :func:`_rank_key`, for whoever explains
the order (the command line, the planner page). ``seats`` keeps only rooms of 3 or of 4
seats; :func:`one_room` says why no single room seats a count and which nearest counts
one room seats.

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


#: Players a table may seat; ``seats=None`` in :func:`plan` allows both.
SEATS = (4, 3)


def _seat_counts(seats: int | None) -> tuple[int, ...]:
    if seats is None:
        return SEATS
    if seats not in SEATS:
        raise engine.MovementError(f"{seats} seats per table: use 3 or 4")
    return (seats,)


def _rigid_kind(tables: int) -> str:
    return "prime" if engine.is_prime(tables) and tables >= 5 else "skip"


@lru_cache(maxsize=128)
def _catalog(max_participants: int, seats: int | None = None) -> tuple[RoomSummary, ...]:
    """Every room of at most ``max_participants`` (of ``seats`` only, if given), largest
    first."""
    rooms = []
    for per_table in _seat_counts(seats):
        for tables in range(4, max_participants // per_table + 1):
            rooms.append(room_summary(_rigid_kind(tables), tables, per_table))
    for n in scheme_data.builtin_counts():
        if n <= max_participants:
            scheme = room_summary("scheme", 0, 0, n)
            if seats is None or scheme.seats == seats:
                rooms.append(scheme)
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

    def promises(self) -> tuple[str, ...]:
        """What the option guarantees, as codes in :data:`PROMISES` order (only those it
        keeps): read off the rooms' figures, never assumed from their kind."""
        kept = []
        if not any(r.set_repeats for r in self.rooms):
            kept.append("no_set_repeats")
        if all(_every_set(r) for r in self.rooms):
            kept.append("every_set")
        if _compared(self.rooms):
            kept.append("every_deal_compared")
        if all(_other_lines_once(r) for r in self.rooms):
            kept.append("other_lines_once")
        if not any(r.pauses for r in self.rooms):
            kept.append("no_pauses")
        if not any(r.skips for r in self.rooms):
            kept.append("no_skips")
        if len(self.rooms) == 1:
            kept.append("one_room")
        return tuple(kept)

    def as_dict(self, minutes_per_deal: int = MINUTES_PER_DEAL) -> dict:
        return {
            "rooms": [r.as_dict(minutes_per_deal) for r in self.rooms],
            "metrics": self.metrics(minutes_per_deal),
            "promises": list(self.promises()),
        }


#: Every promise an option may keep (:meth:`Option.promises`):
#: ``no_set_repeats`` nobody plays a set twice; ``every_set`` every player plays every set
#: of his room (all its deals); ``every_deal_compared`` every deal is played at two tables
#: or more; ``other_lines_once`` every two players of different lines of a room meet
#: exactly once (the prime rule's promise); ``no_pauses``; ``no_skips``; ``one_room``.
PROMISES = (
    "no_set_repeats",
    "every_set",
    "every_deal_compared",
    "other_lines_once",
    "no_pauses",
    "no_skips",
    "one_room",
)


def _every_set(room: RoomSummary) -> bool:
    """A prime or skip room plays T sets in T rounds with every player at a table each
    round: without a repeat, each player plays each set. A scheme's routes may pause a
    player or share sets unevenly, so it promises nothing here."""
    return room.kind in ("prime", "skip") and room.rounds == room.tables and not room.set_repeats


def _other_lines_once(room: RoomSummary) -> bool:
    """Every pair of players of different lines meets exactly once and players of the same
    line never do: the histogram is exactly that (prime rooms; a skip room may miss it)."""
    if room.kind not in ("prime", "skip"):
        return False
    same_line = room.seats * comb(room.tables, 2)
    return dict(room.histogram) == {0: same_line, 1: comb(room.participants, 2) - same_line}


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


#: The order of the options, best first: one code per element of :func:`_rank_key`, in its
#: order. ``set_repeats`` no set played twice first; ``compared`` every deal compared first;
#: ``coverage`` more pairs meeting at least once first; ``rooms`` fewer rooms; ``pauses``
#: fewer pauses; ``skips`` fewer skips; ``kind`` prime before scheme before skip;
#: ``shape`` larger rooms, then four seats before three, then fewer tables (a tie-break).
RANKING = ("set_repeats", "compared", "coverage", "rooms", "pauses", "skips", "kind", "shape")


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


def ranking(*, later: bool = False) -> list[str]:
    """The ranking codes in their order; in a later session «first_meetings» comes after
    the set repeats and the comparison (:func:`rank_with_meetings`)."""
    if not later:
        return list(RANKING)
    return [*RANKING[:2], "first_meetings", *RANKING[2:]]


def rank_with_meetings(key: tuple, first_time: int) -> tuple:
    """An option's rank in a later session (docs/game.md §6.4): no set played twice and every
    deal compared still come first — a deal nobody else plays has no result to compare, and
    first meetings do not make up for it; among those alike, more pairs meeting for the
    first time; then the option's own rank (:func:`_rank_key`)."""
    return (key[:2], -first_time, key)


@dataclass(frozen=True)
class Plan:
    participants: int
    options: tuple[Option, ...]
    nearest: tuple[int, ...] = ()
    seats: int | None = None  # only rooms of this many seats per table, when set

    def as_dict(self, minutes_per_deal: int = MINUTES_PER_DEAL) -> dict:
        return {
            "participants": self.participants,
            "options": [o.as_dict(minutes_per_deal) for o in self.options],
            "nearest": list(self.nearest),
            "single_room": single_rooms(self.participants),
            "seats": self.seats,
            "ranking": list(RANKING),
            "one_room": one_room(self.participants, seats=self.seats).as_dict(minutes_per_deal),
        }


def single_rooms(participants: int) -> dict:
    """The one-room movements for exactly ``participants``: prime rooms (T prime ≥ 5 tables
    of 3 or 4), skip rooms (any other T ≥ 4) as [tables, seats], and whether a special
    scheme exists. All empty: the count can only be seated in several rooms."""
    found: dict[str, list[list[int]]] = {"prime": [], "skip": []}
    for seats in SEATS:
        tables, rest = divmod(participants, seats)
        if rest or tables < 4:
            continue
        found[_rigid_kind(tables)].append([tables, seats])
    return found | {"scheme": participants in scheme_data.builtin_counts()}


def _single_candidates(participants: int, seats: int | None) -> list[RoomSummary]:
    """Every built-in room that seats exactly ``participants`` alone (of ``seats`` only)."""
    rooms = []
    for per_table in _seat_counts(seats):
        tables, rest = divmod(participants, per_table)
        if not rest and tables >= 4:
            rooms.append(room_summary(_rigid_kind(tables), tables, per_table))
    if participants in scheme_data.builtin_counts():
        scheme = room_summary("scheme", 0, 0, participants)
        if seats is None or scheme.seats == seats:
            rooms.append(scheme)
    return rooms


def best_single_room(participants: int, seats: int | None = None) -> RoomSummary | None:
    """The best-ranked room that seats ``participants`` alone, None when no one room does."""
    rooms = _single_candidates(participants, seats) if participants > 0 else []
    return min(rooms, key=lambda r: _rank_key((r,)), default=None)


#: How far :func:`one_room` looks for a count one room seats (a room of 4 seats is at most
#: 3 players away; past the schemes' counts a multiple of 3 or 4 is never more than 2 away).
ONE_ROOM_REACH = 12


@dataclass(frozen=True)
class OneRoom:
    """Whether one room seats ``participants`` and, when not, why (``reason``) and the
    nearest smaller and larger counts one room seats, with the best room for each."""

    participants: int
    seats: int | None
    fits: bool
    reason: str = ""  # "too_few" | "indivisible", with ``seats`` when only one count is allowed
    below: RoomSummary | None = None
    above: RoomSummary | None = None

    def as_dict(self, minutes_per_deal: int = MINUTES_PER_DEAL) -> dict:
        def room(r):
            return None if r is None else r.as_dict(minutes_per_deal)

        return {
            "fits": self.fits,
            "reason": self.reason,
            "seats": self.seats,
            "scheme_counts": [
                n
                for n in scheme_data.builtin_counts()
                if self.seats is None or room_summary("scheme", 0, 0, n).seats == self.seats
            ],
            "below": room(self.below),
            "above": room(self.above),
        }


def one_room(participants: int, *, seats: int | None = None) -> OneRoom:
    """Can one room seat exactly ``participants`` (at tables of ``seats``, if given)?

    One room is T ≥ 4 tables all of 3 or all of 4 players (prime T ≥ 5 on the prime rule,
    any other T by the skip procedure), or a special scheme for its own count. A count
    that is none of these is ``too_few`` (fewer than 4 tables of the smallest table) or
    ``indivisible`` (divisible by no allowed table size)."""
    seat_counts = _seat_counts(seats)
    if best_single_room(participants, seats) is not None:
        return OneRoom(participants, seats, True)
    if any(participants % s == 0 for s in seat_counts):
        reason = "too_few"  # a multiple, so only the 4-table minimum is missing
    else:
        reason = "indivisible" if participants >= 4 * min(seat_counts) else "too_few"

    def nearest(steps):
        for m in steps:
            room = best_single_room(m, seats)
            if room is not None:
                return room
        return None

    low = range(participants - 1, max(participants - ONE_ROOM_REACH, 0), -1)
    high = range(participants + 1, participants + ONE_ROOM_REACH + 1)
    return OneRoom(participants, seats, False, reason, nearest(low), nearest(high))


def plan(
    participants: int, *, limit: int = 20, max_rooms: int = 4, seats: int | None = None
) -> Plan:
    """The ``limit`` best ways to seat exactly ``participants`` in ≤ ``max_rooms`` rooms;
    with ``seats`` (3 or 4) only rooms whose tables all seat that many.

    With none, ``nearest`` holds the nearest counts below and above that can be seated.
    """
    _seat_counts(seats)  # refuses anything but 3, 4 or None
    if participants < 1:
        return Plan(
            participants, (), tuple(_nearest(max(participants, 0), max_rooms, seats)), seats
        )
    options = _search(participants, limit, max_rooms, seats)
    if options:
        return Plan(participants, tuple(options), (), seats)
    return Plan(participants, (), tuple(_nearest(participants, max_rooms, seats)), seats)


def _search(n: int, limit: int, max_rooms: int, seats: int | None = None) -> list[Option]:
    catalog = _catalog(n, seats)
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


@lru_cache(maxsize=4096)
def _feasible(n: int, rooms_left: int, seats: int | None = None) -> bool:
    if n == 0:
        return True
    if rooms_left == 0 or n < 0:
        return False
    return any(_feasible(n - s, rooms_left - 1, seats) for s in _room_sizes(n, seats))


@lru_cache(maxsize=4096)
def _room_sizes(limit: int, seats: int | None = None) -> tuple[int, ...]:
    """Participant counts of all rooms up to ``limit``, as in :func:`_catalog`."""
    sizes = {
        per_table * tables
        for per_table in _seat_counts(seats)
        for tables in range(4, limit // per_table + 1)
    }
    sizes.update(
        n
        for n in scheme_data.builtin_counts()
        if n <= limit and (seats is None or room_summary("scheme", 0, 0, n).seats == seats)
    )
    return tuple(sorted(sizes, reverse=True))


def _nearest(n: int, max_rooms: int, seats: int | None = None) -> list[int]:
    below = next((m for m in range(n - 1, 0, -1) if _feasible(m, max_rooms, seats)), None)
    above = next(m for m in range(n + 1, n + 100) if _feasible(m, max_rooms, seats))
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
