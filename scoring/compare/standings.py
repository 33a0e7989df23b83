"""Standings: exact sums, ranks with ties, the order of totals.

Part of the pure core ``scoring.compare`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd

# --- Standings ----------------------------------------------------------------------------


def _order_key(value: Fraction | int | None, higher_is_better: bool = True) -> tuple:
    """Sort key: None last, then best first. The float comes first only for speed (rounding
    keeps the order); the exact value decides between equal floats."""
    if value is None:
        return (True, 0.0, 0)
    signed = -value if higher_is_better else value
    return (False, float(signed), signed)


def rank_labels(
    values: Sequence[Fraction | int | None], higher_is_better: bool = True
) -> list[str]:
    """Places in input order; ties share a range («3–4»). None (nothing scored) comes last."""
    order = sorted(range(len(values)), key=lambda i: _order_key(values[i], higher_is_better))
    labels = [""] * len(values)
    place = 0
    while place < len(order):
        end = place
        while end + 1 < len(order) and values[order[end + 1]] == values[order[place]]:
            end += 1
        label = str(place + 1) if end == place else f"{place + 1}\u2013{end + 1}"
        for k in range(place, end + 1):
            labels[order[k]] = label
        place = end + 1
    return labels


@dataclass(frozen=True)
class Standing:
    rank: str
    key: Hashable
    total: Fraction | None  # None: no scored deal
    deals: int


def exact_sum(values: Iterable[Fraction | int]) -> Fraction:
    """The exact sum of many fractions, fast: numerators are brought to one common
    denominator with integer arithmetic, and only the result is reduced."""
    terms = [(v.numerator, v.denominator) for v in values]
    common = 1
    for den in {den for _, den in terms}:
        common = common * den // gcd(common, den)
    return Fraction(sum(num * (common // den) for num, den in terms), common)


def standings_of_totals(
    totals: Mapping[Hashable, tuple[Fraction | int, int]],
    by: str = "average",
    penalties: Mapping[Hashable, Fraction | int] | None = None,
) -> list[Standing]:
    """The standing from each player's (sum of figures, number of scored deals): the average
    (``by="average"``) or the sum (``by="sum"``), less the player's penalty given on the
    total (decision: in the standing's own unit, after averaging). Best first; ties share
    the rank; a player with no scored deal has no total and comes last."""
    if by not in ("average", "sum"):
        raise ValueError(f"standing by average or sum, not {by}")
    penalties = penalties or {}
    keys = list(totals)
    figures: list[Fraction | None] = []
    for key in keys:
        total, deals = totals[key]
        if not deals:
            figures.append(None)
            continue
        figure = Fraction(total) / deals if by == "average" else Fraction(total)
        penalty = penalties.get(key)
        figures.append(figure - Fraction(penalty) if penalty else figure)
    labels = rank_labels(figures)
    rows = [Standing(labels[i], key, figures[i], totals[key][1]) for i, key in enumerate(keys)]
    return sorted(rows, key=lambda row: _order_key(row.total))


def standings(
    figures: Mapping[Hashable, Sequence[Fraction | int]], by: str = "average"
) -> list[Standing]:
    """The event standing: average percentage (``by="average"``) or sum of points
    (``by="sum"``) over the deals a player was scored on — a deal sat out is simply absent
    from his list. Best first; ties share the rank."""
    if by not in ("average", "sum"):
        raise ValueError(f"standing by average or sum, not {by}")
    totals = {
        key: (exact_sum(Fraction(v) for v in values), len(values))
        for key, values in figures.items()
    }
    return standings_of_totals(totals, by)
