"""Plain points and the cross (IMP-like) comparison; time penalties.

Part of the pure core ``scoring.compare`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.compare.results import (
    _TRICK_OFFSET,
    CROSS_SCALE,
    Artificial,
    Result,
    _split,
)
from scoring.compare.standings import rank_labels

# --- Points and cross ---------------------------------------------------------------------


def _artificial_points(score: Artificial, values: Sequence[Fraction], stake: Fraction) -> Fraction:
    average = sum(values, Fraction(0)) / len(values) if values else Fraction(0)
    return average + _TRICK_OFFSET[score] * Fraction(stake) / 10


@dataclass(frozen=True)
class PointsResult:
    points: tuple[Fraction, ...]
    rank: tuple[str, ...]


def points(results: Sequence[Result], stake: Fraction | int = 100) -> PointsResult:
    """The scores themselves (artificial: average ± one trick) and their ranks."""
    _, values = _split(results)
    figures = tuple(
        _artificial_points(r, values, Fraction(stake)) if isinstance(r, Artificial) else Fraction(r)
        for r in results
    )
    return PointsResult(figures, tuple(rank_labels(figures)))


def cross_imps(
    difference: Fraction | int,
    stake: Fraction | int = 100,
    scale: Sequence[tuple[int, int]] = CROSS_SCALE,
) -> int:
    """A difference of points converted on ``scale`` (thresholds in tricks of stake/10)."""
    tricks = abs(Fraction(difference)) / (Fraction(stake) / 10)
    worth = 0
    for threshold, imps in scale:
        if tricks < threshold:
            break
        worth = imps
    return worth if difference >= 0 else -worth


@dataclass(frozen=True)
class CrossResult:
    difference: tuple[Fraction, ...]  # minus the average of the other results
    imps: tuple[Fraction, ...]  # average over the other results of the converted differences


def cross(
    results: Sequence[Result],
    stake: Fraction | int = 100,
    scale: Sequence[tuple[int, int]] = CROSS_SCALE,
) -> CrossResult:
    index, values = _split(results)
    n = len(values)
    total = sum(values, Fraction(0))
    difference: list[Fraction] = [Fraction(0)] * len(results)
    imps: list[Fraction] = [Fraction(0)] * len(results)
    # Pairwise conversions depend only on the distinct values: count them once.
    distinct: dict[Fraction, int] = {}
    for value in values:
        distinct[value] = distinct.get(value, 0) + 1
    worth: dict[Fraction, Fraction] = {}
    for value in distinct:
        worth[value] = sum(
            (count * cross_imps(value - other, stake, scale) for other, count in distinct.items()),
            Fraction(0),
        )
    for i, value in zip(index, values, strict=True):
        if n > 1:
            difference[i] = value - (total - value) / (n - 1)
            imps[i] = worth[value] / (n - 1)
    for i, score in enumerate(results):
        if isinstance(score, Artificial):
            difference[i] = _TRICK_OFFSET[score] * Fraction(stake) / 10
            imps[i] = Fraction(cross_imps(difference[i], stake, scale))
    return CrossResult(tuple(difference), tuple(imps))


def apply_penalties(
    figures: Sequence[Fraction], penalties: Sequence[Fraction | int]
) -> tuple[Fraction, ...]:
    """``figure − penalty`` for each result; penalties never touch the others' figures."""
    if len(figures) != len(penalties):
        raise ValueError("one penalty per result")
    return tuple(Fraction(f) - Fraction(p) for f, p in zip(figures, penalties, strict=True))
