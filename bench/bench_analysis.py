"""Benchmark of the double-dummy solver (scoring.solver, docs/analysis.md).

    .venv/bin/python bench/bench_analysis.py [--positions 50] [--tables 10] [--no-cli]

- positions: ten-card positions dealt by ``events.cards.deal_from_seed`` (three hands of
  ten, both defenders playing, no talon), the declarer and the trump taken in turn;
  milliseconds per position, median and worst. Target: median ≤ 20 ms.
- tables: a deal's whole table (3 declarers × 4 trumps, with the talon — best of 66
  discards — and without); seconds per deal, median and worst. Target: median ≤ 1 s.
- the command line: ``manage.py analyse --json`` on one ten-card position, cold (the
  engine compiled anew, in an empty numba cache) and warm (compiled code from the cache).

Exits non-zero if a median misses its target.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from events.cards import SUIT_NAMES, card_name, deal_from_seed  # noqa: E402
from scoring.solver import deal_table, engine, solve  # noqa: E402

POSITION_TARGET_MS = 20.0
TABLE_TARGET_S = 1.0
SEATS = ("N", "E", "S")


def dealt(number: int):
    deal = deal_from_seed("bench-analysis", 1, 1, number, SEATS)
    return {seat: list(hand) for seat, hand in deal.by_seat()}, list(deal.talon)


def bench_positions(count: int) -> list[float]:
    times = []
    for i in range(count):
        hands, _ = dealt(i)
        declarer, trump = SEATS[i % 3], SUIT_NAMES[(i // 3) % 4]
        start = time.perf_counter()
        solve(hands, declarer, trump)
        times.append((time.perf_counter() - start) * 1000)
    return times


def bench_tables(count: int) -> list[float]:
    times = []
    for i in range(count):
        hands, talon = dealt(1000 + i)
        start = time.perf_counter()
        deal_table(hands, talon)
        times.append(time.perf_counter() - start)
    return times


def cli_seconds(env: dict[str, str]) -> float:
    hands, _ = dealt(0)
    payload = {
        "hands": {seat: [card_name(c) for c in hand] for seat, hand in hands.items()},
        "declarer": "N",
        "trump": "hearts",
    }
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "manage.py", "analyse", "--json"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"manage.py analyse failed: {done.stdout}{done.stderr[-500:]}")
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--no-cli", action="store_true", help="skip the command-line timing")
    args = parser.parse_args()

    start = time.perf_counter()
    solve({"N": [31], "E": [0], "S": [1]}, "N", "hearts")
    load = time.perf_counter() - start
    print(f"engine: {'numba' if engine.COMPILED else 'plain Python'}; first call {load:.2f} s")

    positions = bench_positions(args.positions)
    pos_median, pos_worst = statistics.median(positions), max(positions)
    print(
        f"ten-card position, both defending, no talon ({args.positions}): "
        f"median {pos_median:.2f} ms, worst {pos_worst:.2f} ms (target median ≤ "
        f"{POSITION_TARGET_MS:.0f} ms)"
    )
    tables = bench_tables(args.tables)
    tab_median, tab_worst = statistics.median(tables), max(tables)
    print(
        f"whole table of a deal, 3 × 4 × (talon: 66 discards, no talon) ({args.tables}): "
        f"median {tab_median:.3f} s, worst {tab_worst:.3f} s (target median ≤ "
        f"{TABLE_TARGET_S:.0f} s)"
    )
    if not args.no_cli:
        env = dict(os.environ)
        with tempfile.TemporaryDirectory() as cache:
            cold_env = dict(env, NUMBA_CACHE_DIR=cache)
            cold = cli_seconds(cold_env)
            warm = min(cli_seconds(cold_env) for _ in range(3))
        print(
            f"manage.py analyse --json, one ten-card position: cold (compiling) {cold:.2f} s, "
            f"warm (cached) {warm:.2f} s"
        )
    missed = []
    if pos_median > POSITION_TARGET_MS:
        missed.append("position")
    if tab_median > TABLE_TARGET_S:
        missed.append("table")
    if missed:
        print(f"MISSED the target: {', '.join(missed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
