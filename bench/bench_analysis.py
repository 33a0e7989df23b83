"""Benchmark of the double-dummy solver (scoring.solver, docs/analysis.md).

    .venv/bin/python bench/bench_analysis.py [--positions 50] [--tables 10] [--no-cli]

- positions: ten-card positions dealt by ``events.cards.deal_from_seed`` (three hands of
  ten, both defenders playing, no talon), the declarer and the trump taken in turn;
  milliseconds per position, median and worst. Target: median ≤ 20 ms.
- tables: a deal's whole table (3 declarers × 4 trumps, with the talon — best of 66
  discards — and without); seconds per deal, median and worst. Target: median ≤ 1 s.
- the command line: ``manage.py analyse --json`` on one ten-card position, cold (the
  engine compiled anew, in an empty numba cache) and warm (compiled code from the cache).

The Russian game's play (no duty to beat, first hand leads, БК, мизер; docs/analysis.md
«Russian play rules»), on the same kind of seeded deals:

- russian positions: ten-card positions, both defenders playing, no talon, the declarer,
  the strain (♠ ♣ ♦ ♥ БК) and first hand taken in turn; ms, median and worst. Target:
  median ≤ 2 ms. The same for мизер without the talon is printed, with no target.
- misere: мизер with the talon (best of 66 discards, the fewest tricks), the declarer and
  first hand in turn; ms. Target: median ≤ 50 ms.
- russian tables: a deal's whole table, 3 declarers × (5 strains + мизер) × with and
  without the talon; seconds. Target: median ≤ 0.5 s.

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
from scoring.solver import NOTRUMP, RUSSIAN_PLAY, deal_table, engine, solve  # noqa: E402

POSITION_TARGET_MS = 20.0
TABLE_TARGET_S = 1.0
RUSSIAN_POSITION_TARGET_MS = 2.0
MISERE_TARGET_MS = 50.0
RUSSIAN_TABLE_TARGET_S = 0.5
SEATS = ("N", "E", "S")
STRAINS = (*SUIT_NAMES, NOTRUMP)


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


def bench_russian_positions(count: int, misere: bool = False) -> list[float]:
    times = []
    for i in range(count):
        hands, _ = dealt(3000 + i)
        declarer, first = SEATS[i % 3], SEATS[(i // 3) % 3]
        strain = NOTRUMP if misere else STRAINS[(i // 9) % 5]
        start = time.perf_counter()
        solve(hands, declarer, strain, rules=RUSSIAN_PLAY, leader=first, misere=misere)
        times.append((time.perf_counter() - start) * 1000)
    return times


def bench_misere_talon(count: int) -> list[float]:
    times = []
    for i in range(count):
        hands, talon = dealt(4000 + i)
        declarer, first = SEATS[i % 3], SEATS[(i // 3) % 3]
        start = time.perf_counter()
        solve(hands, declarer, NOTRUMP, talon=talon, rules=RUSSIAN_PLAY, leader=first, misere=True)
        times.append((time.perf_counter() - start) * 1000)
    return times


def bench_russian_tables(count: int) -> list[float]:
    times = []
    for i in range(count):
        hands, talon = dealt(5000 + i)
        start = time.perf_counter()
        deal_table(hands, talon, rules=RUSSIAN_PLAY, leader=SEATS[i % 3])
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
    parser.add_argument("--russian-positions", type=int, default=50)
    parser.add_argument("--misere", type=int, default=30)
    parser.add_argument("--russian-tables", type=int, default=10)
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
    russian = bench_russian_positions(args.russian_positions)
    rus_median = statistics.median(russian)
    print(
        f"Russian: ten-card position, ♠ ♣ ♦ ♥ БК, first hand leads, no talon "
        f"({args.russian_positions}): median {rus_median:.2f} ms, worst {max(russian):.2f} ms "
        f"(target median ≤ {RUSSIAN_POSITION_TARGET_MS:.0f} ms)"
    )
    plain_misere = bench_russian_positions(args.misere, misere=True)
    print(
        f"Russian: мизер, no talon ({args.misere}): median "
        f"{statistics.median(plain_misere):.2f} ms, worst {max(plain_misere):.2f} ms"
    )
    misere = bench_misere_talon(args.misere)
    mis_median = statistics.median(misere)
    print(
        f"Russian: мизер with the talon, 66 discards ({args.misere}): median "
        f"{mis_median:.2f} ms, worst {max(misere):.2f} ms (target median ≤ "
        f"{MISERE_TARGET_MS:.0f} ms)"
    )
    russian_tables = bench_russian_tables(args.russian_tables)
    rtab_median = statistics.median(russian_tables)
    print(
        f"Russian: whole table of a deal, 3 × (5 strains + мизер) × (talon, no talon) "
        f"({args.russian_tables}): median {rtab_median:.3f} s, worst "
        f"{max(russian_tables):.3f} s (target median ≤ {RUSSIAN_TABLE_TARGET_S} s)"
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
    if rus_median > RUSSIAN_POSITION_TARGET_MS:
        missed.append("Russian position")
    if mis_median > MISERE_TARGET_MS:
        missed.append("мизер with the talon")
    if rtab_median > RUSSIAN_TABLE_TARGET_S:
        missed.append("Russian table")
    if missed:
        print(f"MISSED the target: {', '.join(missed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
