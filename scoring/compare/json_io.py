"""The JSON contract (``manage.py compare --json``).

Part of the pure core ``scoring.compare`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

from scoring.compare.messages import Problems
from scoring.compare.pockets import (
    FIGURES,
    _figures,
    compare_pockets,
)
from scoring.compare.points import (
    apply_penalties,
)
from scoring.compare.results import (
    _ARTIFICIAL_WORDS,
    Artificial,
    ArtificialScores,
    Result,
)
from scoring.compare.standings import (
    standings,
)
from scoring.games.common.json_io import parse_amount, parse_whole, shown
from scoring.games.common.messages import InvalidInput, number

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
