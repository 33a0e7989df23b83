"""Validation of a whole deal, its stake and its settlement; numbers on the way out.

Part of the pure core ``scoring.games.austrian`` (see its package docstring)."""

from __future__ import annotations

from fractions import Fraction

from events.boards import (
    Seat,
    clockwise_from,
)
from scoring.games.austrian.auction import (
    _check_deal_auction,
)
from scoring.games.austrian.checks import (
    _check_contract,
    _check_defence,
    _check_passed_out,
    _check_rules,
    _check_seats,
    _check_tricks,
    _in_order,
)
from scoring.games.austrian.deal import (
    Deal,
    Settlement,
)
from scoring.games.austrian.event_rules import (
    FixedPot,
    RunningPot,
)
from scoring.games.austrian.messages import (
    InvalidInput,
    Problems,
    number,
)
from scoring.games.austrian.names import (
    Contract,
    Defence,
    Suit,
)

# --- Validation and settlement ------------------------------------------------------------


def _active_of(deal: Deal) -> frozenset[Seat] | None:
    if deal.contract is Contract.PASSED:
        if deal.seats is not None and len(set(deal.seats)) == 3 and len(deal.seats) == 3:
            return frozenset(deal.seats)
        return frozenset(deal.board.active_seats) if deal.board is not None else None
    if deal.declarer is None or len(deal.defenders) != 2 or deal.declarer in deal.defenders:
        return None
    return frozenset({deal.declarer, *deal.defenders})


def validate(deal: Deal) -> Problems:
    """Every rule the deal breaks (empty :class:`Problems` when it is a valid deal)."""
    problems = Problems()
    _check_rules(deal.rules, problems)
    if deal.contract is None:
        problems.add("contract", "required")
        return problems
    if deal.contract is Contract.PASSED:
        active = _check_passed_out(deal, problems)
    else:
        _check_contract(deal, problems)
        active = _check_seats(deal, problems)
        _check_defence(deal, problems)
        _check_tricks(deal, active, problems)
    _check_deal_auction(deal, active, problems)
    if deal.talon is not None and deal.contract.level is None:
        problems.add("talon", "talon_no_talon", contract=deal.contract)
    return problems


def stake_of(deal: Deal) -> Fraction:
    """A, the amount at stake: the fixed stake; min(pot, limit) or the whole running pot; or
    the trump's stake. Nothing is at stake in a passed-out deal."""
    pot = deal.rules.pot
    if deal.contract is Contract.PASSED:
        return Fraction(0)
    if isinstance(pot, FixedPot):
        return pot.stake
    if isinstance(pot, RunningPot):
        return pot.pot_before if pot.limit is None else min(pot.pot_before, pot.limit)
    trump = Suit.HEARTS if deal.contract is Contract.HEARTS else deal.trump
    return pot.stakes[trump]


def settle(deal: Deal) -> Settlement:
    """Who receives what. Raises :class:`InvalidInput` if the deal breaks a rule.

    - Every player who took part in the play (declarer, whisting defenders, an invited
      defender) receives A/10 per trick; both defenders passed → the declarer receives A.
    - Every player who fails his obligation pays A, even when the declarer failed too:
      declarer < 6 tricks; a whisting defender < 2 (decision: also when he whists alone
      without inviting); an inviter whose side took < 4 — this replaces his own 2 (the
      inviter «answers for all 4 defensive tricks»). Nobody pays A twice.
    - A passer who was not invited scores 0; a passed-out deal: everyone 0.
    - Running pot: pot_after = pot − A + A × failures (passed out: unchanged).
    """
    problems = validate(deal)
    if problems:
        raise InvalidInput(problems)
    return _settle_valid(deal)


def _settle_valid(deal: Deal) -> Settlement:
    pot = deal.rules.pot
    pot_before = pot.pot_before if isinstance(pot, RunningPot) else None
    if deal.contract is Contract.PASSED:
        active = _active_of(deal) or frozenset()
        scores = {seat: Fraction(0) for seat in _in_order(active)}
        return Settlement(Fraction(0), scores, (), pot_before)
    stake = stake_of(deal)
    declarer = deal.declarer
    # The defender on the declarer's left speaks first.
    defenders = clockwise_from(declarer, {declarer, *deal.defenders})[1:]
    decisions = deal.defenders
    whisters = [s for s in defenders if decisions[s] is Defence.WHIST]
    scores: dict[Seat, Fraction] = {declarer: Fraction(0)} | {s: Fraction(0) for s in defenders}
    failed: list[Seat] = []
    if not whisters:
        scores[declarer] = stake
    else:
        tricks = deal.tricks or {}
        per_trick = stake / 10
        invited = [s for s in defenders if decisions[s] is Defence.INVITED]
        for seat in (declarer, *whisters, *invited):
            scores[seat] = per_trick * tricks.get(seat, 0)
        if tricks.get(declarer, 0) < 6:
            failed.append(declarer)
        if invited:
            (inviter,) = whisters
            if tricks.get(inviter, 0) + tricks.get(invited[0], 0) < 4:
                failed.append(inviter)
        else:
            failed.extend(s for s in whisters if tricks.get(s, 0) < 2)
        for seat in failed:
            scores[seat] -= stake
    pot_after = None if pot_before is None else pot_before - stake + stake * len(failed)
    return Settlement(stake, scores, tuple(failed), pot_after)


# --- Numbers out --------------------------------------------------------------------------


def settlement_json(settlement: Settlement) -> dict[str, object]:
    """``{"scores": {...}, "failed": [...]}`` plus ``"pot_after"`` for a running pot."""
    answer: dict[str, object] = {
        "scores": {seat.value: number(v) for seat, v in settlement.scores.items()},
        "failed": [seat.value for seat in settlement.failed],
    }
    if settlement.pot_after is not None:
        answer["pot_after"] = number(settlement.pot_after)
    return answer
