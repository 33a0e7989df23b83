"""Benchmark of the club ladder's pure core (issue 24): prints figures, asserts nothing.

    .venv/bin/python bench/bench_ladder.py [--persons 300] [--sessions 200] [--players 40]
                                           [--repeat 5]

- replay: the full recompute of ``pct_grade_v1`` (``scoring.ladder.replay``) over a ladder
  of 300 persons and 200 sessions of 40 players, in-process — the median of 5 runs. The
  ladder's goal is ≤ 1 s for the whole recompute with the database reads, so the core's
  share should stay well under 0.2 s;
- the same ladder through ``ladder replay --json``'s reading and answer
  (``scoring.ladder.replay_json``), for scale.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.ladder import Entry, Session, replay, replay_json  # noqa: E402


def club_ladder(rng: random.Random, persons: int, sessions: int, players: int) -> list[Session]:
    """A season: a session a day or two apart, each of ``players`` drawn from the club,
    matchpoint-like percentages around 50 and 16–32 deals (a few below 8: not rated)."""
    people = [f"person-{i}" for i in range(persons)]
    day = datetime.date(2025, 9, 1)
    out = []
    for i in range(sessions):
        day += datetime.timedelta(days=rng.choice((1, 2, 3)))
        entries = tuple(
            Entry(p, min(100.0, max(0.0, rng.gauss(50, 9))), rng.choice((4, 16, 20, 24, 28, 32)))
            for p in rng.sample(people, players)
        )
        out.append(Session(f"s{i}", day, players // 4, entries))
    return out


def as_json(sessions: list[Session]) -> dict:
    return {
        "sessions": [
            {
                "id": s.id,
                "date": s.date.isoformat(),
                "tables": s.tables,
                "players": [
                    {"person": e.person, "percent": e.percent, "deals": e.deals} for e in s.players
                ],
            }
            for s in sessions
        ]
    }


def timed(function, argument, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function(argument)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--persons", type=int, default=300)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sessions = club_ladder(random.Random(24), args.persons, args.sessions, args.players)
    core = timed(replay, sessions, args.repeat)
    ladder = replay(sessions)
    median = statistics.median(core)
    print(
        f"Ladder pct_grade_v1 replay: {args.persons} persons, {args.sessions} sessions of "
        f"{args.players} players ({len(ladder.history)} rated rows)"
    )
    print(
        f"  core in-process: median {median:.3f} s, best {min(core):.3f} s over {args.repeat} "
        f"runs (goal: well under 0.2 s, so the recompute with its database reads fits in "
        f"1 s: {'met' if median < 0.2 else 'NOT met'})"
    )
    request = json.loads(json.dumps(as_json(sessions)))
    through_json = statistics.median(timed(replay_json, request, args.repeat))
    print(f"  with the JSON reading and answer (ladder replay --json): median {through_json:.3f} s")


if __name__ == "__main__":
    main()
