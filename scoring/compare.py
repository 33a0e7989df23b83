"""Comparing results of the same pocket of the same deal across tables, and standings maths.

Pure: imports nothing from Django. A result is compared only with the results of the *same
pocket* of the same deal at other tables (``design/domain.md`` «Comparing»). Methods:

- **matchpoints** (default; bridge Law 78): 2 for each result beaten, 1 for each tie, 0 for
  each result above, as a percentage of the top 2(n − 1); a result alone gets 50 %. When a
  deal was played fewer times (n) than expected (N), Neuberg:
  P_N = (P_n − 50)·((n − 1)/n)·(N/(N − 1)) + 50, and the matchpoints are restated on the top
  2(N − 1).
- **points**: the plain score of the deal; the standing is their sum.
- **cross** (decision): an IMP-like cross comparison. ``difference`` is the result minus the
  average of the *other* results of the pocket (0 alone); ``imps`` is the average, over the
  other results, of each pairwise difference converted on :data:`CROSS_SCALE`, a scale
  measured in tricks — a trick being stake/10, so the same table serves any stake.

Artificial scores (director's decisions) are ``A+``, ``A``, ``A-``: in matchpoints they get
60 / 50 / 40 % (configurable) and do not take part in the comparison of the others; they do
count towards the expected number of results, so the others are Neuberg-adjusted. In points
and cross they stand for the average of the real results plus one trick, the average, and
the average minus one trick (decision).

Time penalties (decision) are subtracted from a player's figure after the comparison, in
the method's unit (percentage points, points, cross IMPs), and never change anybody else's
figure: ``net = figure − penalty``. A penalised percentage may fall below 0.

Everything is exact (``Fraction``) inside; the JSON answer rounds percentages to 2 decimals.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from math import gcd

from scoring.rules import InvalidInput, Problems, number, parse_amount, parse_whole, shown

__all__ = [
    "CROSS_SCALE",
    "Artificial",
    "ArtificialScores",
    "CrossResult",
    "MatchpointsResult",
    "PointsResult",
    "Standing",
    "apply_penalties",
    "compare_json",
    "compare_pockets",
    "cross",
    "cross_imps",
    "exact_sum",
    "matchpoints",
    "neuberg",
    "points",
    "rank_labels",
    "standings",
    "standings_of_totals",
]


class Artificial(StrEnum):
    PLUS = "A+"  # average plus
    AVERAGE = "A"
    MINUS = "A-"  # average minus


_ARTIFICIAL_WORDS = {
    "a+": Artificial.PLUS,
    "avg+": Artificial.PLUS,
    "average+": Artificial.PLUS,
    "a": Artificial.AVERAGE,
    "avg": Artificial.AVERAGE,
    "average": Artificial.AVERAGE,
    "a=": Artificial.AVERAGE,
    "a-": Artificial.MINUS,
    "a\u2212": Artificial.MINUS,
    "avg-": Artificial.MINUS,
    "average-": Artificial.MINUS,
}
_TRICK_OFFSET = {Artificial.PLUS: 1, Artificial.AVERAGE: 0, Artificial.MINUS: -1}

Result = Fraction | int | Artificial


@dataclass(frozen=True)
class ArtificialScores:
    """The percentages an artificial score is worth in matchpoints."""

    plus: Fraction = Fraction(60)
    average: Fraction = Fraction(50)
    minus: Fraction = Fraction(40)

    def percent(self, score: Artificial) -> Fraction:
        return {
            Artificial.PLUS: self.plus,
            Artificial.AVERAGE: self.average,
            Artificial.MINUS: self.minus,
        }[score]


#: |difference| in tricks (stake/10) from which a cross comparison is worth so many IMPs.
#: A fixed-pot deal swings at most 20 tricks (+100 against −100), so 10 is the top.
CROSS_SCALE: tuple[tuple[int, int], ...] = (
    (1, 1),
    (2, 2),
    (3, 3),
    (4, 4),
    (6, 5),
    (8, 6),
    (10, 7),
    (13, 8),
    (16, 9),
    (20, 10),
)


def _split(results: Sequence[Result]) -> tuple[list[int], list[Fraction]]:
    """Indices of the real (numeric) results and their values."""
    index = [i for i, r in enumerate(results) if not isinstance(r, Artificial)]
    values = [results[i] for i in index]
    return index, [v if type(v) is Fraction else Fraction(v) for v in values]


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


def matchpoints(
    results: Sequence[Result],
    expected: int | None = None,
    artificial: ArtificialScores | None = None,
) -> MatchpointsResult:
    """Matchpoints and percentages in input order. ``expected`` (N) defaults to the number of
    entries, artificial ones included."""
    artificial = artificial or ArtificialScores()
    index, values = _split(results)
    played = len(values)
    expected = len(results) if expected is None else expected
    if expected < len(results):
        raise ValueError(f"expected {expected} results, fewer than the {len(results)} given")
    top = 2 * (expected - 1)
    mp: list[Fraction] = [Fraction(0)] * len(results)
    pct: list[Fraction] = [Fraction(0)] * len(results)
    # Equal results score alike: work out each distinct result once, low to high.
    counts: dict[Fraction, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    below = 0
    figures: dict[Fraction, tuple[Fraction, Fraction]] = {}
    for value in sorted(counts):
        ties = counts[value] - 1
        raw = Fraction(2 * below + ties)
        plain = Fraction(50) if played == 1 else 100 * raw / (2 * (played - 1))
        percent = neuberg(plain, played, expected)
        figures[value] = (raw if expected == played else percent * top / 100, percent)
        below += counts[value]
    for i, value in zip(index, values, strict=True):
        mp[i], pct[i] = figures[value]
    for i, score in enumerate(results):
        if isinstance(score, Artificial):
            pct[i] = artificial.percent(score)
            mp[i] = pct[i] * top / 100
    return MatchpointsResult(tuple(mp), tuple(pct), top, played, expected)


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


# --- Several pockets ----------------------------------------------------------------------


def compare_pockets(
    tables: Sequence[Mapping[str, Result]], method: str = "matchpoints", **options: object
) -> list[dict[str, dict[str, Fraction | str]]]:
    """One deal's results, one mapping seat → score per table; each pocket is compared only
    with the same pocket at the other tables. A seat absent at a table (it sat out) is not
    scored there. Returns, per table, seat → the method's figures."""
    answer: list[dict[str, dict[str, Fraction | str]]] = [{} for _ in tables]
    seats: list[str] = []
    for table in tables:
        seats.extend(s for s in table if s not in seats)
    for seat in seats:
        where = [t for t, table in enumerate(tables) if seat in table]
        scores = [tables[t][seat] for t in where]
        figures = _figures(method, scores, options)
        for k, t in enumerate(where):
            answer[t][seat] = {name: values[k] for name, values in figures.items()}
    return answer


