"""The auction: who may say what, and what contract an auction yields.

Part of the pure core ``scoring.games.austrian`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from events.boards import (
    CLOCKWISE,
    Seat,
    clockwise_from,
    inferred_first_hand,
)
from scoring.games.austrian.checks import (
    allowed_trumps,
    reached_level,
)
from scoring.games.austrian.deal import (
    AuctionOutcome,
    Call,
    Deal,
)
from scoring.games.austrian.messages import (
    Problems,
    _said,
)
from scoring.games.austrian.names import (
    _LEVEL_CONTRACT,
    SEED_SUIT_ORDER,
    Bid,
    Contract,
    Suit,
)

# --- Auction ------------------------------------------------------------------------------

_NEW, _NUMBERED, _GAME, _PASSED = "new", "numbered", "game", "passed"


def check_auction(
    calls: Sequence[Call],
    active_seats: Iterable[Seat],
    first_hand: Seat | None = None,
    suit_order: Sequence[Suit] = SEED_SUIT_ORDER,
) -> tuple[AuctionOutcome | None, Problems]:
    """Run an auction by the rules of docs/game.md §2.2 and say what contract it yields.

    The players speak in turn, clockwise from first hand. Rules and our decisions:

    - Numbers rise by one with no jumps, from «раз» to «четыре».
    - A player whose number was outbid (someone named a higher number, or held above it)
      may only pass or hold: he never names a number again (seed: «он может спасовать или
      сказать здесь или держу»). If he cannot hold either (see below), he can only pass.
    - «здесь»/«держу» (hold) equals the highest number. Only a player who has already named a
      number may hold, only a number, and only against a player who spoke *after* him (the
      seed's «first» against «second»; decision: priority is the speaking order from first
      hand, as in the «игра» tie). The player held must then name the next number or pass;
      at «четыре» there is no next number, so he can only pass.
    - A pass is final: the passer is never asked again.
    - «игра» and «червы» only at a player's first turn (who named a number may not bid them).
      A «игра» call's suit is not below the number reached before it (the trump rule of
      docs/game.md §2.3 holds after «игра» too): after «два», not spades (seed order).
    - After «игра» numbers are over: the others, at their first turn, may bid «игра» or
      «червы» or pass; those who named a number can only pass. Decision: each «игра» call
      carries the suit its bidder would play and «игра» bidders do not speak again; the
      highest suit wins, on a tie the earlier speaker. A later «игра» in a lower or equal
      suit is legal (the bidder did not know the other's suit) — it simply loses.
    - «червы» ends the auction at once.
    - The auction ends when every player has passed (passed out), when one player holds the
      highest number and the others have passed, or when every player still in has bid
      «игра»; a shorter record is unfinished, a longer one has calls after the end.

    First hand is ``first_hand`` if known, else the first caller. Returns (outcome, problems);
    the outcome is None when the record breaks a rule (only the first bad call is reported:
    after it the auction has no meaning).
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
    level, owner = 0, None  # the highest number and who holds it
    held: Seat | None = None  # whose bid the last «здесь» held: he names the next or passes
    games: list[tuple[Seat, Suit | None]] = []
    turn = 0  # index in ``order`` of who speaks now
    outcome: AuctionOutcome | None = None

    def priority(seat: Seat) -> int:
        return order.index(seat)

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
            if status[call.seat] == _PASSED:
                problems.add(where, "passed_for_good", seat=call.seat)
            else:
                problems.add(where, "out_of_turn", seat=speaker)
            return None, problems
        bid = call.bid
        if bid is Bid.PASS:
            status[speaker] = _PASSED
        elif bid.level is not None:
            if games:
                problems.add(where, "number_after_game")
                return None, problems
            if status[speaker] == _NUMBERED and speaker is not held:
                # Outbid: only «здесь» or «пас» — and «здесь» only with priority.
                code = (
                    "outbid_number"
                    if priority(speaker) < priority(owner)
                    else ("outbid_number_pass")
                )
                problems.add(where, code, speaker=speaker, seat=owner)
                return None, problems
            if level == 4:
                problems.add(where, "no_number_above_four")
                return None, problems
            if bid.level != level + 1:
                problems.add(where, "numbers_by_one", next=_LEVEL_CONTRACT[level + 1])
                return None, problems
            level, owner, held = bid.level, speaker, None
            status[speaker] = _NUMBERED
        elif bid is Bid.HOLD:
            if status[speaker] != _NUMBERED:
                problems.add(where, "hold_needs_number")
                return None, problems
            if games:
                problems.add(where, "hold_nothing", call=Bid.GAME)
                return None, problems
            if priority(speaker) > priority(owner):
                if speaker is not held:
                    problems.add(where, "outbid_no_hold", speaker=speaker, seat=owner)
                elif level == 4:
                    problems.add(where, "hold_priority_four", speaker=speaker, seat=owner)
                else:
                    nxt = _LEVEL_CONTRACT[level + 1]
                    problems.add(where, "hold_priority", speaker=speaker, seat=owner, next=nxt)
                return None, problems
            owner, held = speaker, owner
        else:  # «игра» or «червы»
            if status[speaker] != _NEW:
                problems.add(where, "no_talon_after_number", call=bid)
                return None, problems
            if bid is Bid.HEARTS:
                outcome = AuctionOutcome(speaker, Contract.HEARTS, Suit.HEARTS)
                continue
            if call.suit is Suit.HEARTS:
                problems.add(f"{where}.suit", "game_in_hearts")
                return None, problems
            allowed = allowed_trumps(Contract.GAME, suit_order, level)
            if call.suit is not None and call.suit not in allowed:
                problems.add(
                    f"{where}.suit",
                    "game_suit_below_level",
                    level=_LEVEL_CONTRACT[level],
                    allowed=allowed,
                )
                return None, problems
            games.append((speaker, call.suit))
            status[speaker] = _GAME
        outcome = _auction_end(status, owner, level, games, suit_order, problems)
        if outcome is None and problems:
            return None, problems
        if outcome is None:
            turn = _next_turn(order, status, turn)
    if outcome is None:
        problems.add("auction", "auction_unfinished", seat=order[turn])
    return outcome, problems


def _next_turn(order: Sequence[Seat], status: Mapping[Seat, str], turn: int) -> int:
    for step in range(1, len(order) + 1):
        candidate = (turn + step) % len(order)
        if status[order[candidate]] in (_NEW, _NUMBERED):
            return candidate
    raise AssertionError("the auction should have ended")  # pragma: no cover


def _auction_end(
    status: Mapping[Seat, str],
    owner: Seat | None,
    level: int,
    games: Sequence[tuple[Seat, Suit | None]],
    suit_order: Sequence[Suit],
    problems: Problems,
) -> AuctionOutcome | None:
    """The outcome if the auction is over now, else None."""
    still_in = [s for s, st in status.items() if st in (_NEW, _NUMBERED)]
    if games:
        if still_in:
            return None
        if len(games) > 1 and any(suit is None for _, suit in games):
            problems.add("auction", "auction_game_suits")
            return None
        # Earlier speakers come first in ``games``: max() keeps the first of equal suits.
        seat, suit = max(games, key=lambda g: suit_order.index(g[1]) if g[1] is not None else -1)
        return AuctionOutcome(seat, Contract.GAME, suit)
    if not still_in:
        return AuctionOutcome(None, Contract.PASSED)
    if still_in == [owner]:
        return AuctionOutcome(owner, _LEVEL_CONTRACT[level])
    return None


def _check_deal_auction(deal: Deal, active: frozenset[Seat] | None, problems: Problems) -> None:
    if deal.auction is None or active is None:
        return
    first = deal.first_hand
    if first is None and deal.board is not None:
        first = deal.board.first_hand
    if first is None:
        first = inferred_first_hand(active)
    if first is not None and first not in active:
        return  # reported by _check_layout
    order = deal.rules.suit_order
    outcome, auction_problems = check_auction(deal.auction, active, first, order)
    problems.merge(auction_problems)
    if outcome is None:
        return
    # A declarer on a passed-out sheet, or a missing one, is its own field's problem
    # (passed_out_field, required): the auction is compared on what is left.
    declarer_differs = (
        deal.contract is not Contract.PASSED
        and deal.declarer is not None
        and outcome.declarer is not deal.declarer
    )
    if outcome.contract is not deal.contract or declarer_differs:
        problems.add(
            "auction",
            "auction_mismatch",
            got=_said(outcome.declarer, outcome.contract),
            entered=_said(deal.declarer, deal.contract),
        )
    elif (
        outcome.contract is Contract.GAME
        and outcome.suit is not None
        and deal.trump is not None
        and outcome.suit is not deal.trump
    ):
        problems.add("auction", "auction_game_trump", suit=outcome.suit, trump=deal.trump)
    elif outcome.contract is Contract.GAME and deal.trump not in (None, Suit.HEARTS):
        reached = reached_level(deal.auction)
        allowed = allowed_trumps(Contract.GAME, order, reached)
        if reached > 1 and deal.trump not in allowed:
            problems.add(
                "trump",
                "game_trump_below_level",
                level=_LEVEL_CONTRACT[reached],
                allowed=allowed,
            )
