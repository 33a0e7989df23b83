"""Comparing results of the same pocket of the same deal across tables, and standings maths.

Pure: imports nothing from Django. A result is compared only with the results of the *same
pocket* of the same deal at other tables (docs/game.md §4). Methods:

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

from scoring.compare.json_io import (
    METHODS,
    compare_json,
)
from scoring.compare.matchpoints import (
    MatchpointsResult,
    matchpoints,
    neuberg,
)
from scoring.compare.pockets import (
    FIGURES,
    compare_pockets,
)
from scoring.compare.points import (
    CrossResult,
    PointsResult,
    apply_penalties,
    cross,
    cross_imps,
    points,
)
from scoring.compare.results import (
    CROSS_SCALE,
    Artificial,
    ArtificialScores,
    Result,
)
from scoring.compare.standings import (
    Standing,
    exact_sum,
    rank_labels,
    standings,
    standings_of_totals,
)

__all__ = [
    "CROSS_SCALE",
    "FIGURES",
    "METHODS",
    "Result",
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
