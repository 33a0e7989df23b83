"""Benchmark of the pure scoring cores: prints figures, asserts nothing about time.

    .venv/bin/python bench/bench_scoring_core.py [--deals 100000] [--pockets 50]

- settle: random valid deals (all pots, all defences) through ``validate`` + settlement;
- compare: pockets of 400 results through matchpoints (with Neuberg), points and cross.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from events.boards import CLOCKWISE  # noqa: E402
from scoring.compare import cross, matchpoints, points  # noqa: E402
from scoring.games.austrian import (  # noqa: E402
    AUSTRIAN_SUIT_ORDER,
    Contract,
    Deal,
    Defence,
    FixedPot,
    Rules,
    RunningPot,
    TrumpPot,
    allowed_trumps,
    settle,
)

DEFENCES = [
    (Defence.WHIST, Defence.WHIST),
    (Defence.WHIST, Defence.PASS),
    (Defence.PASS, Defence.WHIST),
    (Defence.WHIST, Defence.INVITED),
    (Defence.INVITED, Defence.WHIST),
    (Defence.PASS, Defence.PASS),
]
CONTRACTS = [c for c in Contract if c is not Contract.PASSED]
RULES = [
    Rules(),
    Rules(pot=FixedPot(Fraction(100)), suit_order=AUSTRIAN_SUIT_ORDER),
    Rules(pot=RunningPot(Fraction(130), Fraction(100))),
    Rules(pot=RunningPot(Fraction(135))),
    Rules(pot=TrumpPot()),
]


def random_deal(rng: random.Random) -> Deal:
    out = rng.choice(CLOCKWISE)
    active = [s for s in CLOCKWISE if s is not out]
    declarer = rng.choice(active)
    first, second = (s for s in active if s is not declarer)
    decisions = dict(zip((first, second), rng.choice(DEFENCES), strict=True))
    rules = rng.choice(RULES)
    contract = rng.choice(CONTRACTS)
    trump = rng.choice(allowed_trumps(contract, rules.suit_order))
    tricks = None
    if any(d is not Defence.PASS for d in decisions.values()):
        playing = [declarer] + [s for s, d in decisions.items() if d is not Defence.PASS]
        cuts = sorted(rng.randint(0, 10) for _ in range(len(playing) - 1))
        bounds = [0, *cuts, 10]
        tricks = {seat: bounds[i + 1] - bounds[i] for i, seat in enumerate(playing)}
    return Deal(
        contract=contract,
        declarer=declarer,
        trump=trump,
        defenders=decisions,
        tricks=tricks,
        rules=rules,
    )


def bench_settle(count: int, rng: random.Random) -> None:
    deals = [random_deal(rng) for _ in range(count)]
    started = time.perf_counter()
    failures = 0
    for deal in deals:
        failures += len(settle(deal).failed)
    elapsed = time.perf_counter() - started
    print(
        f"settle: {count} random valid deals in {elapsed:.2f} s — "
        f"{count / elapsed:,.0f} deals/s ({failures} failed obligations)"
    )


def bench_compare(pockets: int, size: int, rng: random.Random) -> None:
    data = [[rng.randrange(-200, 101, 10) for _ in range(size)] for _ in range(pockets)]
    for name, method in (
        ("matchpoints", lambda s: matchpoints(s)),
        ("matchpoints+Neuberg", lambda s: matchpoints(s, expected=size + 20)),
        ("points", points),
        ("cross", cross),
    ):
        started = time.perf_counter()
        for scores in data:
            method(scores)
        elapsed = time.perf_counter() - started
        print(
            f"compare {name}: {pockets} pockets × {size} results in {elapsed:.2f} s — "
            f"{pockets / elapsed:,.1f} pockets/s, {elapsed / pockets * 1000:.1f} ms per pocket"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--pockets", type=int, default=50)
    parser.add_argument("--size", type=int, default=400)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    bench_settle(args.deals, rng)
    bench_compare(args.pockets, args.size, rng)


if __name__ == "__main__":
    main()