#: The figures each method returns, by name.
FIGURES = {
    "matchpoints": ("matchpoints", "percent"),
    "points": ("points", "rank"),
    "cross": ("difference", "imps"),
}


def _figures(method: str, scores: Sequence[Result], options: Mapping[str, object]):
    if method == "matchpoints":
        result = matchpoints(scores, options.get("expected"), options.get("artificial"))
        return {"matchpoints": result.matchpoints, "percent": result.percent}
    if method == "points":
        result = points(scores, options.get("stake", 100))
        return {"points": result.points, "rank": result.rank}
    if method == "cross":
        result = cross(scores, options.get("stake", 100))
        return {"difference": result.difference, "imps": result.imps}
    raise ValueError(f"unknown method {method}")


# --- JSON ---------------------------------------------------------------------------------

METHODS = ("matchpoints", "points", "cross", "standing")
_FIELDS = {
    "matchpoints": {"method", "scores", "results", "expected", "penalties", "artificial"},
    "points": {"method", "scores", "results", "penalties", "stake"},
    "cross": {"method", "scores", "results", "penalties", "stake"},
    "standing": {"method", "players", "by"},
}


def _percent_out(value: Fraction) -> float:
    return round(float(value), 2)


def _figure_out(value: Fraction | str) -> int | float | str:
    return value if isinstance(value, str) else number(value, 2)


