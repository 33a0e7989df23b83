"""Figures for the movement engine and planner (best of several runs).

Run from the project root:  .venv/bin/python bench/bench_movements.py
Targets: a 101-table prime circle ≤ 50 ms; planning 400 participants ≤ 1 s.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from movements import engine, planner  # noqa: E402


def best_of(fn, runs=7, before=None):
    times = []
    for _ in range(runs):
        if before:
            before()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def cold_planner():
    planner.room_summary.cache_clear()
    planner._catalog.cache_clear()
    planner._feasible.cache_clear()
    planner._room_sizes.cache_clear()


def line(label, seconds, target=None):
    ms = seconds * 1000
    verdict = (
        ""
        if target is None
        else (f"  (target ≤ {target:g} ms: {'ok' if ms <= target else 'OVER'})")
    )
    print(f"{label:<58} {ms:9.2f} ms{verdict}")


def main():
    line(
        "engine: prime 101 tables × 4, full circle, no metrics",
        best_of(lambda: engine.prime_schedule(101, 4)),
        50,
    )
    line(
        "engine: prime 101 tables × 4, full circle + metrics",
        best_of(lambda: engine.metrics(engine.prime_schedule(101, 4))),
        50,
    )
    line(
        "engine: skip 100 tables × 4, full circle + metrics",
        best_of(lambda: engine.metrics(engine.skip_schedule(100, 4))),
        50,
    )
    schedule = engine.prime_schedule(101, 4)
    line(
        "engine: metrics by walking every table (101 × 4)",
        best_of(lambda: engine.generic_metrics(schedule)),
    )
    line(
        "engine: scheme 24 + metrics",
        best_of(lambda: engine.metrics(engine.builtin_scheme_schedule(24))),
    )
    line(
        "planner: 400 participants, cold caches",
        best_of(lambda: planner.plan(400), runs=5, before=cold_planner),
        1000,
    )
    line("planner: 400 participants, warm caches", best_of(lambda: planner.plan(400)), 1000)
    line(
        "planner: 1 … 400 participants one after another, cold",
        best_of(lambda: [planner.plan(n) for n in range(1, 401)], runs=3, before=cold_planner),
    )


if __name__ == "__main__":
    main()
