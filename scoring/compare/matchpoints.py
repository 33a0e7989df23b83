"""Matchpoints (bridge Law 78) and Neuberg's restatement for a deal played fewer times than expected.

Part of the pure core ``scoring.compare`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd

from scoring.compare.results import (
    Artificial,
    ArtificialScores,
    Result,
    _split,
)


def _scaled(values: Sequence[Fraction]) -> list[int]:
    """Each value times the values' common denominator: integers in the same order, equal
    exactly where the values are equal."""
    common = 1
    for den in {v.denominator for v in values}:
        common = common * den // gcd(common, den)
    if common == 1:
        return [v.numerator for v in values]
    return [v.numerator * (common // v.denominator) for v in values]


# --- Matchpoints --------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchpointsResult:
    matchpoints: tuple[Fraction, ...]  # on the top below; Neuberg-restated if n < N
    percent: tuple[Fraction, ...]
    top: int  # 2(N − 1)
    played: int  # n, real results compared
    expected: int  # N


def neuberg(percent: Fraction, played: int, expected: int) -> Fraction:
    """P_N = (P_n − 50)·((n − 1)/n)·(N/(N − 1)) + 50; N = n leaves P unchanged."""
    if expected < played:
        raise ValueError(f"expected {expected} results, fewer than the {played} played")
    if expected == played or expected <= 1:
        return Fraction(percent)
    return (Fraction(percent) - 50) * Fraction(played - 1, played) * Fraction(
        expected, expected - 1
    ) + 50


def _figures(raw: int, played: int, expected: int) -> tuple[Fraction, Fraction]:
    """(matchpoints on the top 2(N − 1), percentage) of raw matchpoints among n results."""
    plain = Fraction(50) if played == 1 else Fraction(100 * raw, 2 * (played - 1))
    if expected == played:  # every expected result played: Neuberg leaves them as they are
        return Fraction(raw), plain
    percent = neuberg(plain, played, expected)
    return percent * (2 * (expected - 1)) / 100, percent


def matchpoints(
    results: Sequence[Result],
    expected: int | None = None,
    artificial: ArtificialScores | None = None,
    *,
    known: dict[tuple[int, int, int], tuple[Fraction, Fraction]] | None = None,
) -> MatchpointsResult:
    """Matchpoints and percentages in input order. ``expected`` (N) defaults to the number of
    entries, artificial ones included.

    ``known``: a caller comparing many pockets may pass the same dict to each call; the
    figures of a result are a function of (n, N, its raw matchpoints) alone, so each is then
    worked out once for all the pockets rather than once per pocket."""
    artificial = artificial or ArtificialScores()
    index, values = _split(results)
    played = len(values)
    expected = len(results) if expected is None else expected
    if expected < len(results):
        raise ValueError(f"expected {expected} results, fewer than the {len(results)} given")
    top = 2 * (expected - 1)
    mp: list[Fraction] = [Fraction(0)] * len(results)
    pct: list[Fraction] = [Fraction(0)] * len(results)
    # Equal results score alike: work out each distinct result once, low to high. They are
    # ranked as integers, each brought to the results' common denominator (a Russian deal's
    # thirds: ×3), which orders and ties exactly as the fractions do and is much cheaper to
    # hash and compare.
    keys = _scaled(values)
    counts: dict[int, int] = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    below = 0
    figures: dict[int, tuple[Fraction, Fraction]] = {}
    known = {} if known is None else known
    for key in sorted(counts):
        count = counts[key]
        raw = 2 * below + count - 1
        found = known.get((played, expected, raw))
        if found is None:
            found = known[(played, expected, raw)] = _figures(raw, played, expected)
        figures[key] = found
        below += count
    for i, key in zip(index, keys, strict=True):
        mp[i], pct[i] = figures[key]
    for i, score in enumerate(results):
        if isinstance(score, Artificial):
            pct[i] = artificial.percent(score)
            mp[i] = pct[i] * top / 100
    return MatchpointsResult(tuple(mp), tuple(pct), top, played, expected)
