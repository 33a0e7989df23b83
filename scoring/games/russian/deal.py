"""One deal of the Russian game as its sheet gives it, and what settling it gives.

Part of the pure core ``scoring.games.russian`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from events.boards import BoardLayout, Seat
from scoring.games.russian.conventions import Rules
from scoring.games.russian.names import Contract, Defence, Say, read_bid


def _contract(value: object) -> Contract | None:
    if value is None or isinstance(value, Contract):
        return value
    return Contract(str(value))


@dataclass(frozen=True)
class Call:
    """One call of the auction: a bid (``Contract``, never распасы), «here» or «pass»."""

    seat: Seat
    call: Contract | Say

    def __post_init__(self) -> None:
        object.__setattr__(self, "seat", Seat(self.seat))
        if not isinstance(self.call, (Contract, Say)):
            read = read_bid(self.call)
            if read is None:
                raise ValueError(f"{self.call!r} is not a call")
            object.__setattr__(self, "call", read)
        if isinstance(self.call, Contract) and self.call.is_passed:
            raise ValueError("«passed» is no call: a player says «pass»")

    @property
    def bid(self) -> Contract | None:
        return self.call if isinstance(self.call, Contract) else None


@dataclass(frozen=True)
class Deal:
    """One sheet. Any field may be None in a half-read input; :func:`validate` says what
    is missing. ``defenders`` are the decisions after a numeric contract (none for мизер,
    распасы, and a checked 10 unless both «pass»); ``seats`` the three active seats, needed
    when nothing else names them (мизер or распасы with fewer tricks than seats)."""

    contract: Contract | None
    declarer: Seat | None = None
    defenders: Mapping[Seat, Defence] = field(default_factory=dict)
    tricks: Mapping[Seat, int] | None = None
    seats: tuple[Seat, ...] | None = None
    auction: tuple[Call, ...] | None = None
    first_hand: Seat | None = None
    board: BoardLayout | None = None
    rules: Rules = field(default_factory=Rules)
    #: The talon's two cards (``events.cards`` numbers) for a numeric contract or мизер.
    talon: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(self, "contract", _contract(self.contract))
        put(self, "declarer", None if self.declarer is None else Seat(self.declarer))
        put(self, "first_hand", None if self.first_hand is None else Seat(self.first_hand))
        put(self, "defenders", {Seat(k): Defence(v) for k, v in self.defenders.items()})
        if self.tricks is not None:
            put(self, "tricks", {Seat(k): v for k, v in self.tricks.items()})
        if self.seats is not None:
            put(self, "seats", tuple(Seat(s) for s in self.seats))
        if self.auction is not None:
            put(self, "auction", tuple(self.auction))


@dataclass(frozen=True)
class Settlement:
    """What each active seat writes, and the deal's score.

    ``pool`` and ``mountain`` hold every active seat; ``whists`` maps a writer to the
    seats he writes on (only amounts above 0). ``scores`` is the deal's vist balance, exact
    and zero-sum. ``failed`` lists the seats that missed an obligation: a declarer down, a
    whister short, a caught мизер."""

    seats: tuple[Seat, ...]
    pool: dict[Seat, Fraction]
    mountain: dict[Seat, Fraction]
    whists: dict[Seat, dict[Seat, Fraction]]
    failed: tuple[Seat, ...]
    scores: dict[Seat, Fraction]


@dataclass(frozen=True)
class AuctionOutcome:
    declarer: Seat | None  # None: everybody passed (распасы)
    bid: Contract  # the winning bid; PASSED for распасы
