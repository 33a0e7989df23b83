"""The check of one Russian sheet (docs/game.md §9.3 and §9.4): the
active seats, the defenders' decisions the rules allow, the tricks the outcome needs, the
board and first hand, the talon, and the auction record when there is one.

Part of the pure core ``scoring.games.russian`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum

from events.boards import CLOCKWISE, Seat, clockwise_from, inferred_first_hand
from scoring.games.russian.auction import check_deal_auction
from scoring.games.russian.deal import Deal
from scoring.games.russian.messages import Problems
from scoring.games.russian.names import HALF_LEVELS, SIX_SPADES, Defence


class Outcome(StrEnum):
    """What kind of deal a sheet records: it decides who writes what and which tricks the
    sheet needs."""

    ALL_PASS = "all-pass"  # распасы: every seat's tricks
    MISERE = "misere"  # the declarer's tricks (the others' optional, all or none)
    CHECKED_TEN = "checked-ten"  # the same
    BOTH_PASS = "both-pass"  # not played, counts as made: no tricks
    HALF = "half"  # полвиста: not played, no tricks
    PLAYED = "played"  # a numeric contract whisted: the declarer's and each whister's


def outcome_of(deal: Deal) -> Outcome | None:
    """The sheet's kind of deal, as far as its contract and decisions tell it."""
    contract = deal.contract
    if contract is None:
        return None
    if contract.is_passed:
        return Outcome.ALL_PASS
    if contract.is_misere:
        return Outcome.MISERE
    if contract.level == 10 and deal.rules.ten_checked:
        return Outcome.CHECKED_TEN
    decisions = list(deal.defenders.values())
    if Defence.HALF in decisions:
        return Outcome.HALF
    if len(decisions) == 2 and all(d is Defence.PASS for d in decisions):
        return Outcome.BOTH_PASS
    return Outcome.PLAYED


def in_order(seats: Iterable[Seat], first: Seat | None = None) -> tuple[Seat, ...]:
    """``seats`` clockwise from ``first`` (from W when None)."""
    chosen = set(seats)
    if first is not None and first in chosen:
        return clockwise_from(first, chosen)
    return tuple(s for s in CLOCKWISE if s in chosen)


def first_hand_of(deal: Deal, active: Iterable[Seat] | None) -> Seat | None:
    """First hand: the sheet's, the board's, or what the active seats tell (None when they
    do not: a 3-seat table, or W dealing at a 4-seat one)."""
    if deal.first_hand is not None:
        return deal.first_hand
    if deal.board is not None:
        return deal.board.first_hand
    return None if active is None else inferred_first_hand(active)


def defence_order(deal: Deal, active: Iterable[Seat]) -> tuple[Seat, Seat]:
    """The two defenders in the order they decide: the declarer's left first."""
    first, second = clockwise_from(deal.declarer, active)[1:]
    return first, second


def validate(deal: Deal) -> Problems:
    """Every rule the sheet breaks (empty :class:`Problems` when it is a valid deal)."""
    return checked(deal)[0]


def checked(deal: Deal) -> tuple[Problems, frozenset[Seat] | None, Outcome | None]:
    """:func:`validate`'s problems, with the active seats and the outcome it found (the
    settlement of a valid sheet starts from them instead of finding them again)."""
    problems = Problems()
    if deal.contract is None:
        problems.add("contract", "required")
        return problems, None, None
    active = check_seats(deal, problems)
    outcome = outcome_of(deal)
    if _check_defence(deal, active, problems):
        _check_tricks(deal, active, outcome, problems)
    _check_layout(deal, active, problems)
    first = first_hand_of(deal, active)
    if active is None or first is None or first in active:  # else _check_layout said so
        check_deal_auction(deal, active, first, problems)
    if deal.talon is not None and deal.contract.is_passed:
        problems.add("talon", "passed_talon")
    return problems, active, outcome


def check_seats(deal: Deal, problems: Problems) -> frozenset[Seat] | None:
    """The three active seats (None when the sheet does not tell them), its problems noted.

    A numeric contract's declarer and two defenders name them; else ``seats``, the board,
    or the tricks when they name three seats (распасы, and a мизер or checked 10 with every
    seat's tricks)."""
    contract, declarer, defenders = deal.contract, deal.declarer, deal.defenders
    if contract.is_passed:
        if declarer is not None:
            problems.add("declarer", "passed_declarer")
        if defenders:
            problems.add("defenders", "passed_defenders")
    elif declarer is None:
        problems.add("declarer", "required")
    if contract.is_misere and defenders:
        problems.add("defenders", "misere_defenders")
    listed = None
    if deal.seats is not None:
        if len(deal.seats) != 3 or len(set(deal.seats)) != 3:
            problems.add("seats", "seats_count")
        else:
            listed = frozenset(deal.seats)
    named, broken = None, False
    checked_ten = contract.level == 10 and deal.rules.ten_checked
    if contract.is_numeric and (defenders or not checked_ten):
        if len(defenders) != 2:
            if defenders:
                problems.add("defenders", "defenders_count", count=len(defenders))
            else:
                problems.add("defenders", "defenders_required")
            broken = True
        if declarer is not None and declarer in defenders:
            problems.add(f"defenders.{declarer}", "declarer_defends")
            broken = True
        elif declarer is not None and len(defenders) == 2:
            named = frozenset({declarer, *defenders})
    active = None
    if named is not None:
        active = named
        if listed is not None and listed != named:
            problems.add("seats", "seats_mismatch", seats=in_order(named))
    elif listed is not None:
        active = listed
    elif deal.board is not None:
        active = frozenset(deal.board.active_seats)
    elif (
        deal.tricks is not None
        and len(deal.tricks) == 3
        and (declarer in deal.tricks or contract.is_passed)
    ):
        active = frozenset(deal.tricks)
    elif deal.seats is None and not broken and not (contract.is_numeric and defenders):
        # A numeric contract's seats are the declarer's and the defenders': their own
        # problems are reported.
        problems.add("seats", "seats_needed")
    if active is not None and declarer is not None and declarer not in active:
        problems.add("declarer", "seat_not_active", seat=declarer)
        return None
    return active


