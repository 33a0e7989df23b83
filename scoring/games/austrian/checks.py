"""Checks of the contract, the seats, the defence and the tricks of one deal.

Part of the pure core ``scoring.games.austrian`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from events.boards import (
    CLOCKWISE,
    Seat,
    inferred_first_hand,
)
from scoring.games.austrian.deal import (
    Call,
    Deal,
)
from scoring.games.austrian.event_rules import (
    FixedPot,
    Rules,
    RunningPot,
    TrumpPot,
)
from scoring.games.austrian.messages import (
    _PASSED_OUT_FIELDS,
    Problems,
)
from scoring.games.austrian.names import (
    SEED_SUIT_ORDER,
    Contract,
    Defence,
    Suit,
)

# --- Contract -----------------------------------------------------------------------------


def allowed_trumps(
    contract: Contract, suit_order: Sequence[Suit] = SEED_SUIT_ORDER, reached: int = 0
) -> tuple[Suit, ...]:
    """The trumps a contract allows, low to high: a numeric one «not lower than the level»
    (rank ≥ level in ``suit_order``), «игра» any but hearts, «червы» hearts only.

    ``reached`` is the highest number named in the auction, when it is known. The trump
    rule holds «после покупки (если таковая была)», so for «игра» too: «игра» after «два»
    is in a suit of rank ≥ 2 that is not hearts (seed order: clubs or diamonds)."""
    if contract is Contract.HEARTS:
        return (Suit.HEARTS,)
    if contract is Contract.GAME:
        return tuple(s for s in suit_order[max(reached, 1) - 1 :] if s is not Suit.HEARTS)
    level = contract.level
    if level is None:
        return ()
    return tuple(suit_order[max(level, reached) - 1 :])


def reached_level(calls: Iterable[Call]) -> int:
    """The highest number named in an auction (0 when nobody named one)."""
    return max((call.bid.level or 0 for call in calls), default=0)


def _check_contract(deal: Deal, problems: Problems) -> None:
    contract, trump = deal.contract, deal.trump
    if deal.declarer is None:
        problems.add("declarer", "required")
    if contract is Contract.HEARTS:
        if trump is not None and trump is not Suit.HEARTS:
            problems.add("trump", "hearts_trump")
        return
    if trump is None:
        problems.add("trump", "trump_required")
    elif contract is Contract.GAME:
        if trump is Suit.HEARTS:
            problems.add("trump", "game_in_hearts")
    elif trump not in allowed_trumps(contract, deal.rules.suit_order):
        problems.add(
            "trump",
            "trump_below_level",
            level=contract,
            allowed=allowed_trumps(contract, deal.rules.suit_order),
        )


def _check_rules(rules: Rules, problems: Problems) -> None:
    order = tuple(rules.suit_order)
    if len(order) != 4 or set(order) != set(Suit):
        problems.add("rules.suit_order", "suit_order")
    pot = rules.pot
    if isinstance(pot, FixedPot):
        if pot.stake <= 0:
            problems.add("rules.stake", "positive")
    elif isinstance(pot, RunningPot):
        if pot.pot_before < 0:
            problems.add("rules.pot_before", "amount")
        if pot.limit is not None and pot.limit <= 0:
            problems.add("rules.limit", "positive")
        if pot.ante < 0:
            problems.add("rules.ante", "amount")
    elif isinstance(pot, TrumpPot):
        for suit in Suit:
            if suit not in pot.stakes:
                problems.add(f"rules.stakes.{suit}", "required")
            elif pot.stakes[suit] <= 0:
                problems.add(f"rules.stakes.{suit}", "positive")


# --- Seats, defence, tricks ---------------------------------------------------------------


def _check_seat_list(seats: Sequence[Seat], problems: Problems) -> frozenset[Seat] | None:
    if len(seats) != 3 or len(set(seats)) != 3:
        problems.add("seats", "seats_count")
        return None
    return frozenset(seats)


def _check_layout(deal: Deal, active: frozenset[Seat] | None, problems: Problems) -> None:
    """The board (if given) and the first hand agree with the active seats."""
    if active is None:
        return
    if deal.board is not None and set(deal.board.active_seats) != active:
        problems.add("board", "board_seats", seats=_in_order(deal.board.active_seats))
    if deal.first_hand is not None:
        inferred = inferred_first_hand(active)
        if deal.first_hand not in active:
            problems.add("first_hand", "first_hand_inactive")
        elif inferred is not None and deal.first_hand is not inferred:
            problems.add("first_hand", "first_hand_dealer_left", seat=inferred)
        elif deal.board is not None and deal.first_hand is not deal.board.first_hand:
            problems.add("first_hand", "first_hand_dealer_left", seat=deal.board.first_hand)


def _in_order(seats: Iterable[Seat]) -> tuple[Seat, ...]:
    chosen = set(seats)
    return tuple(s for s in CLOCKWISE if s in chosen)


def _check_seats(deal: Deal, problems: Problems) -> frozenset[Seat] | None:
    """Declarer and two defenders: three different seats. Returns them (None if broken)."""
    declarer, defenders = deal.declarer, deal.defenders
    active: frozenset[Seat] | None = None
    if not defenders:
        problems.add("defenders", "defenders_required")
    elif len(defenders) != 2:
        problems.add("defenders", "defenders_count", count=len(defenders))
    if declarer is not None and declarer in defenders:
        problems.add(f"defenders.{declarer}", "declarer_defends")
    if declarer is not None and len(defenders) == 2 and declarer not in defenders:
        active = frozenset({declarer, *defenders})
    if deal.seats is not None:
        listed = _check_seat_list(deal.seats, problems)
        if listed is not None and active is not None and listed != active:
            problems.add("seats", "seats_mismatch", seats=_in_order(active))
    _check_layout(deal, active, problems)
    return active


def _check_defence(deal: Deal, problems: Problems) -> None:
    """«Invited» is a passer whom the other defender, a whister, invited. So it needs the
    other defender to whist; two «invited» or «invited» with «pass» are refused."""
    whisters = [s for s, d in deal.defenders.items() if d is Defence.WHIST]
    for seat, decision in deal.defenders.items():
        if decision is Defence.INVITED and [w for w in whisters if w is not seat] == []:
            problems.add(f"defenders.{seat}", "invite_needs_whist")


def _check_tricks(deal: Deal, active: frozenset[Seat] | None, problems: Problems) -> None:
    decisions = deal.defenders
    no_play = len(decisions) == 2 and all(d is Defence.PASS for d in decisions.values())
    tricks = deal.tricks
    if tricks is None:
        if not no_play:
            problems.add("tricks", "tricks_required")
        return
    broken = False
    for seat, count in tricks.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            problems.add(f"tricks.{seat}", "trick_count")
            broken = True
        elif active is not None and seat not in active:
            problems.add(f"tricks.{seat}", "seat_not_active", seat=seat)
            broken = True
    if active is None or broken:
        return
    if no_play:
        if tricks.get(deal.declarer, 10) != 10 or any(tricks.get(s, 0) != 0 for s in decisions):
            problems.add("tricks", "no_play_tricks")
        return
    # A passer who was not invited may be left out: he takes none.
    passers = [s for s, d in decisions.items() if d is Defence.PASS]
    for seat in sorted(active - set(passers) - set(tricks), key=CLOCKWISE.index):
        problems.add(f"tricks.{seat}", "tricks_missing")
        broken = True
    for seat in passers:
        if tricks.get(seat, 0) != 0:
            problems.add(f"tricks.{seat}", "passer_takes_none")
    total = sum(tricks.values())
    if not broken and total != 10:
        problems.add("tricks", "tricks_sum", total=total)


def _check_passed_out(deal: Deal, problems: Problems) -> frozenset[Seat] | None:
    for name, value in (
        ("declarer", deal.declarer),
        ("trump", deal.trump),
        ("defenders", deal.defenders or None),
        ("tricks", deal.tricks),
    ):
        if value is not None:
            problems.add(name, "passed_out_field", what=_PASSED_OUT_FIELDS[name])
    active: frozenset[Seat] | None = None
    if deal.seats is not None:
        active = _check_seat_list(deal.seats, problems)
    elif deal.board is not None:
        active = frozenset(deal.board.active_seats)
    else:
        problems.add("seats", "seats_required")
    _check_layout(deal, active, problems)
    return active
