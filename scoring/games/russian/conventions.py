"""The event's rules of the Russian game: the convention (Сочи, Ленинград, Ростов) and its
options, each with the convention's default (docs/game.md §9.1).

| | Сочи | Ленинград | Ростов |
|---|---|---|---|
| 10 tricks | checked | whisted (norm 1) | checked |
| responsibility r | full (1) | half (½) | full (1) |
| m (гора and whists doubled) | 1 | 2 | 1 |
| k_p, the value of a pool point in whists | 10 | 20 | 10 |
| распасы | гора 1 a trick, pool 1 for none | гора 2 a trick, pool 2 for none | 5 whists a trick from the fewest |

«Сталинград» (both defenders must whist at 6♠) is off by default everywhere. ``ten``,
``responsibility`` and ``stalingrad`` are the event's options; m and k_p belong to the
convention.

Part of the pure core ``scoring.games.russian`` (see its package docstring)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction


class Convention(StrEnum):
    SOCHI = "sochi"  # «сочинка»
    LENINGRAD = "leningrad"  # «ленинградка», «питер»: ФСПР
    ROSTOV = "rostov"


class Ten(StrEnum):
    """How a contract of 10 tricks is defended."""

    CHECKED = "checked"  # always played, no whist, no decision on the sheet
    WHISTED = "whisted"  # whisted like the other levels, with a norm of 1 (ФСПР)


class Responsibility(StrEnum):
    """r: what share of the missed tricks' value a whister short of his norm writes."""

    FULL = "full"
    HALF = "half"


#: The mountain's value in whists, k_m, in every convention.
MOUNTAIN_VALUE = 10

_DEFAULT_TEN = {
    Convention.SOCHI: Ten.CHECKED,
    Convention.LENINGRAD: Ten.WHISTED,
    Convention.ROSTOV: Ten.CHECKED,
}
_DEFAULT_RESPONSIBILITY = {
    Convention.SOCHI: Responsibility.FULL,
    Convention.LENINGRAD: Responsibility.HALF,
    Convention.ROSTOV: Responsibility.FULL,
}


@dataclass(frozen=True)
class Rules:
    """The convention and its options; an option left as None takes the convention's
    default. Plain strings are welcome (``Rules("leningrad", ten="checked")``)."""

    game: Convention = Convention.SOCHI
    ten: Ten | None = None
    responsibility: Responsibility | None = None
    stalingrad: bool = False

    def __post_init__(self) -> None:
        put = object.__setattr__
        game = Convention(self.game)
        put(self, "game", game)
        put(self, "ten", _DEFAULT_TEN[game] if self.ten is None else Ten(self.ten))
        responsibility = self.responsibility
        if responsibility is None:
            responsibility = _DEFAULT_RESPONSIBILITY[game]
        put(self, "responsibility", Responsibility(responsibility))
        put(self, "stalingrad", bool(self.stalingrad))

    @property
    def m(self) -> int:
        """2 in Ленинград (гора and whists doubled), 1 in Сочи and Ростов."""
        return 2 if self.game is Convention.LENINGRAD else 1

    @property
    def r(self) -> Fraction:
        """1 for full responsibility, ½ for half."""
        return Fraction(1) if self.responsibility is Responsibility.FULL else Fraction(1, 2)

    @property
    def k_p(self) -> int:
        """A pool point's value in whists: 20 in Ленинград, 10 in Сочи and Ростов."""
        return 20 if self.game is Convention.LENINGRAD else 10

    @property
    def trick_value(self) -> int:
        """What «one trick» is worth, in whists, where a duplicate comparison needs one (an
        artificial score in points and the cross scale, docs/game.md §4.2, §9.6): a point of
        гора as the convention writes it, k_m·m — 10 in Сочи and Ростов, 20 in Ленинград
        (**choice**: the Codex has no stake)."""
        return self.k_m * self.m

    @property
    def k_m(self) -> int:
        """A mountain point's value in whists: 10."""
        return MOUNTAIN_VALUE

    @property
    def ten_checked(self) -> bool:
        return self.ten is Ten.CHECKED

    def as_json(self) -> dict[str, object]:
        """Every option, defaults filled in: what an event's game is, in full."""
        return {
            "game": self.game.value,
            "ten": self.ten.value,
            "responsibility": self.responsibility.value,
            "stalingrad": self.stalingrad,
        }
