"""The Russian game's names: strains, the bids in their order (6♠ … 10БК with мизер
between 8БК and 9♠), the contract of a sheet (a bid or распасы), the defenders' decisions
and the auction's calls, with the words players type for them.

Part of the pure core ``scoring.games.russian`` (see its package docstring)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from events.boards import Seat


class Strain(StrEnum):
    """A suit or no trump (БК), low to high: ♠ < ♣ < ♦ < ♥ < БК."""

    SPADES = "S"
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    NOTRUMP = "NT"


STRAINS: tuple[Strain, ...] = tuple(Strain)
LEVELS: tuple[int, ...] = (6, 7, 8, 9, 10)

#: p, the price of a level (docs/game.md §9.4); мизер is worth 10.
PRICE: dict[int, int] = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}
MISERE_PRICE = 10
#: n, the defence's obligation for the pair («Norms»); at 10 only when 10 is whisted.
NORM: dict[int, int] = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
#: The levels at which each of two whisters answers for half the norm, and полвиста exists.
HALF_LEVELS = frozenset({6, 7})

_MISERE, _PASSED = "misere", "passed"


def _codes() -> tuple[str, ...]:
    numeric = [f"{level}{strain}" for level in LEVELS for strain in STRAINS]
    cut = numeric.index("9S")
    return (*numeric[:cut], _MISERE, *numeric[cut:])


#: Every bid's code, low to high: 6S 6C 6D 6H 6NT 7S … 8NT misere 9S … 10NT.
BID_CODES: tuple[str, ...] = _codes()
_RANK = {code: i for i, code in enumerate(BID_CODES)}
# A numeric bid's level and strain, read once (the settlement asks them of every deal).
_LEVEL = {c: int(c.rstrip("SCDHNT")) for c in BID_CODES if c != _MISERE}
_STRAIN = {c: Strain(c.lstrip("0123456789")) for c in _LEVEL}


@dataclass(frozen=True)
class Contract:
    """A bid of the auction («6S» … «10NT», «misere») or the sheet's «passed» (распасы).

    Compared by code; :attr:`rank` orders the bids (распасы has none)."""

    code: str

    def __post_init__(self) -> None:
        if self.code not in _RANK and self.code != _PASSED:
            raise ValueError(f"{self.code!r} is not a contract of the Russian game")

    def __str__(self) -> str:
        return self.code

    @property
    def is_misere(self) -> bool:
        return self.code == _MISERE

    @property
    def is_passed(self) -> bool:
        return self.code == _PASSED

    @property
    def is_numeric(self) -> bool:
        return self.code in _LEVEL

    @property
    def level(self) -> int | None:
        """6–10 for a numeric contract, else None."""
        return _LEVEL.get(self.code)

    @property
    def strain(self) -> Strain | None:
        return _STRAIN.get(self.code)

    @property
    def rank(self) -> int:
        """The bid's place in the order, 0 for 6♠; −1 for распасы, which is no bid."""
        return _RANK.get(self.code, -1)

    @property
    def price(self) -> int:
        """p: 2, 4, 6, 8, 10 by level; мизер 10; распасы 0 (they have their own rule)."""
        if self.is_misere:
            return MISERE_PRICE
        return 0 if self.level is None else PRICE[self.level]

    @property
    def norm(self) -> int:
        """n, the pair's obligation at this level (0 for мизер and распасы)."""
        return 0 if self.level is None else NORM[self.level]

    @property
    def half_norm(self) -> Fraction:
        """What each of two whisters answers for, and what полвиста is written for: n/2."""
        return Fraction(self.norm, 2)


BIDS: tuple[Contract, ...] = tuple(Contract(code) for code in BID_CODES)
MISERE = Contract(_MISERE)
PASSED = Contract(_PASSED)
#: The lowest bid: «здесь» is not said at it (nor at мизер).
SIX_SPADES = Contract("6S")


class Defence(StrEnum):
    """A defender's decision after a numeric contract."""

    WHIST = "whist"  # вист
    PASS = "pass"  # пас
    HALF = "half"  # полвиста: the second defender, on 6 and 7, after the first passed


class Say(StrEnum):
    """The calls of the auction that are no bid."""

    HERE = "here"  # «здесь»: a senior player who has bid equals the highest bid
    PASS = "pass"  # пас, final


# --- Words typed on input (English codes, Russian words, card symbols) --------------------

_SYMBOLS = {"♠": "S", "♣": "C", "♦": "D", "♥": "H", "БК": "NT", "BK": "NT", "Б/К": "NT"}
_CONTRACT_WORDS = {
    "MISERE": _MISERE,
    "МИЗЕР": _MISERE,
    "PASSED": _PASSED,
    "РАСПАСЫ": _PASSED,
    "РАСПАС": _PASSED,
    "РАСПАСОВКА": _PASSED,
}
DEFENCE_WORDS: dict[str, Defence] = {d.value: d for d in Defence} | {
    "вист": Defence.WHIST,
    "пас": Defence.PASS,
    "полвиста": Defence.HALF,
    "half whist": Defence.HALF,
}
SAY_WORDS: dict[str, Say] = {s.value: s for s in Say} | {"здесь": Say.HERE, "пас": Say.PASS}
SEAT_WORDS: dict[str, Seat] = {s.value: s for s in Seat}


def read_contract(text: object) -> Contract | None:
    """«6S», «6♠», «6 бк», «10NT», «мизер», «распасы» → the contract; None if it is none."""
    if not isinstance(text, str):
        return None
    value = "".join(text.split()).upper()
    if value in _CONTRACT_WORDS:
        return Contract(_CONTRACT_WORDS[value])
    for symbol, letter in _SYMBOLS.items():
        value = value.replace(symbol, letter)
    return Contract(value) if value in _RANK else None


def read_bid(text: object) -> Contract | Say | None:
    """An auction call's word: a bid, «here» / «здесь» or «pass» / «пас»; None otherwise."""
    if isinstance(text, str) and text.strip().lower() in SAY_WORDS:
        return SAY_WORDS[text.strip().lower()]
    contract = read_contract(text)
    return None if contract is None or contract.is_passed else contract