def _check_defence(deal: Deal, active: frozenset[Seat] | None, problems: Problems) -> bool:
    """The decisions the rules allow; True when the outcome is known (the tricks can then
    be checked against it)."""
    contract, defenders = deal.contract, deal.defenders
    if not contract.is_numeric:
        return not (defenders and (contract.is_passed or contract.is_misere))
    if deal.declarer is None or active is None:
        return False
    if contract.level == 10 and deal.rules.ten_checked:
        refused = [s for s, d in defenders.items() if d is not Defence.PASS]
        for seat in in_order(refused):
            problems.add(f"defenders.{seat}", "checked_ten")
        return not refused
    if len(defenders) != 2 or deal.declarer in defenders:
        return False
    first, second = defence_order(deal, active)
    said = {first: defenders[first], second: defenders[second]}
    refused: set[Seat] = set()
    if said[first] is Defence.HALF:
        problems.add(f"defenders.{first}", "half_second", seat=first)
        refused.add(first)
    if said[second] is Defence.HALF:
        if contract.level not in HALF_LEVELS:
            problems.add(f"defenders.{second}", "half_level")
            refused.add(second)
        elif said[first] is Defence.WHIST:
            problems.add(f"defenders.{second}", "half_after_pass", seat=first)
            refused.add(second)
    if deal.rules.stalingrad and contract == SIX_SPADES:
        for seat in (first, second):
            if said[seat] is not Defence.WHIST and seat not in refused:
                problems.add(f"defenders.{seat}", "stalingrad")
                refused.add(seat)
    return not refused


def _needed(deal: Deal, active: frozenset[Seat], outcome: Outcome) -> tuple[set[Seat], bool]:
    """(the seats whose tricks the sheet must give, whether the given ones add up to 10)."""
    tricks = deal.tricks or {}
    if outcome is Outcome.ALL_PASS:
        return set(active), True
    if outcome in (Outcome.MISERE, Outcome.CHECKED_TEN):
        # The declarer's alone is enough; given more, every seat's.
        everyone = len(tricks) > 1 or deal.declarer not in tricks
        return (set(active) if everyone else {deal.declarer}), everyone
    # A lone whister plays both defending hands: the passer's tricks are his, and the
    # sheet may give them (the passer's hand) or leave them out (0).
    whisters = {s for s, d in deal.defenders.items() if d is Defence.WHIST}
    return {deal.declarer, *whisters}, True


def _check_tricks(
    deal: Deal, active: frozenset[Seat] | None, outcome: Outcome, problems: Problems
) -> None:
    tricks = deal.tricks
    if outcome in (Outcome.BOTH_PASS, Outcome.HALF):
        if tricks:
            code = "both_pass_tricks" if outcome is Outcome.BOTH_PASS else "half_tricks"
            problems.add("tricks", code)
        return
    if tricks is None:
        problems.add("tricks", "tricks_required")
        return
    broken = _check_counts(tricks, active, problems)
    if active is None or broken:
        return
    needed, add_up = _needed(deal, active, outcome)
    missing = in_order(needed - set(tricks))
    for seat in missing:
        problems.add(f"tricks.{seat}", "tricks_missing")
    total = sum(tricks.values())
    if not missing and add_up and total != 10:
        problems.add("tricks", "tricks_sum", total=total)


def _check_counts(
    tricks: Mapping[Seat, int], active: frozenset[Seat] | None, problems: Problems
) -> bool:
    broken = False
    for seat, count in tricks.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            problems.add(f"tricks.{seat}", "trick_count")
        elif count > 10:
            problems.add(f"tricks.{seat}", "tricks_max")
        elif active is not None and seat not in active:
            problems.add(f"tricks.{seat}", "seat_not_active", seat=seat)
        else:
            continue
        broken = True
    return broken


def _check_layout(deal: Deal, active: frozenset[Seat] | None, problems: Problems) -> None:
    """The board (if given) and the first hand agree with the active seats."""
    if active is None:
        return
    if deal.board is not None and set(deal.board.active_seats) != active:
        problems.add("board", "board_seats", seats=in_order(deal.board.active_seats))
    if deal.first_hand is not None:
        inferred = inferred_first_hand(active)
        if deal.first_hand not in active:
            problems.add("first_hand", "first_hand_inactive")
        elif inferred is not None and deal.first_hand is not inferred:
            problems.add("first_hand", "first_hand_dealer_left", seat=inferred)
        elif deal.board is not None and deal.first_hand is not deal.board.first_hand:
            problems.add("first_hand", "first_hand_dealer_left", seat=deal.board.first_hand)
