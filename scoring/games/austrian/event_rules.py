"""The event's rules a deal is settled with: the pot (fixed, running, by trump).

Part of the pure core ``scoring.games.austrian`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.games.austrian.names import (
    SEED_SUIT_ORDER,
    Suit,
)

# --- Rules of the event -------------------------------------------------------------------


@dataclass(frozen=True)
class FixedPot:
    """Duplicate pot (the default for events): every deal settled against a fresh A."""

    stake: Fraction = Fraction(100)


@dataclass(frozen=True)
class RunningPot:
    """Club play at one table. ``pot_before`` already holds this deal's ante; ``ante`` is
    what the next dealer adds (the answer's ``pot_after`` is before it)."""

    pot_before: Fraction
    limit: Fraction | None = None
    ante: Fraction = Fraction(10)


DEFAULT_TRUMP_STAKES: Mapping[Suit, Fraction] = {
    Suit.CLUBS: Fraction(20),
    Suit.SPADES: Fraction(30),
    Suit.DIAMONDS: Fraction(40),
    Suit.HEARTS: Fraction(50),
}


@dataclass(frozen=True)
class TrumpPot:
    """Styrian variant: A depends on the trump."""

    stakes: Mapping[Suit, Fraction] = field(default_factory=lambda: dict(DEFAULT_TRUMP_STAKES))


Pot = FixedPot | RunningPot | TrumpPot


@dataclass(frozen=True)
class Rules:
    pot: Pot = field(default_factory=FixedPot)
    suit_order: tuple[Suit, ...] = SEED_SUIT_ORDER  # low to high
