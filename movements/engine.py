"""The movement engine: who sits where and which set each table plays, per round.

Pure Python — imports nothing from Django (conventions: pure domain cores).

Three kinds of schedule (docs/game.md §6):

* ``prime`` — T tables, T prime ≥ 5, 3 or 4 seats. Round 1 at table t: N = t, E = T + t,
  S = 2T + t, W = 3T + t; table t plays set t. Each round N stays, E moves +1 table,
  S +2, W −2 and the sets −1 (all modulo T). A full session is T rounds.
* ``skip`` — any T ≥ 4: the prime moves, except that a line which would meet sets it has
  already played moves one more table in the same direction, as often as needed
  (seed procedure 3). See :func:`skip_offsets` for why it always keeps its promise.
* ``scheme`` — the seed's special schemes for 8, 9, 12, 13, 16, 18, 24 participants
  (data in ``movements/fixtures/schemes.json``, read by :mod:`movements.schemes`).

Every line of a prime or skip room is a rigid rotation: all its players move by the same
number of tables. We keep, per line, the cumulative offset ``p(d)`` of round d (0-based):
the player of that line who started at table a sits at table a + p(d). Table t plays set
t + d, so that player plays set a + p(d) + d. Both the seating and the metrics follow
from these offsets, which is what keeps the engine and the planner fast.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from math import comb

from movements import schemes as scheme_data

POSITIONS = ("N", "E", "S", "W")
# Tables a line moves at each change of round (seed §5); sets move −1.
LINE_STEP = {"N": 0, "E": 1, "S": 2, "W": -2}
SET_STEP = -1
KINDS = ("prime", "skip", "scheme")


class MovementError(ValueError):
    """A movement that cannot be built; the message says what would work instead."""


# --- data -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TablePlan:
    table: int
    set: int
    seats: dict[str, int]  # position → participant, positions in N E S W order


@dataclass(frozen=True, slots=True)
class RoundPlan:
    number: int
    tables: tuple[TablePlan, ...]
    pauses: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Skip:
    """Before ``round`` the ``line`` moved ``extra`` tables more than its base step."""

    round: int
    line: str
    extra: int


@dataclass(frozen=True, slots=True)
class Schedule:
    kind: str
    tables: int
    seats: int  # players per table (schemes: the most at any table)
    rounds: int
    participants: int
    round_plans: tuple[RoundPlan, ...]
    name: str = ""
    # prime/skip only: line → cumulative table offset per round (0-based rounds)
    line_offsets: tuple[tuple[str, tuple[int, ...]], ...] | None = None
    skips: tuple[Skip, ...] = field(default=())

    def round(self, number: int) -> RoundPlan:
        return self.round_plans[number - 1]

    def as_dict(self, *, with_metrics: bool = True) -> dict:
        doc = {
            "kind": self.kind,
            "tables": self.tables,
            "seats": self.seats,
            "rounds": self.rounds,
            "participants": self.participants,
            "schedule": [
                {
                    "round": rp.number,
                    "tables": [
                        {"table": tp.table, "set": tp.set, "seats": dict(tp.seats)}
                        for tp in rp.tables
                    ],
                    "pauses": list(rp.pauses),
                }
                for rp in self.round_plans
            ],
        }
        if self.name:
            doc["name"] = self.name
        if self.kind != "scheme":
            doc["skips"] = [
                {"round": s.round, "line": s.line, "extra": s.extra} for s in self.skips
            ]
        if with_metrics:
            doc["metrics"] = metrics(self)
        return doc


# --- numbers --------------------------------------------------------------------------


def is_prime(n: int) -> bool:
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    f = 3
    while f * f <= n:
        if n % f == 0:
            return False
        f += 2
    return True


def prime_table_counts_around(tables: int) -> list[int]:
    """The prime table counts (≥ 5) nearest below and above ``tables``."""
    below = next((t for t in range(tables - 1, 4, -1) if is_prime(t)), None)
    above = next(t for t in range(max(tables + 1, 5), 2 * tables + 10) if is_prime(t))
    return [t for t in (below, above) if t is not None]


def lines_for(seats: int) -> tuple[str, ...]:
    """With 3 players a table has no W (the talon lies in the W pocket)."""
    return POSITIONS[:seats]


def _check_shape(tables: int, seats: int, rounds: int | None, *, skip: bool) -> int:
    if seats not in (3, 4):
        raise MovementError(f"{seats} seats: a Preference table seats 3 or 4 players")
    if skip:
        if tables < 4:
            raise MovementError(
                f"{tables} tables: the skip procedure needs at least 4 tables; for fewer "
                "players use a special scheme (8, 9, 12 or 13 participants)"
            )
    elif not (is_prime(tables) and tables >= 5):
        options = " or ".join(str(t) for t in prime_table_counts_around(tables))
        what = "is not prime" if not is_prime(tables) else "is below 5"
        raise MovementError(
            f"{tables} tables {what}: use --skip, or {options} tables"
            if tables >= 4
            else f"{tables} tables {what}: the prime rule needs 5, 7, 11, 13… tables; "
            f"use {options} tables"
        )
    if rounds is None:
        return tables
    if not 1 <= rounds <= tables:
        raise MovementError(
            f"{rounds} rounds: with {tables} tables play 1 to {tables} rounds "
            f"(a full session is {tables})"
        )
    return rounds


def check_shape(tables: int, seats: int, *, skip: bool = False) -> None:
    """Raise :class:`MovementError` unless a prime (or skip) room of this shape exists."""
    _check_shape(tables, seats, None, skip=skip)


# --- line offsets -----------------------------------------------------------------------


def prime_offsets(tables: int, seats: int) -> dict[str, tuple[int, ...]]:
    return {
        line: tuple((LINE_STEP[line] * d) % tables for d in range(tables))
        for line in lines_for(seats)
    }


def skip_offsets(tables: int, seats: int) -> tuple[dict[str, tuple[int, ...]], list[Skip]]:
    """Seed procedure 3, made precise.

    A line at offset p in round d (0-based) plays sets a + p + d, so what matters for
    the line is q(d) = p(d) + d mod T: the whole line meets a played set exactly when
    q(d) was already used (the line is rigid, so "one player meets a played set" and
    "all players of the line meet played sets" are the same event). At each change of
    round the line tries its base step, then one table more in the same direction, and
    so on, taking the first step whose q is new.

    Why it always keeps the promise: the candidates step, step ± 1, step ± 2, … give
    q values that run through every residue mod T within T tries, and before round T
    fewer than T residues are used — so a fresh one always exists, and no participant
    plays a set twice within T rounds (he plays each set exactly once), for every T.
    N (q = d) and W (q moves −1 a round) never skip; E (q +2) skips only when T is even,
    S (q +3) only when 3 divides T. For T coprime to 6 — every prime ≥ 5 — no skip is
    taken and the skip movement is the prime movement.
    """
    offsets: dict[str, tuple[int, ...]] = {}
    skips: list[Skip] = []
    for line in lines_for(seats):
        step = LINE_STEP[line]
        direction = 1 if step >= 0 else -1
        used = bytearray(tables)
        used[0] = 1
        p, path = 0, [0]
        for d in range(1, tables):
            move = step
            while used[(p + move + d) % tables]:
                move += direction
            p = (p + move) % tables
            used[(p + d) % tables] = 1
            path.append(p)
            if move != step:
                skips.append(Skip(round=d + 1, line=line, extra=abs(move - step)))
        offsets[line] = tuple(path)
    skips.sort(key=lambda s: (s.round, POSITIONS.index(s.line)))
    return offsets, skips


# --- building schedules -----------------------------------------------------------------


def _rigid_schedule(kind, tables, seats, rounds, offsets, skips) -> Schedule:
    lines = lines_for(seats)
    bases = [(line, i * tables + 1, offsets[line]) for i, line in enumerate(lines)]
    plans = []
    for d in range(rounds):
        shifted = [(line, base, off[d]) for line, base, off in bases]
        tables_d = tuple(
            TablePlan(
                t + 1,
                (t + d) % tables + 1,
                {line: base + (t - p) % tables for line, base, p in shifted},
            )
            for t in range(tables)
        )
        plans.append(RoundPlan(d + 1, tables_d, ()))
    return Schedule(
        kind=kind,
        tables=tables,
        seats=seats,
        rounds=rounds,
        participants=seats * tables,
        round_plans=tuple(plans),
        line_offsets=tuple((line, offsets[line]) for line in lines),
        skips=tuple(s for s in skips if s.round <= rounds),
    )


def prime_schedule(tables: int, seats: int = 4, rounds: int | None = None) -> Schedule:
    """The seed's prime movement; ``rounds`` < T stops the session early."""
    rounds = _check_shape(tables, seats, rounds, skip=False)
    return _rigid_schedule("prime", tables, seats, rounds, prime_offsets(tables, seats), [])