def _read_result(value: object, name: str, problems: Problems) -> Result | None:
    if isinstance(value, str) and value.strip().lower() in _ARTIFICIAL_WORDS:
        return _ARTIFICIAL_WORDS[value.strip().lower()]
    parsed = None
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        parsed = parse_amount(value)
    if parsed is None:
        problems.add(name, "score_value")
    return parsed


def _read_scores(value: object, name: str, problems: Problems) -> list[Result] | None:
    if not isinstance(value, list):
        problems.add(name, "not_list")
        return None
    if not value:
        problems.add(name, "scores_empty")
        return None
    read = [_read_result(v, f"{name}.{i}", problems) for i, v in enumerate(value)]
    return None if None in read else read


def compare_json(data: object) -> dict[str, object]:
    """JSON request in, JSON answer out; raises :class:`InvalidInput`.

    ``{"method": "matchpoints", "scores": [60, 30, 30, -50], "expected": 5}`` →
    ``{"matchpoints": [...], "percent": [...], "top": 8}`` in input order. ``"results"``
    (a list of seat → score per table) instead of ``"scores"`` compares every pocket.
    ``{"method": "standing", "by": "average"|"sum", "players": {name: [figures]}}`` → the
    standing, best first.
    """
    problems = Problems()
    if not isinstance(data, dict):
        problems.add("request", "not_object")
        raise InvalidInput(problems)
    method = data.get("method", "matchpoints")
    if method not in METHODS:
        problems.add("method", "choice", value=shown(method), choices=", ".join(METHODS))
        raise InvalidInput(problems)
    for key in data:
        if key not in _FIELDS[method]:
            problems.add(key, "unknown_field")
    if method == "standing":
        return _standing_json(data, problems)
    options: dict[str, object] = {}
    if "stake" in data:
        stake = parse_amount(data["stake"])
        if stake is None or stake <= 0:
            problems.add("stake", "positive")
        else:
            options["stake"] = stake
    if "artificial" in data:
        options["artificial"] = _read_artificial(data["artificial"], problems)
    if "results" in data and "scores" in data:
        problems.add("results", "unknown_field")
    if "results" in data:
        return _pockets_json(data, method, options, problems)
    scores = None
    if "scores" not in data:
        problems.add("scores", "required")
    else:
        scores = _read_scores(data["scores"], "scores", problems)
    if "expected" in data:
        expected = parse_whole(data["expected"])
        if expected is None or expected < 1:
            problems.add("expected", "whole", minimum=1)
        elif scores is not None and expected < len(scores):
            problems.add("expected", "expected_small", count=len(scores))
        else:
            options["expected"] = expected
    penalties = _read_penalties(data, scores, problems)
    if problems or scores is None:
        raise InvalidInput(problems)
    figures = _figures(method, scores, options)
    answer: dict[str, object] = {}
    for name, values in figures.items():
        out = _percent_out if name == "percent" else _figure_out
        answer[name] = [out(v) for v in values]
    if method == "matchpoints":
        answer["top"] = 2 * (options.get("expected", len(scores)) - 1)
    if penalties is not None:
        main = {"matchpoints": "percent", "points": "points", "cross": "imps"}[method]
        answer["penalty"] = [number(p, 2) for p in penalties]
        out = _percent_out if main == "percent" else _figure_out
        answer["net"] = [out(v) for v in apply_penalties(figures[main], penalties)]
    return answer


