"""The auction of the Russian game (docs/game.md §9.2): who may say what, and
who wins with which bid; and how a sheet's declarer and contract agree with it.

Part of the pure core ``scoring.games.russian`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from events.boards import CLOCKWISE, Seat, clockwise_from
from scoring.games.russian.deal import AuctionOutcome, Call, Deal
from scoring.games.russian.messages import Problems, Said
from scoring.games.russian.names import MISERE, PASSED, SIX_SPADES, Contract, Say

_NEW, _BID, _MISERE, _PASSED = "new", "bid", "misere", "passed"


def check_auction(
    calls: Sequence[Call], active_seats: Iterable[Seat], first_hand: Seat | None = None
) -> tuple[AuctionOutcome | None, Problems]:
    """Run an auction and say who wins it with which bid.

    - The three active seats speak in turn, clockwise from first hand (``first_hand`` if
      known, else the first caller). A pass is final.
    - Each bid is higher than the highest so far (6♠ … 8БК, мизер, 9♠ … 10БК), except
      «здесь» (``here``): a player who has bid, senior to the holder of the highest bid
      (earlier in the order from first hand), equals it; the junior must then bid higher
      or pass. Not at 6♠ and not at мизер (the note's decision, after the club rules).
    - Мизер only as a player's first call; after it he may only pass.
    - Everybody passes at his first word → распасы. Otherwise the auction ends when all but
      the holder of the highest bid have passed; a shorter record is unfinished, a longer
      one has calls after the end.

    Returns (outcome, problems); the outcome is None when the record breaks a rule (only the
    first bad call is reported: after it the auction has no meaning).
    """
    problems = Problems()
    active = set(active_seats)
    calls = list(calls)
    if not calls:
        first = first_hand or min(active, key=CLOCKWISE.index)
        problems.add("auction", "auction_unfinished", seat=first)
        return None, problems
    if first_hand is not None and calls[0].seat is not first_hand:
        problems.add("auction.0", "auction_first_hand", seat=first_hand)
        return None, problems
    first = first_hand or calls[0].seat
    if first not in active:
        problems.add("auction.0", "seat_not_active", seat=first)
        return None, problems
    order = clockwise_from(first, active)
    status = dict.fromkeys(order, _NEW)
    highest: Contract | None = None
    holder: Seat | None = None
    turn = 0
    outcome: AuctionOutcome | None = None
    for i, call in enumerate(calls):
        where = f"auction.{i}"
        if outcome is not None:
            problems.add(where, "auction_over")
            return None, problems
        speaker = order[turn]
        if call.seat not in active:
            problems.add(where, "seat_not_active", seat=call.seat)
            return None, problems
        if call.seat is not speaker:
            code = "passed_for_good" if status[call.seat] == _PASSED else "out_of_turn"
            problems.add(where, code, seat=call.seat if code == "passed_for_good" else speaker)
            return None, problems
        code, params = _refusal(call, status[speaker], highest, holder, order)
        if code is not None:
            problems.add(where, code, **params)
            return None, problems
        if call.call is Say.PASS:
            status[speaker] = _PASSED
        elif call.call is Say.HERE:
            holder = speaker
        else:
            highest, holder = call.bid, speaker
            status[speaker] = _MISERE if call.bid.is_misere else _BID
        still_in = [s for s in order if status[s] != _PASSED]
        if not still_in:
            outcome = AuctionOutcome(None, PASSED)
        elif still_in == [holder]:
            outcome = AuctionOutcome(holder, highest)
        else:
            turn = next(
                (turn + step) % len(order)
                for step in range(1, len(order) + 1)
                if status[order[(turn + step) % len(order)]] != _PASSED
            )
    if outcome is None:
        problems.add("auction", "auction_unfinished", seat=order[turn])
    return outcome, problems


def _refusal(
    call: Call,
    status: str,
    highest: Contract | None,
    holder: Seat | None,
    order: Sequence[Seat],
) -> tuple[str | None, dict[str, object]]:
    """Why ``call`` may not be said now (a message code and its parameters), else None."""
    if call.call is Say.PASS:
        return None, {}
    if status == _MISERE:
        return "misere_then_pass", {"seat": call.seat}
    if call.call is Say.HERE:
        if highest is None:
            return "here_nothing", {}
        if status != _BID:
            return "here_needs_bid", {}
        if highest in (SIX_SPADES, MISERE):
            return "here_not_at", {"bid": highest}
        if order.index(call.seat) > order.index(holder):
            return "here_junior", {"seat": holder, "speaker": call.seat}
        return None, {}
    bid = call.bid
    if bid.is_misere and status != _NEW:
        return "misere_first", {}
    if highest is not None and bid.rank <= highest.rank:
        return "bid_low", {"bid": highest}
    return None, {}


def check_deal_auction(
    deal: Deal, active: frozenset[Seat] | None, first: Seat | None, problems: Problems
) -> None:
    """The sheet's auction record, if any, run and compared with its declarer and contract:
    the winner declares; a мизер winner plays мизер; a numeric winner orders a contract not
    lower than his winning bid (a higher one is allowed) and never мизер; распасы when all
    passed."""
    if deal.auction is None or active is None or deal.contract is None:
        return
    outcome, found = check_auction(deal.auction, active, first)
    problems.merge(found)
    if outcome is None:
        return
    contract = deal.contract
    if outcome.bid.is_passed or contract.is_passed:
        if outcome.bid.is_passed is not contract.is_passed:
            problems.add(
                "auction",
                "auction_mismatch",
                got=Said(outcome.declarer, outcome.bid),
                entered=Said(deal.declarer, contract),
            )
        return
    if deal.declarer is not None and deal.declarer is not outcome.declarer:
        problems.add(
            "auction",
            "auction_mismatch",
            got=Said(outcome.declarer, outcome.bid),
            entered=Said(deal.declarer, contract),
        )
    elif outcome.bid.is_misere and not contract.is_misere:
        problems.add("contract", "auction_plays_misere", seat=outcome.declarer)
    elif not outcome.bid.is_misere and contract.is_misere:
        problems.add("contract", "auction_no_misere", seat=outcome.declarer, bid=outcome.bid)
    elif contract.rank < outcome.bid.rank:
        problems.add("contract", "auction_contract_low", bid=outcome.bid)