def skip_schedule(tables: int, seats: int = 4, rounds: int | None = None) -> Schedule:
    """The skip procedure for any T ≥ 4 (identical to the prime rule for prime T)."""
    rounds = _check_shape(tables, seats, rounds, skip=True)
    offsets, skips = skip_offsets(tables, seats)
    return _rigid_schedule("skip", tables, seats, rounds, offsets, skips)


def movement(
    tables: int, seats: int = 4, rounds: int | None = None, *, skip: bool = False
) -> Schedule:
    return (skip_schedule if skip else prime_schedule)(tables, seats, rounds)


def scheme_schedule(data: dict) -> Schedule:
    """A special scheme (validated first) as a schedule: L rounds, L = route length.

    Sets: round r, set group g (1-based, in ``set_groups`` order) plays set
    (r − 1)·G + g — a fresh set every round for each group of tables sharing one.
    """
    scheme_data.ensure_valid(data)
    set_group = scheme_data.set_of_table(data)
    groups_count = len(data["set_groups"])
    plans = []
    most = 0
    for r, (sittings, pauses) in enumerate(scheme_data.scheme_rounds(data)):
        by_table: dict[int, dict[str, int]] = {}
        for who, (table, position) in sittings:
            by_table.setdefault(table, {})[position] = who
        tables = []
        for table in sorted(by_table):
            seats = {p: by_table[table][p] for p in POSITIONS if p in by_table[table]}
            most = max(most, len(seats))
            tables.append(TablePlan(table, r * groups_count + set_group[table], seats))
        plans.append(RoundPlan(r + 1, tuple(tables), tuple(pauses)))
    return Schedule(
        kind="scheme",
        tables=len(plans[0].tables),
        seats=most,
        rounds=len(plans),
        participants=len(plans[0].pauses) + sum(len(t.seats) for t in plans[0].tables),
        round_plans=tuple(plans),
        name=data.get("name", ""),
    )