def _read_penalties(
    data: Mapping[str, object], scores: Sequence[Result] | None, problems: Problems
) -> list[Fraction] | None:
    if "penalties" not in data:
        return None
    given = data["penalties"]
    if not isinstance(given, list):
        problems.add("penalties", "not_list")
        return None
    if scores is not None and len(given) != len(scores):
        problems.add("penalties", "same_length", count=len(scores))
        return None
    read = [parse_amount(p) for p in given]
    for i, value in enumerate(read):
        if value is None or value < 0:
            problems.add(f"penalties.{i}", "amount")
    return None if any(v is None or v < 0 for v in read) else read


def _read_artificial(value: object, problems: Problems) -> ArtificialScores:
    if not isinstance(value, dict):
        problems.add("artificial", "not_object")
        return ArtificialScores()
    got: dict[str, Fraction] = {}
    names = {Artificial.PLUS: "plus", Artificial.AVERAGE: "average", Artificial.MINUS: "minus"}
    for key, amount in value.items():
        kind = _ARTIFICIAL_WORDS.get(str(key).strip().lower())
        parsed = parse_amount(amount)
        if kind is None:
            problems.add(f"artificial.{key}", "unknown_field")
        elif parsed is None or not 0 <= parsed <= 100:
            problems.add(f"artificial.{key}", "percent")
        else:
            got[names[kind]] = parsed
    return ArtificialScores(**got)


def _pockets_json(
    data: Mapping[str, object], method: str, options: dict[str, object], problems: Problems
) -> dict[str, object]:
    tables = data["results"]
    if not isinstance(tables, list) or not tables:
        problems.add("results", "not_list" if not isinstance(tables, list) else "scores_empty")
        raise InvalidInput(problems)
    read: list[dict[str, Result]] = []
    for t, table in enumerate(tables):
        if not isinstance(table, dict):
            problems.add(f"results.{t}", "not_object")
            continue
        row: dict[str, Result] = {}
        for seat, value in table.items():
            if seat not in ("W", "N", "E", "S"):
                problems.add(f"results.{t}.{seat}", "seat", value=shown(seat))
                continue
            result = _read_result(value, f"results.{t}.{seat}", problems)
            if result is not None:
                row[seat] = result
        read.append(row)
    if "expected" in data:
        expected = parse_whole(data["expected"])
        if expected is None or expected < len(tables):
            problems.add("expected", "expected_small", count=len(tables))
        else:
            options["expected"] = expected
    if "penalties" in data:
        problems.add("penalties", "unknown_field")
    if problems:
        raise InvalidInput(problems)
    per_table = compare_pockets(read, method, **options)
    answer: dict[str, object] = {}
    for name in FIGURES[method]:
        out = _percent_out if name == "percent" else _figure_out
        answer[name] = [
            {seat: out(figures[name]) for seat, figures in table.items()} for table in per_table
        ]
    return answer


def _standing_json(data: Mapping[str, object], problems: Problems) -> dict[str, object]:
    by = data.get("by", "average")
    if by not in ("average", "sum"):
        problems.add("by", "choice", value=shown(by), choices="average, sum")
    players = data.get("players")
    figures: dict[str, list[Fraction]] = {}
    if not isinstance(players, dict):
        problems.add("players", "not_object" if players is not None else "required")
    else:
        for name, values in players.items():
            if not isinstance(values, list):
                problems.add(f"players.{name}", "not_list")
                continue
            read = [parse_amount(v) if not isinstance(v, str) else None for v in values]
            for i, v in enumerate(read):
                if v is None:
                    problems.add(f"players.{name}.{i}", "score_value")
            figures[name] = [v for v in read if v is not None]
    if problems:
        raise InvalidInput(problems)
    return {
        "standing": [
            {
                "rank": row.rank,
                "player": row.key,
                "total": None if row.total is None else number(row.total, 2),
                "deals": row.deals,
            }
            for row in standings(figures, by)
        ]
    }
