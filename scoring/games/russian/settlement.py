"""What each seat writes in one deal — пуля, гора, висты — and the deal's score, its vist
balance (docs/game.md §9.4 and §9.6).

Every amount is exact (``fractions.Fraction``); the balance's thirds are rounded only on
the way out (:func:`score_number`).

Part of the pure core ``scoring.games.russian`` (see its package docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from events.boards import Seat
from scoring.games.russian.checks import (
    Outcome,
    check_seats,
    checked,
    defence_order,
    first_hand_of,
    in_order,
    outcome_of,
)
from scoring.games.russian.conventions import Convention, Rules
from scoring.games.russian.deal import Deal, Settlement
from scoring.games.russian.messages import InvalidInput, Problems
from scoring.games.russian.names import HALF_LEVELS, Contract, Defence

#: Ростов's распасы: whists per trick the fewest write on each other player.
ROSTOV_WHISTS_PER_TRICK = 5


def settle(deal: Deal) -> Settlement:
    """Who writes what, and the deal's score. Raises :class:`InvalidInput` if the sheet
    breaks a rule."""
    problems, active, outcome = checked(deal)
    if problems:
        raise InvalidInput(problems)
    return settle_valid(deal, active=active, outcome=outcome)


class _Sheet:
    """The three seats' пуля, гора and висты as they are written."""

    def __init__(self, seats: Sequence[Seat]) -> None:
        self.seats = tuple(seats)
        # Whole numbers while they are (with the note's prices every amount is): ints add
        # fast, and a Fraction's arithmetic is most of a deal's time.
        self.pool: dict[Seat, Fraction | int] = dict.fromkeys(self.seats, 0)
        self.mountain: dict[Seat, Fraction | int] = dict.fromkeys(self.seats, 0)
        self.whists: dict[Seat, dict[Seat, Fraction | int]] = {s: {} for s in seats}
        self.failed: list[Seat] = []

    def write(self, writer: Seat, on: Seat, amount: Fraction | int) -> None:
        if amount:
            self.whists[writer][on] = self.whists[writer].get(on, 0) + _whole(amount)

    def fail(self, seat: Seat) -> None:
        if seat not in self.failed:
            self.failed.append(seat)


def settle_valid(
    deal: Deal, *, active: frozenset[Seat] | None = None, outcome: Outcome | None = None
) -> Settlement:
    """:func:`settle` of a sheet already checked (``active``, ``outcome``: as its check
    found them, else found again)."""
    if active is None:
        active = check_seats(deal, Problems())
    if outcome is None:
        outcome = outcome_of(deal)
    rules = deal.rules
    start = deal.declarer if deal.declarer is not None else first_hand_of(deal, active)
    sheet = _Sheet(in_order(active, start))
    tricks = deal.tricks or {}
    if outcome is Outcome.ALL_PASS:
        _all_pass(sheet, tricks, rules)
    elif outcome is Outcome.MISERE:
        _misere(sheet, deal.declarer, tricks[deal.declarer], rules)
    elif outcome is Outcome.CHECKED_TEN:
        _checked_ten(sheet, deal.declarer, tricks[deal.declarer], rules)
    else:
        _numeric(sheet, deal, outcome, defence_order(deal, active))
    # Every seat in the order of the sheet, the failed ones in the speaking order.
    failed = tuple(s for s in sheet.seats if s in sheet.failed)
    scores = balance(sheet.pool, sheet.mountain, sheet.whists, rules)
    whists = {s: dict(on) for s, on in sheet.whists.items() if on}
    return Settlement(sheet.seats, sheet.pool, sheet.mountain, whists, failed, scores)


def _numeric(sheet: _Sheet, deal: Deal, outcome: Outcome, defenders: tuple[Seat, Seat]) -> None:
    contract: Contract = deal.contract
    declarer = deal.declarer
    p, m, r = contract.price, deal.rules.m, deal.rules.r
    if outcome is Outcome.BOTH_PASS:
        sheet.pool[declarer] += p
        return
    if outcome is Outcome.HALF:
        sheet.pool[declarer] += p
        (half,) = [s for s in defenders if deal.defenders[s] is Defence.HALF]
        sheet.write(half, declarer, contract.half_norm * p * m)
        return
    tricks = deal.tricks
    whisters = [s for s in defenders if deal.defenders[s] is Defence.WHIST]
    passers = [s for s in defenders if s not in whisters]
    defence = 10 - tricks[declarer]
    # A lone whister plays both hands («жлобский вист»): all the defence's tricks are his.
    own = {w: defence if len(whisters) == 1 else tricks[w] for w in whisters}
    level = contract.level
    if tricks[declarer] >= level:
        sheet.pool[declarer] += p
        for w in whisters:
            sheet.write(w, declarer, own[w] * p * m)
        for w, missed in misses(level, own).items():
            sheet.mountain[w] += _whole(missed * p * m * r)
            sheet.fail(w)
        return
    down = level - tricks[declarer]
    sheet.mountain[declarer] += down * p * m
    sheet.fail(declarer)
    for w in whisters:
        sheet.write(w, declarer, own[w] * p * m + down * p * m)
    for other in passers:  # консоляция
        sheet.write(other, declarer, down * p * m)