def builtin_scheme_schedule(participants: int) -> Schedule:
    data = scheme_data.builtin_scheme(participants)
    if data is None:
        counts = ", ".join(str(n) for n in scheme_data.builtin_counts())
        raise MovementError(
            f"no special scheme for {participants} participants; schemes exist for {counts} "
            f"(try: movement plan --participants {participants})"
        )
    return scheme_schedule(data)


# --- metrics ----------------------------------------------------------------------------


def metrics(schedule: Schedule) -> dict:
    """Balance figures of a schedule, JSON-serialisable.

    * ``pair_meetings`` — {"k": number of pairs of participants who share a table in k
      rounds}, over all C(P, 2) pairs (so "0" counts pairs who never meet);
    * ``coverage`` — pairs who meet at least once / all pairs (equivalently the mean,
      over participants, of the share of the other P − 1 participants met);
    * ``opponents_met`` — min/max distinct opponents per participant, of ``possible``;
    * ``set_repeats`` — plays of a set by a participant beyond his first play of it;
    * ``positions`` — per position the min/max rounds a participant sits there, and
      ``distinct`` min/max number of positions a participant sits in;
    * ``tables_per_set`` — min/max number of tables that play one set over the session
      (a deal's result is compared with that many minus one others) and the set count;
    * ``pauses`` — participant-rounds spent pausing (``pauses_per_participant`` min/max);
    * ``skips`` — extra table moves taken by the skip procedure.
    """
    if schedule.line_offsets is not None:
        return _rigid_metrics(schedule)
    return generic_metrics(schedule)


def _summary(values) -> dict:
    values = list(values)
    return {"min": min(values, default=0), "max": max(values, default=0)}


def _histogram(counter: Counter) -> dict[str, int]:
    return {str(k): counter[k] for k in sorted(counter) if counter[k]}


