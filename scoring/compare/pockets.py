"""Comparing every pocket of a deal at once, by the event's method.

Part of the pure core ``scoring.compare`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from scoring.compare.matchpoints import (
    matchpoints,
)
from scoring.compare.points import (
    cross,
    points,
)
from scoring.compare.results import (
    Result,
)

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
        result = matchpoints(
            scores, options.get("expected"), options.get("artificial"), known=options.get("known")
        )
        return {"matchpoints": result.matchpoints, "percent": result.percent}
    if method == "points":
        result = points(scores, options.get("stake", 100))
        return {"points": result.points, "rank": result.rank}
    if method == "cross":
        result = cross(scores, options.get("stake", 100))
        return {"difference": result.difference, "imps": result.imps}
    raise ValueError(f"unknown method {method}")