def misses(level: int, own: Mapping[Seat, int]) -> dict[Seat, int]:
    """The tricks each whister is short of the norm, on a contract made (``own``: each
    whister's tricks, a lone whister's being all the defence's).

    - The defence took its norm n (the pair's): nobody misses.
    - A lone whister misses n − the defence's tricks.
    - Two whisters at 6 or 7: each below his half misses half − his tricks (the note's
      decision: 3 + 0 on a six costs the second 2, 2 + 1 costs him 1, 1 + 1 each 1).
    - Two whisters at 8, 9, 10 (the pair took nothing): each misses 1 (ФСПР).
    """
    norm = Contract(f"{level}S").norm
    if sum(own.values()) >= norm:
        return {}
    if len(own) == 1:
        ((whister, took),) = own.items()
        return {whister: norm - took}
    if level in HALF_LEVELS:
        half = norm // 2
        return {w: half - took for w, took in own.items() if took < half}
    return dict.fromkeys(own, 1)


def _misere(sheet: _Sheet, declarer: Seat, took: int, rules: Rules) -> None:
    if took == 0:
        sheet.pool[declarer] += Contract("misere").price
    else:
        sheet.mountain[declarer] += Contract("misere").price * took * rules.m
        sheet.fail(declarer)


def _checked_ten(sheet: _Sheet, declarer: Seat, took: int, rules: Rules) -> None:
    p = Contract("10S").price
    down = 10 - took
    if down == 0:
        sheet.pool[declarer] += p
        return
    sheet.mountain[declarer] += down * p * rules.m
    sheet.fail(declarer)
    for other in sheet.seats:
        if other is not declarer:
            sheet.write(other, declarer, down * p * rules.m)


def _all_pass(sheet: _Sheet, tricks: Mapping[Seat, int], rules: Rules) -> None:
    """Each board a first распасы: no progression, no exit rule (every table must score
    the same board alike)."""
    if rules.game is Convention.ROSTOV:
        fewest = min(tricks[s] for s in sheet.seats)
        for low in (s for s in sheet.seats if tricks[s] == fewest):
            for other in (s for s in sheet.seats if tricks[s] > fewest):
                sheet.write(low, other, ROSTOV_WHISTS_PER_TRICK * tricks[other])
        for seat in sheet.seats:
            if tricks[seat] == 0:
                sheet.pool[seat] += 1
        return
    unit = 2 if rules.game is Convention.LENINGRAD else 1
    for seat in sheet.seats:
        if tricks[seat] == 0:
            sheet.pool[seat] += unit
        else:
            sheet.mountain[seat] += unit * tricks[seat]


def balance(
    pool: Mapping[Seat, Fraction],
    mountain: Mapping[Seat, Fraction],
    whists: Mapping[Seat, Mapping[Seat, Fraction]],
    rules: Rules,
) -> dict[Seat, Fraction]:
    """The deal's vist balance («по средней горе»), exact and zero-sum:

    score(X) = k_p·(pool(X) − mean pool) − k_m·(mountain(X) − mean mountain)
               + Σ whists X wrote on others − Σ whists others wrote on X
    """
    # Counted in n-ths (n the seats) with whole numbers where the amounts are whole (with
    # the note's prices they always are): one Fraction a seat at the end, not a dozen.
    seats = list(pool)
    n = len(seats)
    inside = set(seats)
    pools = {x: _whole(pool[x]) for x in seats}
    mountains = {x: _whole(mountain[x]) for x in seats}
    net = dict.fromkeys(seats, 0)
    for writer, on in whists.items():
        if writer not in inside:
            continue
        for y, amount in on.items():
            if y in inside:
                amount = _whole(amount)
                net[writer] += amount
                net[y] -= amount
    total_pool, total_mountain = sum(pools.values()), sum(mountains.values())
    k_p, k_m = _whole(rules.k_p), _whole(rules.k_m)
    return {
        x: Fraction(
            k_p * (n * pools[x] - total_pool)
            - k_m * (n * mountains[x] - total_mountain)
            + n * net[x],
            n,
        )
        for x in seats
    }


def _whole(value):
    """An int for a whole Fraction (ints add fast), else the value itself."""
    if type(value) is Fraction and value.denominator == 1:
        return value.numerator
    return value


# --- Numbers out --------------------------------------------------------------------------


def amount_number(value: Fraction | int) -> int | float:
    """An amount written (пуля, гора, висты) for JSON: ``int`` when whole, else rounded to 2
    decimals (with the note's prices every written amount is whole)."""
    value = Fraction(value)
    if value.denominator == 1:
        return int(value)
    return float(round(value, 2)) + 0.0


def score_number(value: Fraction) -> float:
    """A deal's score for JSON: rounded to 2 decimals (only here: ties stay ties inside)."""
    return float(round(Fraction(value), 2)) + 0.0


def settlement_json(settlement: Settlement) -> dict[str, object]:
    """``{"scores", "pool", "mountain", "whists", "failed"}``: the answer of ``settle``."""
    seats = settlement.seats
    return {
        "scores": {s.value: score_number(settlement.scores[s]) for s in seats},
        "pool": {s.value: amount_number(settlement.pool[s]) for s in seats},
        "mountain": {s.value: amount_number(settlement.mountain[s]) for s in seats},
        "whists": {
            writer.value: {
                on.value: amount_number(v) for on, v in settlement.whists[writer].items()
            }
            for writer in seats
            if writer in settlement.whists
        },
        "failed": [s.value for s in settlement.failed],
    }
