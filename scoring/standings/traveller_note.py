"""Why a traveller's figures look as they do: how many tables played the deal against how many
were expected, and what Neuberg's restatement did to the top and the bottom.

Players read a top of 83.33 % and wonder where the missing 16.67 % went; the note says it in
figures taken from the same comparison (``scoring.compare.neuberg``), never retyped.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from scoring import compare


@dataclass(frozen=True)
class Pocket:
    position: str
    played: int  # real results compared (artificial scores are not)
    artificial: int  # artificial scores given in this pocket


@dataclass(frozen=True)
class TravellerNote:
    """Shown when a deal has fewer real results than tables expected to play it."""

    expected: int  # N: tables that play the set
    played: int | None  # n, when every short pocket has the same; else None (see pockets)
    pockets: list[Pocket]  # every pocket of the deal
    neuberg: bool  # the percentages are restated (matchpoints with n ≥ 2)
    top: str  # the best plain result (100 %) restated, «83.33»
    bottom: str  # the worst (0 %) restated, «16.67»
    alone: bool  # one result only: it gets 50 %
    artificial: bool
    penalties: bool

    @property
    def short(self) -> list[Pocket]:
        return [p for p in self.pockets if p.played < self.expected]

    @property
    def counts(self) -> str:
        """Real results per pocket, «N 2 · E 3 · S 3»."""
        return " · ".join(f"{p.position} {p.played}" for p in self.pockets)


def _percent(value: Fraction) -> str:
    return f"{float(value):.2f}"


def pockets_of(traveller) -> list[Pocket]:
    """Each pocket's real results and artificial scores on a ``standings.Traveller``."""
    pockets = []
    for position in traveller.positions:
        scores = [row.scores[position] for row in traveller.rows if position in row.scores]
        artificial = sum(1 for s in scores if s.artificial)
        pockets.append(Pocket(position, len(scores) - artificial, artificial))
    return pockets


def traveller_note(traveller, method: str) -> TravellerNote | None:
    """The note for a ``scoring.standings.Traveller``, or None when every expected table has
    a real result in every pocket (or none has any yet)."""
    expected = len(traveller.rows)
    pockets = pockets_of(traveller)
    penalties = any(s.penalty for row in traveller.rows for s in row.scores.values())
    short = [p for p in pockets if p.played < expected]
    if not expected or not short or all(p.played == 0 for p in pockets):
        return None
    counts = {p.played for p in short}
    played = counts.pop() if len(counts) == 1 else None
    matchpoints = method == "matchpoints"
    # The spread is shown for the common n (or the smallest n of the short pockets).
    n = played if played is not None else min(p.played for p in short if p.played) or 1
    # A fouled deal's versions are each restated on their own (docs/game.md §2.7): its own
    # note says so, and one spread for the whole deal would be wrong.
    neuberg = matchpoints and n >= 2 and not getattr(traveller, "fouled", False)
    return TravellerNote(
        expected=expected,
        played=played,
        pockets=pockets,
        neuberg=neuberg,
        top=_percent(compare.neuberg(Fraction(100), n, expected)) if neuberg else "",
        bottom=_percent(compare.neuberg(Fraction(0), n, expected)) if neuberg else "",
        alone=matchpoints and n == 1,
        artificial=any(p.artificial for p in pockets),
        penalties=penalties,
    )