def generic_metrics(schedule: Schedule) -> dict:
    """Metrics by walking every table of every round (any schedule)."""
    n = schedule.participants
    meetings: Counter = Counter()
    played: list[set] = [set() for _ in range(n + 1)]
    at_position = {p: [0] * (n + 1) for p in POSITIONS}
    set_tables: Counter = Counter()
    paused = [0] * (n + 1)
    repeats = 0
    for rp in schedule.round_plans:
        for tp in rp.tables:
            set_tables[tp.set] += 1
            for position, who in tp.seats.items():
                at_position[position][who] += 1
                if tp.set in played[who]:
                    repeats += 1
                else:
                    played[who].add(tp.set)
            for a, b in combinations(sorted(tp.seats.values()), 2):
                meetings[a * (n + 1) + b] += 1
        for who in rp.pauses:
            paused[who] += 1
    histogram = Counter(meetings.values())
    histogram[0] = comb(n, 2) - len(meetings)
    opponents = [0] * (n + 1)
    for key in meetings:
        opponents[key // (n + 1)] += 1
        opponents[key % (n + 1)] += 1
    people = range(1, n + 1)
    return _metrics_doc(
        schedule,
        histogram=histogram,
        opponents=_summary(opponents[k] for k in people),
        repeats=repeats,
        positions={p: _summary(at_position[p][k] for k in people) for p in POSITIONS},
        distinct=_summary(sum(1 for p in POSITIONS if at_position[p][k]) for k in people),
        set_tables=_summary(set_tables.values()) | {"sets": len(set_tables)},
        pauses=sum(paused),
        paused=_summary(paused[k] for k in people),
    )


def _metrics_doc(
    schedule, *, histogram, opponents, repeats, positions, distinct, set_tables, pauses, paused
) -> dict:
    n = schedule.participants
    pairs = comb(n, 2)
    met = pairs - histogram.get(0, 0)
    return {
        "participants": n,
        "rounds": schedule.rounds,
        "pairs": pairs,
        "pair_meetings": _histogram(histogram),
        "coverage": round(met / pairs, 4) if pairs else 0.0,
        "opponents_met": opponents | {"possible": n - 1},
        "set_repeats": repeats,
        "positions": positions | {"distinct": distinct},
        "tables_per_set": set_tables,
        "pauses": pauses,
        "pauses_per_participant": paused,
        "skips": sum(s.extra for s in schedule.skips),
    }


def rigid_pair_histogram(
    tables: int, offsets: dict[str, tuple[int, ...]], rounds: int
) -> tuple[Counter, dict[str, int]]:
    """Pair-meeting histogram and distinct opponents per line, from the line offsets.

    Players a of line L and b of line M meet in round d iff b − a ≡ p_L(d) − p_M(d); so
    for each difference δ the T pairs (a, a + δ) meet as often as δ occurs over the
    rounds. Players of one line never share a table.
    """
    lines = list(offsets)
    histogram: Counter = Counter()
    opponents = dict.fromkeys(lines, 0)
    for x, y in combinations(lines, 2):
        ox, oy = offsets[x], offsets[y]
        diffs = Counter((ox[d] - oy[d]) % tables for d in range(rounds))
        for times in diffs.values():
            histogram[times] += tables
        opponents[x] += len(diffs)
        opponents[y] += len(diffs)
    n = tables * len(lines)
    histogram[0] = comb(n, 2) - sum(histogram.values())
    return histogram, opponents


def _rigid_metrics(schedule: Schedule) -> dict:
    tables, rounds = schedule.tables, schedule.rounds
    offsets = dict(schedule.line_offsets)
    histogram, opponents = rigid_pair_histogram(tables, offsets, rounds)
    repeats = sum(
        (rounds - len({(off[d] + d) % tables for d in range(rounds)})) * tables
        for off in offsets.values()
    )
    positions = {
        p: {
            "min": rounds if len(offsets) == 1 and p in offsets else 0,
            "max": rounds if p in offsets else 0,
        }
        for p in POSITIONS
    }
    return _metrics_doc(
        schedule,
        histogram=histogram,
        opponents=_summary(opponents.values()),
        repeats=repeats,
        positions=positions,
        distinct={"min": 1, "max": 1},
        # set s is at table s − d in round d: every set is played once each round
        set_tables={"min": rounds, "max": rounds, "sets": tables},
        pauses=0,
        paused={"min": 0, "max": 0},
    )
