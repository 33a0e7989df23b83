"""Properties of the Russian game's settlement, on every kind of valid sheet: the balance
is zero-sum, does not depend on the seat letters, a made contract never scores the declarer
below the same contract down, and the conventions relate as the note says (a missing trick
costs a whister p in each; Ленинград doubles what Сочи writes)."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from events.boards import CLOCKWISE, clockwise_from
from scoring.games.russian import (
    BIDS,
    MISERE,
    PASSED,
    Convention,
    Deal,
    Defence,
    InvalidInput,
    Outcome,
    Responsibility,
    Rules,
    Ten,
    deal_from_json,
    misses,
    outcome_of,
    settle,
    settle_json,
    validate,
)

WHIST, PASS, HALF = Defence.WHIST, Defence.PASS, Defence.HALF
NUMERIC = [b for b in BIDS if b.is_numeric]


@st.composite
def rules(draw, game=None):
    return Rules(
        draw(st.sampled_from(Convention)) if game is None else game,
        draw(st.none() | st.sampled_from(Ten)),
        draw(st.none() | st.sampled_from(Responsibility)),
        draw(st.booleans()),
    )


@st.composite
def split(draw, seats):
    """10 tricks shared among ``seats``."""
    cuts = sorted(
        draw(st.lists(st.integers(0, 10), min_size=len(seats) - 1, max_size=len(seats) - 1))
    )
    bounds = [0, *cuts, 10]
    return {seat: bounds[i + 1] - bounds[i] for i, seat in enumerate(seats)}


def decisions_allowed(contract, stalingrad):
    if stalingrad and contract.code == "6S":
        return [(WHIST, WHIST)]
    allowed = [(WHIST, WHIST), (WHIST, PASS), (PASS, WHIST), (PASS, PASS)]
    if contract.level in (6, 7):
        allowed.append((PASS, HALF))
    return allowed


@st.composite
def deals(draw, the_rules=None, kinds=("numeric", "misere", "passed")):
    r = draw(rules()) if the_rules is None else the_rules
    out = draw(st.sampled_from(CLOCKWISE))
    active = [s for s in CLOCKWISE if s is not out]
    kind = draw(st.sampled_from(kinds))
    if kind == "passed":
        return Deal(PASSED, tricks=draw(split(active)), rules=r)
    declarer = draw(st.sampled_from(active))
    first, second = clockwise_from(declarer, active)[1:]
    if kind == "misere":
        tricks = draw(split([declarer, first, second]))
        if draw(st.booleans()):
            return Deal(
                MISERE, declarer, tricks={declarer: tricks[declarer]}, seats=tuple(active), rules=r
            )
        return Deal(MISERE, declarer, tricks=tricks, rules=r)
    contract = draw(st.sampled_from(NUMERIC))
    if contract.level == 10 and r.ten_checked:
        defenders = draw(st.sampled_from([{}, {first: PASS, second: PASS}]))
        return Deal(contract, declarer, defenders, draw(split([declarer, first, second])),
                    seats=tuple(active), rules=r)  # fmt: skip
    said = draw(st.sampled_from(decisions_allowed(contract, r.stalingrad)))
    defenders = {first: said[0], second: said[1]}
    if HALF in said or said == (PASS, PASS):
        return Deal(contract, declarer, defenders, rules=r)
    whisters = [s for s in (first, second) if defenders[s] is WHIST]
    passers = [s for s in (first, second) if defenders[s] is PASS]
    # A lone whister's passer may be given (his hand's tricks) or left out.
    playing = [declarer, *whisters, *(passers if draw(st.booleans()) else [])]
    return Deal(contract, declarer, defenders, draw(split(playing)), rules=r)


def relabelled(deal: Deal, relabel) -> Deal:
    return Deal(
        deal.contract,
        None if deal.declarer is None else relabel[deal.declarer],
        {relabel[s]: d for s, d in deal.defenders.items()},
        None if deal.tricks is None else {relabel[s]: t for s, t in deal.tricks.items()},
        None if deal.seats is None else tuple(relabel[s] for s in deal.seats),
        rules=deal.rules,
    )


@given(deals())
def test_every_generated_sheet_is_valid(deal):
    assert not validate(deal), validate(deal).codes()


@given(deals())
def test_the_balance_is_zero_sum(deal):
    result = settle(deal)
    assert sum(result.scores.values()) == 0
    assert (
        set(result.scores) == set(result.pool) == set(result.mountain) and len(result.scores) == 3
    )


@given(deals())
def test_nothing_written_is_negative_and_nobody_writes_on_himself(deal):
    result = settle(deal)
    assert all(v >= 0 for v in (*result.pool.values(), *result.mountain.values()))
    for writer, on_whom in result.whists.items():
        assert writer not in on_whom and all(v > 0 for v in on_whom.values())


@given(deals())
def test_the_failed_are_the_declarer_down_or_caught_and_the_whisters_short(deal):
    result = settle(deal)
    kind = outcome_of(deal)
    for seat in result.failed:
        if seat == deal.declarer:
            assert result.mountain[seat] > 0 and result.pool[seat] == 0
        else:
            assert kind is Outcome.PLAYED and deal.defenders[seat] is WHIST
            assert result.mountain[seat] > 0
    if kind in (Outcome.ALL_PASS, Outcome.BOTH_PASS, Outcome.HALF):
        assert result.failed == ()


@given(deals(), st.permutations(CLOCKWISE))
def test_scores_do_not_depend_on_the_seat_letters(deal, shuffled):
    relabel = dict(zip(CLOCKWISE, shuffled, strict=True))
    moved = relabelled(deal, relabel)
    # Only полвиста depends on who sits on the declarer's left: a relabelling that makes
    # the half-whister the first defender is another (refused) sheet.
    assume(not validate(moved))
    before, after = settle(deal), settle(moved)
    assert after.scores == {relabel[s]: v for s, v in before.scores.items()}
    assert after.pool == {relabel[s]: v for s, v in before.pool.items()}
    assert after.mountain == {relabel[s]: v for s, v in before.mountain.items()}
    assert after.whists == {
        relabel[w]: {relabel[s]: v for s, v in on.items()} for w, on in before.whists.items()
    }
    assert sorted(after.failed) == sorted(relabel[s] for s in before.failed)


@st.composite
def made_and_down(draw):
    """The same contract and decisions, once made and once down (numeric, мизер, or a
    checked 10)."""
    deal = draw(deals(kinds=("numeric", "misere")))
    kind = outcome_of(deal)
    assume(kind in (Outcome.PLAYED, Outcome.MISERE, Outcome.CHECKED_TEN))
    declarer = deal.declarer
    others = [s for s in deal.tricks if s != declarer] if len(deal.tricks) > 1 else []
    if kind is Outcome.MISERE:
        good, bad = 0, draw(st.integers(1, 10))
    else:
        level = deal.contract.level
        good, bad = draw(st.integers(level, 10)), draw(st.integers(0, level - 1))

    def with_declarer(took):
        tricks = {declarer: took}
        if others:
            share = draw(st.integers(0, 10 - took))
            tricks |= {others[0]: share} | {s: 10 - took - share for s in others[1:]}
            if len(others) == 1:
                tricks[others[0]] = 10 - took
        return Deal(deal.contract, declarer, deal.defenders, tricks, deal.seats, rules=deal.rules)

    return with_declarer(good), with_declarer(bad)


@given(made_and_down())
def test_a_made_contract_never_scores_the_declarer_below_it_down(pair):
    made, down = pair
    assert not validate(made) and not validate(down), (
        validate(made).codes(),
        validate(down).codes(),
    )
    declarer = made.declarer
    assert settle(made).scores[declarer] > settle(down).scores[declarer]
    assert declarer not in settle(made).failed and declarer in settle(down).failed


@given(deals(kinds=("numeric",)))
def test_a_missing_trick_costs_a_whister_p_in_every_convention_by_its_defaults(deal):
    kind = outcome_of(deal)
    assume(kind is Outcome.PLAYED)
    level, p = deal.contract.level, deal.contract.price
    whisters = [s for s, d in deal.defenders.items() if d is WHIST]
    defence = 10 - deal.tricks[deal.declarer]
    own = {w: defence if len(whisters) == 1 else deal.tricks[w] for w in whisters}
    for game in Convention:
        # Each convention with its own defaults (Ленинград: m = 2, r = ½).
        moved = Deal(deal.contract, deal.declarer, deal.defenders, deal.tricks,
                     rules=Rules(game, ten=Ten.WHISTED))  # fmt: skip
        result = settle(moved)
        short = misses(level, own) if deal.tricks[deal.declarer] >= level else {}
        for w in whisters:
            assert result.mountain[w] == short.get(w, 0) * p, game


@given(deals(kinds=("numeric", "misere")), st.sampled_from(Ten), st.sampled_from(Responsibility),
       st.booleans())  # fmt: skip
def test_leningrad_doubles_sochi_and_rostov_equals_it_but_for_all_pass(deal, ten, resp, stalingrad):
    def under(game):
        return settle(
            Deal(
                deal.contract,
                deal.declarer,
                deal.defenders,
                deal.tricks,
                deal.seats,
                rules=Rules(game, ten, resp, stalingrad),
            )  # fmt: skip
        )

    moved = Deal(deal.contract, deal.declarer, deal.defenders, deal.tricks, deal.seats,
                 rules=Rules("sochi", ten, resp, stalingrad))  # fmt: skip
    assume(not validate(moved))
    sochi, leningrad, rostov = under("sochi"), under("leningrad"), under("rostov")
    assert leningrad.scores == {s: 2 * v for s, v in sochi.scores.items()}
    assert rostov.scores == sochi.scores
    assert leningrad.mountain == {s: 2 * v for s, v in sochi.mountain.items()}
    assert leningrad.pool == sochi.pool


def as_json(deal: Deal) -> dict:
    data = {"rules": deal.rules.as_json(), "contract": deal.contract.code}
    if deal.declarer is not None:
        data["declarer"] = deal.declarer.value
    if deal.defenders:
        data["defenders"] = {s.value: d.value for s, d in deal.defenders.items()}
    if deal.tricks is not None:
        data["tricks"] = {s.value: t for s, t in deal.tricks.items()}
    if deal.seats is not None:
        data["seats"] = [s.value for s in deal.seats]
    return data


@given(deals())
def test_the_json_form_settles_the_same(deal):
    result = settle(deal)
    answer = settle_json(as_json(deal))
    assert answer["scores"] == {s.value: round(float(v), 2) for s, v in result.scores.items()}
    assert answer["failed"] == [s.value for s in result.failed]
    assert deal_from_json(as_json(deal)) == deal


@given(deals(kinds=("passed",)))
def test_all_pass_ties_stay_ties(deal):
    result = settle(deal)
    tricks = deal.tricks
    for a in tricks:
        for b in tricks:
            if tricks[a] == tricks[b]:
                assert result.scores[a] == result.scores[b]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.floats()
    | st.sampled_from(["N", "E", "W", "X", "6S", "7NT", "misere", "passed", "whist", "pass",
                       "half", "here", "N 6S", "E here", "sochi", "rostov", "checked", ""]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(
        st.sampled_from(["N", "E", "S", "W", "game", "ten", "responsibility", "stalingrad",
                         "players", "number", "seat", "call"]),
        inner,
        max_size=4,
    ),
    max_leaves=15,
)  # fmt: skip

BASE = {"rules": {"game": "sochi"}, "declarer": "N", "contract": "6S",
        "defenders": {"E": "whist", "S": "whist"}, "tricks": {"N": 6, "E": 3, "S": 1}}  # fmt: skip


@given(st.dictionaries(st.sampled_from([*BASE, "seats", "auction", "board", "first_hand",
                                        "talon"]), json_values, max_size=3))  # fmt: skip
def test_any_json_gets_an_answer_or_named_errors_never_a_crash(patch):
    try:
        answer = settle_json(dict(BASE, **patch))
    except InvalidInput as error:
        assert error.render() and error.render("en")
    else:
        assert sum(answer["scores"].values()) == pytest.approx(0, abs=0.02)
