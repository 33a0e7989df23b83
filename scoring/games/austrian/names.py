"""The game's names: suits and their orders, contracts, defence, calls, and the words
players type for them (Russian and English).

Part of the pure core ``scoring.games.austrian`` (see its package docstring)."""

from __future__ import annotations

from enum import StrEnum

from events.boards import (
    Seat,
)
from events.catalogue import pgettext

# --- Names --------------------------------------------------------------------------------


class Suit(StrEnum):
    SPADES = "spades"
    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"


#: Low to high, as in docs/game.md §2.1: spades (1) < clubs (2) < diamonds (3) < hearts (4).
SEED_SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
#: pagat.com's Austrian page swaps spades and clubs.
AUSTRIAN_SUIT_ORDER: tuple[Suit, ...] = (Suit.CLUBS, Suit.SPADES, Suit.DIAMONDS, Suit.HEARTS)
SUIT_ORDERS: dict[str, tuple[Suit, ...]] = {"seed": SEED_SUIT_ORDER, "pagat": AUSTRIAN_SUIT_ORDER}


class Contract(StrEnum):
    ONE = "one"  # раз
    TWO = "two"  # два
    THREE = "three"  # три
    FOUR = "four"  # четыре
    GAME = "game"  # игра: no talon, any trump but hearts
    HEARTS = "hearts"  # червы: no talon, hearts trump
    PASSED = "passed"  # распас: all passed in the auction

    @property
    def level(self) -> int | None:
        """1–4 for the numeric contracts (the talon is taken), else None."""
        return _LEVELS.get(self.value)


_LEVELS = {"one": 1, "two": 2, "three": 3, "four": 4}
_LEVEL_CONTRACT = {1: Contract.ONE, 2: Contract.TWO, 3: Contract.THREE, 4: Contract.FOUR}


class Defence(StrEnum):
    """A defender's decision."""

    WHIST = "whist"  # вист: promises 2 tricks
    PASS = "pass"  # пас: cards out of play unless invited
    INVITED = "invited"  # a passer whom the other (whisting) defender invited


class Bid(StrEnum):
    """One call of the auction."""

    ONE = "one"
    TWO = "two"
    THREE = "three"
    FOUR = "four"
    HOLD = "hold"  # здесь / держу
    GAME = "game"  # игра — carries the bidder's suit
    HEARTS = "hearts"  # червы — ends the auction
    PASS = "pass"  # пас — out for good

    @property
    def level(self) -> int | None:
        return _LEVELS.get(self.value)


# Russian spellings accepted on input next to the English ones.
_SUIT_WORDS = {s.value: s for s in Suit} | {
    "пики": Suit.SPADES,
    "трефы": Suit.CLUBS,
    "бубны": Suit.DIAMONDS,
    "червы": Suit.HEARTS,
}
_CONTRACT_WORDS = {c.value: c for c in Contract} | {
    "раз": Contract.ONE,
    "два": Contract.TWO,
    "три": Contract.THREE,
    "четыре": Contract.FOUR,
    "игра": Contract.GAME,
    "червы": Contract.HEARTS,
    "распас": Contract.PASSED,
}
_DEFENCE_WORDS = {d.value: d for d in Defence} | {
    "вист": Defence.WHIST,
    "пас": Defence.PASS,
    "приглашён": Defence.INVITED,
    "приглашен": Defence.INVITED,
}
_BID_WORDS = {b.value: b for b in Bid} | {
    "раз": Bid.ONE,
    "два": Bid.TWO,
    "три": Bid.THREE,
    "четыре": Bid.FOUR,
    "здесь": Bid.HOLD,
    "держу": Bid.HOLD,
    "игра": Bid.GAME,
    "червы": Bid.HEARTS,
    "пас": Bid.PASS,
}
_SEAT_WORDS = {s.value: s for s in Seat}


# The Russian word for every enum value; the English text is the value itself. StrEnum
# members of different enums with the same value ("hearts") share the same word here.
#: The game's words as messages and pages show them: English here, the other languages in
#: the project's catalogue (context «game term»; ``messages.translated_term``).
TERMS = frozenset(
    {
        pgettext("game term", "spades"),
        pgettext("game term", "clubs"),
        pgettext("game term", "diamonds"),
        pgettext("game term", "hearts"),
        pgettext("game term", "one"),
        pgettext("game term", "two"),
        pgettext("game term", "three"),
        pgettext("game term", "four"),
        pgettext("game term", "game"),
        pgettext("game term", "passed"),
        pgettext("game term", "hold"),
        pgettext("game term", "pass"),
        pgettext("game term", "whist"),
        pgettext("game term", "invited"),
        pgettext("game term", "fixed"),
        pgettext("game term", "running"),
        pgettext("game term", "trump"),
    }
)
