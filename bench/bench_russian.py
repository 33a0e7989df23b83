"""Benchmark of the Russian game's pure core (issue 22): prints figures, asserts nothing.

    .venv/bin/python bench/bench_russian.py [--deals 10000] [--repeat 5]

- settle: random valid Сочи / Ленинград / Ростов sheets of every kind (a numeric contract
  with every defence the rules allow, a checked 10, мизер, распасы) through the check and
  the settlement (``scoring.games.russian.settle``), in-process; the goal is 10,000 deals in
  at most 0.5 s;
- the same number of Austrian deals through ``scoring.games.austrian.settle`` for scale.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_scoring_core import random_deal as austrian_deal  # noqa: E402
from events.boards import CLOCKWISE, clockwise_from  # noqa: E402
from scoring.games import austrian  # noqa: E402
from scoring.games.russian import (  # noqa: E402
    BIDS,
    MISERE,
    PASSED,
    Convention,
    Deal,
    Defence,
    Responsibility,
    Rules,
    Ten,
    settle,
    validate,
)

WHIST, PASS, HALF = Defence.WHIST, Defence.PASS, Defence.HALF
NUMERIC = [b for b in BIDS if b.is_numeric]


def split(rng: random.Random, seats) -> dict:
    cuts = sorted(rng.randint(0, 10) for _ in range(len(seats) - 1))
    bounds = [0, *cuts, 10]
    return {seat: bounds[i + 1] - bounds[i] for i, seat in enumerate(seats)}


def random_rules(rng: random.Random) -> Rules:
    return Rules(
        rng.choice(list(Convention)),
        rng.choice([None, *Ten]),
        rng.choice([None, *Responsibility]),
        rng.random() < 0.2,
    )


def random_deal(rng: random.Random, active=None, rules: Rules | None = None) -> Deal:
    """A valid sheet: the kinds in about the proportions a club evening has them. ``active``:
    the three seats playing (any three by default); ``rules``: the game (any by default)."""
    r = random_rules(rng) if rules is None else rules
    if active is None:
        out = rng.choice(CLOCKWISE)
        active = [s for s in CLOCKWISE if s is not out]
    else:
        active = [s if not isinstance(s, str) else type(CLOCKWISE[0])(s) for s in active]
    kind = rng.choices(["numeric", "misere", "passed"], [80, 8, 12])[0]
    if kind == "passed":
        return Deal(PASSED, tricks=split(rng, active), rules=r)
    declarer = rng.choice(active)
    first, second = clockwise_from(declarer, active)[1:]
    if kind == "misere":
        return Deal(MISERE, declarer, tricks=split(rng, [declarer, first, second]), rules=r)
    contract = rng.choice(NUMERIC)
    if contract.level == 10 and r.ten_checked:
        return Deal(contract, declarer, {}, split(rng, [declarer, first, second]),
                    seats=tuple(active), rules=r)  # fmt: skip
    said = [(WHIST, WHIST), (WHIST, PASS), (PASS, WHIST), (PASS, PASS)]
    if contract.level in (6, 7):
        said.append((PASS, HALF))
    if r.stalingrad and contract.code == "6S":
        said = [(WHIST, WHIST)]
    one, two = rng.choice(said)
    defenders = {first: one, second: two}
    if HALF in (one, two) or (one, two) == (PASS, PASS):
        return Deal(contract, declarer, defenders, rules=r)
    whisters = [s for s in (first, second) if defenders[s] is WHIST]
    return Deal(contract, declarer, defenders, split(rng, [declarer, *whisters]), rules=r)


def timed(fn, items, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            fn(item)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(22)
    deals = [random_deal(rng) for _ in range(args.deals)]
    bad = [d for d in deals[:500] if validate(d)]
    assert not bad, f"the generator made invalid sheets: {bad[:1]}"
    russian = timed(settle, deals, args.repeat)
    kinds = {}
    for deal in deals:
        kind = "распасы" if deal.contract is PASSED else deal.contract.code
        kinds[kind] = kinds.get(kind, 0) + 1
    seed = [austrian_deal(rng) for _ in range(args.deals)]
    seed_times = timed(austrian.settle, seed, args.repeat)
    median = statistics.median(russian)
    print(f"Russian settle: {args.deals} deals (Сочи, Ленинград, Ростов; {len(kinds)} contracts)")
    print(
        f"  median {median:.3f} s, best {min(russian):.3f} s over {args.repeat} runs; "
        f"{median / args.deals * 1e6:.1f} µs a deal (goal: 10,000 in ≤ 0.5 s: "
        f"{'met' if median * 10_000 / args.deals <= 0.5 else 'NOT met'})"
    )
    seed_median = statistics.median(seed_times)
    print(
        f"Austrian settle, the same count for scale: median {seed_median:.3f} s "
        f"({seed_median / args.deals * 1e6:.1f} µs a deal)"
    )


if __name__ == "__main__":
    main()
