"""What is compared: a result (a score or an artificial score), the artificial scores' values.

Part of the pure core ``scoring.compare`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction


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
