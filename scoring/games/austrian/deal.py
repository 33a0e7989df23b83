"""One deal as the core reads it: the calls, the declarer, the contract, the defence, the
tricks; and what settling it gives.

Part of the pure core ``scoring.games.austrian`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from events.boards import (
    BoardLayout,
    Seat,
)
from scoring.games.austrian.event_rules import (
    Rules,
)
from scoring.games.austrian.names import (
    Bid,
    Contract,
    Defence,
    Suit,
)

# --- The deal -----------------------------------------------------------------------------


def _as(kind: type[StrEnum], value: object):
    """``value`` as a member of ``kind`` (None stays None); ValueError if it is not one."""
    return value if value is None or isinstance(value, kind) else kind(value)


@dataclass(frozen=True)
class Call:
    """One call of the auction. A ``game`` call carries the suit its bidder would play, so
    that two «игра» bidders can be told apart (higher suit wins, on a tie the earlier)."""

    seat: Seat
    bid: Bid
    suit: Suit | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "seat", _as(Seat, self.seat))
        object.__setattr__(self, "bid", _as(Bid, self.bid))
        object.__setattr__(self, "suit", _as(Suit, self.suit))


@dataclass(frozen=True)
class Deal:
    """One deal's score sheet. Any field may be None in a half-parsed input; :func:`validate`
    says what is missing."""

    contract: Contract | None
    declarer: Seat | None = None
    trump: Suit | None = None
    defenders: Mapping[Seat, Defence] = field(default_factory=dict)
    tricks: Mapping[Seat, int] | None = None
    seats: tuple[Seat, ...] | None = None  # the active seats; needed for a passed-out deal
    auction: tuple[Call, ...] | None = None
    first_hand: Seat | None = None
    board: BoardLayout | None = None
    rules: Rules = field(default_factory=Rules)
    # The talon's two cards (``events.cards`` numbers) as recorded with a numeric contract
    # (docs/game.md §2.7); None when the sheet does not give it.
    talon: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        # Plain strings are welcome ("N", "whist"): the rules compare enum members.
        put = object.__setattr__
        put(self, "contract", _as(Contract, self.contract))
        put(self, "declarer", _as(Seat, self.declarer))
        put(self, "trump", _as(Suit, self.trump))
        put(self, "first_hand", _as(Seat, self.first_hand))
        put(self, "defenders", {_as(Seat, k): _as(Defence, v) for k, v in self.defenders.items()})
        if self.tricks is not None:
            put(self, "tricks", {_as(Seat, k): v for k, v in self.tricks.items()})
        if self.seats is not None:
            put(self, "seats", tuple(_as(Seat, s) for s in self.seats))
        if self.auction is not None:
            put(self, "auction", tuple(self.auction))


@dataclass(frozen=True)
class Settlement:
    stake: Fraction  # A
    scores: dict[Seat, Fraction]  # every active seat; a non-invited passer 0
    failed: tuple[Seat, ...]  # who paid A for failing an obligation
    pot_after: Fraction | None  # running pot only, before the next ante


@dataclass(frozen=True)
class AuctionOutcome:
    declarer: Seat | None  # None when passed out
    contract: Contract
    suit: Suit | None = None  # the winning «игра» call's suit, if given
