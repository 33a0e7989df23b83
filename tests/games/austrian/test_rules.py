"""The rules of one deal: checks of the score sheet and the settlement (scoring/games/austrian/)."""

import json
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.boards import CLOCKWISE, Seat
from scoring.games.austrian import (
    AUSTRIAN_SUIT_ORDER,
    SEED_SUIT_ORDER,
    Call,
    Contract,
    Deal,
    Defence,
    FixedPot,
    InvalidInput,
    Rules,
    RunningPot,
    Suit,
    TrumpPot,
    allowed_trumps,
    deal_from_json,
    reached_level,
    settle,
    settle_json,
    stake_of,
    validate,
)

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
WHIST, PASS, INVITED = Defence.WHIST, Defence.PASS, Defence.INVITED

LESNOY = {
    "rules": {"pot": "running", "pot_before": 130, "limit": 100, "ante": 10},
    "declarer": "N",
    "contract": "one",
    "trump": "spades",
    "defenders": {"E": "whist", "S": "whist"},
    "tricks": {"N": 6, "E": 3, "S": 1},
}


def deal(**changes):
    """A valid fixed-pot deal (N declares «раз» in spades, E and S whist), changed."""
    data = {
        "declarer": "N",
        "contract": "one",
        "trump": "spades",
        "defenders": {"E": "whist", "S": "whist"},
        "tricks": {"N": 6, "E": 2, "S": 2},
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def problems(data) -> dict[str, list[str]]:
    """field → message codes of a deal that must be refused."""
    with pytest.raises(InvalidInput) as caught:
        deal_from_json(data)
    return caught.value.problems.codes()


# --- The contract cases of the smoke check ------------------------------------------------


def test_the_worked_example_of_the_running_pot():
    assert settle_json(LESNOY) == {
        "scores": {"N": 60, "E": 30, "S": -90},
        "failed": ["S"],
        "pot_after": 130,
    }


def test_both_defenders_passing_credit_the_declarer_with_the_stake():
    answer = settle_json(
        {
            "declarer": "E",
            "contract": "game",
            "trump": "clubs",
            "defenders": {"S": "pass", "W": "pass"},
        }
    )
    assert answer == {"scores": {"E": 100, "S": 0, "W": 0}, "failed": []}


def test_the_inviter_pays_when_the_side_takes_fewer_than_four():
    answer = settle_json(
        {
            "declarer": "N",
            "contract": "three",
            "trump": "hearts",
            "defenders": {"E": "whist", "S": "invited"},
            "tricks": {"N": 7, "E": 1, "S": 2},
        }
    )
    assert answer == {"scores": {"N": 70, "E": -90, "S": 20}, "failed": ["E"]}


def test_a_declarer_who_takes_five_pays_the_stake():
    answer = settle_json(
        {
            "declarer": "S",
            "contract": "hearts",
            "trump": "hearts",
            "defenders": {"N": "whist", "E": "pass"},
            "tricks": {"S": 5, "N": 5, "E": 0},
        }
    )
    assert answer == {"scores": {"S": -50, "N": 50, "E": 0}, "failed": ["S"]}


# --- Contract and trump -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "trump"),
    [("two", "spades"), ("three", "clubs"), ("three", "spades"), ("four", "diamonds")],
)
def test_it_rejects_a_trump_lower_than_the_level(contract, trump):
    assert problems(deal(contract=contract, trump=trump)) == {"trump": ["trump_below_level"]}


def test_the_trump_message_names_the_rule():
    with pytest.raises(InvalidInput) as caught:
        deal_from_json(deal(contract="three", trump="clubs"))
    assert caught.value.render() == {"trump": "при «три» козырь — бубны или червы"}
    assert caught.value.render("en") == {
        "trump": "after «three» the trump must be diamonds or hearts"
    }


@pytest.mark.parametrize("trump", ["spades", "clubs", "diamonds", "hearts"])
def test_any_trump_goes_after_one(trump):
    assert settle_json(deal(trump=trump))["failed"] == []


def test_the_levels_allow_trumps_from_their_rank_up():
    assert allowed_trumps(Contract.ONE) == SEED_SUIT_ORDER
    assert allowed_trumps(Contract.TWO) == (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
    assert allowed_trumps(Contract.THREE) == (Suit.DIAMONDS, Suit.HEARTS)
    assert allowed_trumps(Contract.FOUR) == (Suit.HEARTS,)


def test_game_after_a_number_allows_trumps_from_the_level_reached_but_never_hearts():
    assert allowed_trumps(Contract.GAME) == (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS)
    assert allowed_trumps(Contract.GAME, reached=1) == (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS)
    assert allowed_trumps(Contract.GAME, reached=2) == (Suit.CLUBS, Suit.DIAMONDS)
    assert allowed_trumps(Contract.GAME, reached=3) == (Suit.DIAMONDS,)
    assert allowed_trumps(Contract.GAME, AUSTRIAN_SUIT_ORDER, 2) == (Suit.SPADES, Suit.DIAMONDS)
    assert allowed_trumps(Contract.HEARTS, reached=2) == (Suit.HEARTS,)


def test_the_level_reached_is_the_highest_number_named():
    seq = [Call(N, "one"), Call(E, "two"), Call(S, "game"), Call(N, "pass"), Call(E, "pass")]
    assert reached_level(seq) == 2
    assert reached_level([Call(N, "game"), Call(E, "pass"), Call(S, "pass")]) == 0
    assert reached_level([]) == 0


@given(
    st.sampled_from([Contract.ONE, Contract.TWO, Contract.THREE, Contract.FOUR, Contract.GAME]),
    st.integers(0, 4),
    st.sampled_from([SEED_SUIT_ORDER, AUSTRIAN_SUIT_ORDER]),
)
def test_no_allowed_trump_is_below_the_level_reached_or_the_contract(contract, reached, order):
    floor = max(reached, contract.level or 0)
    for suit in allowed_trumps(contract, order, reached):
        assert order.index(suit) + 1 >= floor
        assert not (contract is Contract.GAME and suit is Suit.HEARTS)
    # And nothing above the floor is left out.
    expected = [s for s in order if order.index(s) + 1 >= floor]
    if contract is Contract.GAME:
        expected = [s for s in expected if s is not Suit.HEARTS]
    assert list(allowed_trumps(contract, order, reached)) == expected


def test_the_alternative_suit_order_swaps_spades_and_clubs():
    pagat = {"suit_order": "pagat"}
    assert settle_json(deal(contract="two", trump="spades", rules=pagat))["failed"] == []
    assert problems(deal(contract="two", trump="clubs", rules=pagat)) == {
        "trump": ["trump_below_level"]
    }
    listed = {"suit_order": ["clubs", "spades", "diamonds", "hearts"]}
    assert settle_json(deal(contract="two", trump="spades", rules=listed))["failed"] == []
    assert allowed_trumps(Contract.TWO, AUSTRIAN_SUIT_ORDER)[0] is Suit.SPADES


def test_it_rejects_a_suit_order_that_is_not_the_four_suits():
    bad = deal(rules={"suit_order": ["clubs", "clubs", "diamonds", "hearts"]})
    assert problems(bad) == {"rules.suit_order": ["suit_order"]}


def test_game_is_refused_in_hearts():
    assert problems(deal(contract="game", trump="hearts")) == {"trump": ["game_in_hearts"]}


@pytest.mark.parametrize("trump", ["spades", "clubs", "diamonds"])
def test_game_is_played_in_any_other_suit(trump):
    assert settle_json(deal(contract="game", trump=trump))["failed"] == []


def test_hearts_is_played_in_hearts_and_the_trump_may_be_left_out():
    assert settle_json(deal(contract="hearts", trump=None))["failed"] == []
    assert problems(deal(contract="hearts", trump="diamonds")) == {"trump": ["hearts_trump"]}


def test_a_numeric_contract_needs_a_trump():
    assert problems(deal(trump=None)) == {"trump": ["trump_required"]}


def test_it_rejects_an_unknown_contract():
    assert problems(deal(contract="five")) == {"contract": ["choice"]}


def test_the_contract_is_required():
    assert problems(deal(contract=None)) == {"contract": ["required"]}


def test_russian_words_are_accepted_on_input():
    answer = settle_json(
        deal(
            contract="три",
            trump="бубны",
            defenders={"E": "вист", "S": "пас"},
            tricks={"N": 8, "E": 2},
        )
    )
    assert answer == {"scores": {"N": 80, "E": 20, "S": 0}, "failed": []}


# --- Seats and defence --------------------------------------------------------------------


def test_the_declarer_is_required():
    assert problems(deal(declarer=None)) == {"declarer": ["required"]}


def test_it_rejects_a_seat_that_is_not_w_n_e_s():
    assert problems(deal(declarer="X")) == {"declarer": ["seat"]}


def test_there_must_be_two_defenders():
    assert problems(deal(defenders={"E": "whist"})) == {"defenders": ["defenders_count"]}


def test_the_declarer_cannot_defend():
    codes = problems(deal(defenders={"N": "whist", "E": "whist"}))
    assert codes["defenders.N"] == ["declarer_defends"]


def test_it_rejects_an_unknown_defence_decision():
    assert problems(deal(defenders={"E": "whist", "S": "double"})) == {"defenders.S": ["choice"]}


def test_only_a_passer_can_be_invited():
    # Two «invited»: neither is a whister who could have invited a passer.
    codes = problems(
        deal(defenders={"E": "invited", "S": "invited"}, tricks={"N": 6, "E": 2, "S": 2})
    )
    assert codes == {"defenders.E": ["invite_needs_whist"], "defenders.S": ["invite_needs_whist"]}


def test_an_invitation_needs_the_other_defender_to_whist():
    codes = problems(deal(defenders={"E": "pass", "S": "invited"}, tricks={"N": 6, "S": 4}))
    assert codes == {"defenders.S": ["invite_needs_whist"]}


def test_seats_must_be_the_declarer_and_the_defenders():
    assert problems(deal(seats=["N", "E", "W"])) == {"seats": ["seats_mismatch"]}
    assert settle_json(deal(seats=["S", "N", "E"]))["failed"] == []


def test_a_board_fixes_the_active_seats():
    # Deal 2 of a 4-player set: N deals and sits out.
    board = {"players": 4, "number": 2}
    assert problems(deal(board=board)) == {"board": ["board_seats"]}
    ok = deal(
        board=board,
        declarer="E",
        defenders={"S": "whist", "W": "whist"},
        tricks={"E": 6, "S": 2, "W": 2},
    )
    assert settle_json(ok)["scores"] == {"E": 60, "S": 20, "W": 20}


def test_it_rejects_a_board_that_is_not_in_the_set():
    assert problems(deal(board={"players": 3, "number": 4})) == {"board.number": ["board_number"]}
    assert problems(deal(board={"players": 5, "number": 1})) == {"board.players": ["board_players"]}


def test_first_hand_is_on_the_dealers_left():
    four = deal(
        declarer="E", defenders={"S": "whist", "W": "whist"}, tricks={"E": 6, "S": 2, "W": 2}
    )
    assert settle_json(dict(four, first_hand="E"))["failed"] == []
    assert problems(dict(four, first_hand="S")) == {"first_hand": ["first_hand_dealer_left"]}
    assert problems(deal(first_hand="W")) == {"first_hand": ["first_hand_inactive"]}


# --- Tricks -------------------------------------------------------------------------------


def test_it_rejects_tricks_that_do_not_add_up_to_ten():
    with pytest.raises(InvalidInput) as caught:
        deal_from_json(deal(tricks={"N": 6, "E": 3, "S": 2}))
    assert caught.value.problems.codes() == {"tricks": ["tricks_sum"]}
    assert caught.value.render() == {"tricks": "взятки должны в сумме давать 10, а дают 11"}


@pytest.mark.parametrize("count", [-1, 2.5, "2", True, None])
def test_it_rejects_a_trick_count_that_is_not_a_whole_number(count):
    assert problems(deal(tricks={"N": 6, "E": 2, "S": count})) == {"tricks.S": ["trick_count"]}


def test_a_whole_float_counts_as_a_whole_number():
    assert settle_json(deal(tricks={"N": 6.0, "E": 2, "S": 2}))["scores"]["N"] == 60


def test_tricks_of_a_seat_that_does_not_play_are_refused():
    assert problems(deal(tricks={"N": 6, "E": 2, "S": 2, "W": 0})) == {
        "tricks.W": ["seat_not_active"]
    }


def test_tricks_are_required_when_the_deal_was_played():
    assert problems(deal(tricks=None)) == {"tricks": ["tricks_required"]}


def test_a_missing_trick_count_is_named():
    assert problems(deal(tricks={"N": 6, "E": 4})) == {"tricks.S": ["tricks_missing"]}


def test_a_passer_who_was_not_invited_takes_no_tricks():
    codes = problems(deal(defenders={"E": "whist", "S": "pass"}, tricks={"N": 6, "E": 3, "S": 1}))
    assert codes == {"tricks.S": ["passer_takes_none"]}


def test_the_passers_tricks_may_be_left_out():
    answer = settle_json(deal(defenders={"E": "whist", "S": "pass"}, tricks={"N": 7, "E": 3}))
    assert answer == {"scores": {"N": 70, "E": 30, "S": 0}, "failed": []}


def test_tricks_may_be_left_out_when_both_defenders_pass():
    answer = settle_json(deal(defenders={"E": "pass", "S": "pass"}, tricks=None))
    assert answer == {"scores": {"N": 100, "E": 0, "S": 0}, "failed": []}


def test_when_both_defenders_pass_the_declarer_has_all_ten_tricks():
    both_pass = {"E": "pass", "S": "pass"}
    assert settle_json(deal(defenders=both_pass, tricks={"N": 10, "E": 0, "S": 0}))["failed"] == []
    assert problems(deal(defenders=both_pass, tricks={"N": 6, "E": 4, "S": 0})) == {
        "tricks": ["no_play_tricks"]
    }


# --- Passed out ---------------------------------------------------------------------------


def test_a_passed_out_deal_scores_nobody():
    assert settle_json({"contract": "passed", "seats": ["N", "E", "S"]}) == {
        "scores": {"N": 0, "E": 0, "S": 0},
        "failed": [],
    }


def test_a_passed_out_running_pot_stays_as_it_was():
    answer = settle_json(
        {
            "contract": "passed",
            "seats": ["E", "S", "W"],
            "rules": {"pot": "running", "pot_before": 70},
        }
    )
    assert answer["pot_after"] == 70


def test_a_passed_out_deal_needs_its_three_seats():
    assert problems({"contract": "passed"}) == {"seats": ["seats_required"]}
    assert problems({"contract": "passed", "seats": ["N", "N", "S"]}) == {"seats": ["seats_count"]}
    board = {"contract": "passed", "board": {"players": 3, "number": 1}}
    assert settle_json(board)["scores"] == {"N": 0, "E": 0, "S": 0}


def test_a_passed_out_deal_has_no_declarer_trump_defenders_or_tricks():
    codes = problems(dict(deal(contract="passed"), seats=["N", "E", "S"]))
    assert codes == {
        "declarer": ["passed_out_field"],
        "trump": ["passed_out_field"],
        "defenders": ["passed_out_field"],
        "tricks": ["passed_out_field"],
    }


def test_the_passed_out_messages_name_the_field():
    with pytest.raises(InvalidInput) as caught:
        deal_from_json(dict(deal(contract="passed"), seats=["N", "E", "S"]))
    texts = caught.value.render()
    assert texts["declarer"].startswith("в распасованной сдаче нет разыгрывающего")
    assert texts["trump"].startswith("в распасованной сдаче нет козыря")
    assert texts["defenders"].startswith("в распасованной сдаче нет защитников")
    assert texts["tricks"].startswith("в распасованной сдаче нет взяток")
    assert caught.value.render("en")["trump"].startswith("a passed-out deal has no trump")


# --- Input shape and messages -------------------------------------------------------------


def test_all_problems_are_reported_at_once():
    codes = problems(
        {
            "declarer": "N",
            "contract": "three",
            "trump": "clubs",
            "defenders": {"E": "invited", "S": "pass"},
            "tricks": {"N": 6, "E": 3, "S": 2},
        }
    )
    assert codes == {
        "trump": ["trump_below_level"],
        "defenders.E": ["invite_needs_whist"],
        "tricks.S": ["passer_takes_none"],
        "tricks": ["tricks_sum"],
    }


def test_it_rejects_unknown_fields():
    assert problems(deal(trick={"N": 6})) == {"trick": ["unknown_field"]}


def test_a_deal_must_be_a_json_object():
    assert problems([1, 2]) == {"deal": ["not_object"]}


def test_messages_render_in_russian_and_english():
    with pytest.raises(InvalidInput) as caught:
        deal_from_json(deal(defenders={"E": "whist", "S": "pass"}, tricks={"N": 6, "E": 3, "S": 1}))
    assert "пасующий без приглашения" in caught.value.render("ru")["tricks.S"]
    assert "not invited" in caught.value.render("en")["tricks.S"]


def test_every_message_has_both_languages_in_the_one_catalogue():
    """The core's words are the project's catalogue's (locale/*/django.po): English as the
    msgid, a Russian translation for every code, the same parameters in both."""
    import re

    from events.catalogue import translated
    from scoring.games.austrian import MESSAGES
    from scoring.solver.messages import MESSAGES as SOLVER_MESSAGES

    for code, en in [*MESSAGES.items(), *SOLVER_MESSAGES.items()]:
        ru = translated(en, "ru")
        assert en and ru != en, code
        assert any("а" <= ch <= "я" for ch in ru.lower()), code
        assert set(re.findall(r"{(\w+)}", ru)) == set(re.findall(r"{(\w+)}", en)), code


# --- Rules of the event -------------------------------------------------------------------


def test_a_running_pot_needs_its_size():
    assert problems(deal(rules={"pot": "running"})) == {"rules.pot_before": ["required"]}


def test_a_running_pot_limit_must_be_positive():
    assert problems(deal(rules={"pot": "running", "pot_before": 50, "limit": 0})) == {
        "rules.limit": ["positive"]
    }


def test_fields_of_another_pot_are_refused():
    assert problems(deal(rules={"pot": "fixed", "ante": 10})) == {
        "rules.ante": ["field_not_for_pot"]
    }
    assert problems(deal(rules={"pot": "jackpot"})) == {"rules.pot": ["choice"]}


def test_the_fixed_stake_must_be_positive():
    assert problems(deal(rules={"pot": "fixed", "stake": 0})) == {"rules.stake": ["positive"]}


def test_a_running_pot_without_limit_puts_the_whole_pot_at_stake():
    answer = settle_json(dict(LESNOY, rules={"pot": "running", "pot_before": 130}))
    assert answer == {"scores": {"N": 78, "E": 39, "S": -117}, "failed": ["S"], "pot_after": 130}


def test_a_limit_above_the_pot_puts_the_pot_at_stake():
    answer = settle_json(dict(LESNOY, rules={"pot": "running", "pot_before": 60, "limit": 100}))
    assert answer["scores"] == {"N": 36, "E": 18, "S": -54}
    assert answer["pot_after"] == 60


def test_amounts_stay_exact():
    answer = settle_json(dict(LESNOY, rules={"pot": "running", "pot_before": 135}))
    assert answer["scores"] == {"N": 81, "E": 40.5, "S": -121.5}
    decimal = settle_json(deal(rules={"stake": 12.5}))
    assert decimal["scores"] == {"N": 7.5, "E": 2.5, "S": 2.5}


@pytest.mark.parametrize(
    ("trump", "stake"), [("clubs", 20), ("spades", 30), ("diamonds", 40), ("hearts", 50)]
)
def test_the_trump_pot_stake_depends_on_the_trump(trump, stake):
    answer = settle_json(
        deal(trump=trump, rules={"pot": "trump"}, tricks={"N": 10, "E": 0, "S": 0})
    )
    assert answer["scores"]["N"] == stake
    assert answer["failed"] == ["E", "S"]


def test_the_trump_pot_stakes_are_configurable():
    answer = settle_json(
        deal(
            contract="hearts",
            trump=None,
            rules={"pot": "trump", "stakes": {"hearts": 80}},
            defenders={"E": "pass", "S": "pass"},
            tricks=None,
        )
    )
    assert answer["scores"]["N"] == 80


# --- Settlement ---------------------------------------------------------------------------


def test_a_whisting_defender_who_fails_pays_even_when_the_declarer_fails_too():
    answer = settle_json(deal(tricks={"N": 5, "E": 4, "S": 1}))
    assert answer == {"scores": {"N": -50, "E": 40, "S": -90}, "failed": ["N", "S"]}


def test_everybody_can_fail_at_once():
    # Declarer 5 (< 6) and a whister 1 (< 2): both pay A.
    answer = settle_json(deal(tricks={"N": 5, "E": 1, "S": 4}))
    assert answer["failed"] == ["N", "E"]


def test_the_inviter_answers_for_all_four_defensive_tricks():
    # The inviter took 1 trick but his side 4: no failure (his own 2 no longer counts).
    answer = settle_json(
        deal(defenders={"E": "whist", "S": "invited"}, tricks={"N": 6, "E": 1, "S": 3})
    )
    assert answer == {"scores": {"N": 60, "E": 10, "S": 30}, "failed": []}


def test_the_invited_defender_bears_no_responsibility():
    answer = settle_json(
        deal(defenders={"E": "invited", "S": "whist"}, tricks={"N": 8, "E": 0, "S": 2})
    )
    assert answer == {"scores": {"N": 80, "E": 0, "S": -80}, "failed": ["S"]}


def test_a_lone_whister_needs_two_tricks():
    answer = settle_json(deal(defenders={"E": "pass", "S": "whist"}, tricks={"N": 9, "S": 1}))
    assert answer == {"scores": {"N": 90, "E": 0, "S": -90}, "failed": ["S"]}


def test_the_dataclass_interface_takes_plain_strings():
    result = settle(
        Deal(
            contract="one",
            declarer="N",
            trump="spades",
            defenders={"E": "whist", "S": "whist"},
            tricks={"N": 6, "E": 2, "S": 2},
        )
    )
    assert result.scores == {N: 60, E: 20, S: 20}
    assert result.stake == 100


def test_settle_refuses_an_invalid_deal():
    with pytest.raises(InvalidInput):
        settle(
            Deal(
                contract=Contract.THREE,
                declarer=N,
                trump=Suit.CLUBS,
                defenders={E: WHIST, S: WHIST},
                tricks={N: 6, E: 2, S: 2},
            )
        )


# --- Properties ---------------------------------------------------------------------------

DEFENCES = [
    (WHIST, WHIST),
    (WHIST, PASS),
    (PASS, WHIST),
    (WHIST, INVITED),
    (INVITED, WHIST),
    (PASS, PASS),
]
amounts = st.fractions(min_value=0, max_value=1000, max_denominator=100)


@st.composite
def pots(draw):
    kind = draw(st.sampled_from(["fixed", "running", "trump"]))
    if kind == "fixed":
        return FixedPot(draw(amounts.filter(lambda a: a > 0)))
    if kind == "running":
        limit = draw(st.none() | amounts.filter(lambda a: a > 0))
        return RunningPot(draw(amounts), limit, draw(amounts))
    return TrumpPot({s: draw(amounts.filter(lambda a: a > 0)) for s in Suit})


@st.composite
def valid_deals(draw, pot_strategy=None):
    out = draw(st.sampled_from(CLOCKWISE))
    active = [s for s in CLOCKWISE if s is not out]
    declarer = draw(st.sampled_from(active))
    first, second = [s for s in active if s is not declarer]
    decisions = dict(zip((first, second), draw(st.sampled_from(DEFENCES)), strict=True))
    order = draw(st.sampled_from([SEED_SUIT_ORDER, AUSTRIAN_SUIT_ORDER]))
    contract = draw(st.sampled_from([c for c in Contract if c is not Contract.PASSED]))
    trump = draw(st.sampled_from(allowed_trumps(contract, order)))
    if contract is Contract.HEARTS and draw(st.booleans()):
        trump = None
    if all(d is PASS for d in decisions.values()):
        tricks = draw(st.sampled_from([None, {declarer: 10, first: 0, second: 0}]))
    else:
        playing = [declarer] + [s for s, d in decisions.items() if d is not PASS]
        cuts = sorted(
            draw(st.lists(st.integers(0, 10), min_size=len(playing) - 1, max_size=len(playing) - 1))
        )
        bounds = [0, *cuts, 10]
        tricks = {seat: bounds[i + 1] - bounds[i] for i, seat in enumerate(playing)}
        if draw(st.booleans()):
            tricks |= {s: 0 for s, d in decisions.items() if d is PASS}
    return Deal(
        contract=contract,
        declarer=declarer,
        trump=trump,
        defenders=decisions,
        tricks=tricks,
        rules=Rules(pot=draw(pots() if pot_strategy is None else pot_strategy), suit_order=order),
    )


@given(valid_deals())
def test_every_generated_deal_is_valid(d):
    assert not validate(d), validate(d).codes()


@given(valid_deals())
def test_the_settlement_always_balances(d):
    result = settle(d)
    stake = stake_of(d)
    # What the players receive from the tricks adds up to A; each failure adds −A.
    assert sum(result.scores.values()) == stake - stake * len(result.failed)
    if isinstance(d.rules.pot, RunningPot):
        assert result.pot_after == d.rules.pot.pot_before - stake + stake * len(result.failed)
        assert result.pot_after == d.rules.pot.pot_before - sum(result.scores.values())
    else:
        assert result.pot_after is None


@given(valid_deals())
def test_nobody_pays_twice_and_passers_score_nothing(d):
    result = settle(d)
    assert len(set(result.failed)) == len(result.failed)
    assert set(result.scores) == {d.declarer, *d.defenders}
    for seat, decision in d.defenders.items():
        if decision is PASS:
            assert result.scores[seat] == 0
            assert seat not in result.failed
        if decision is INVITED:
            assert seat not in result.failed


@given(valid_deals(), st.permutations(CLOCKWISE))
def test_scores_never_depend_on_the_seat_letters(d, shuffled):
    relabel = dict(zip(CLOCKWISE, shuffled, strict=True))
    moved = Deal(
        contract=d.contract,
        declarer=relabel[d.declarer],
        trump=d.trump,
        defenders={relabel[s]: v for s, v in d.defenders.items()},
        tricks=None if d.tricks is None else {relabel[s]: v for s, v in d.tricks.items()},
        rules=d.rules,
    )
    original, again = settle(d), settle(moved)
    assert again.scores == {relabel[s]: v for s, v in original.scores.items()}
    assert sorted(again.failed) == sorted(relabel[s] for s in original.failed)
    assert again.pot_after == original.pot_after


decimal_stakes = st.decimals(min_value="0.01", max_value="1000", places=2).map(
    lambda d: FixedPot(Fraction(d))
)


@given(valid_deals(decimal_stakes))
def test_the_json_form_settles_the_same(d):
    stake = d.rules.pot.stake
    data = {
        "rules": {
            "pot": "fixed",
            "stake": str(Decimal(stake.numerator) / Decimal(stake.denominator)),
            "suit_order": list(d.rules.suit_order),
        },
        "declarer": d.declarer.value,
        "contract": d.contract.value,
        "defenders": {s.value: v.value for s, v in d.defenders.items()},
    }
    if d.trump is not None:
        data["trump"] = d.trump.value
    if d.tricks is not None:
        data["tricks"] = {s.value: v for s, v in d.tricks.items()}
    result = settle(d)
    answer = settle_json(json.loads(json.dumps(data)))
    assert answer["failed"] == [s.value for s in result.failed]
    assert answer["scores"] == {s.value: float(v) for s, v in result.scores.items()}


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-20, 20)
    | st.floats()
    | st.sampled_from(["N", "E", "W", "X", "one", "three", "game", "passed", "clubs", "whist",
                       "invited", "pass", "running", "N one", "E game clubs", ""]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(
        st.sampled_from(["N", "E", "S", "W", "pot", "pot_before", "limit", "stake", "players",
                         "number", "seat", "call", "suit", "suit_order", "stakes"]),
        inner,
        max_size=4,
    ),
    max_leaves=15,
)  # fmt: skip


@given(st.dictionaries(st.sampled_from([*deal(), "rules", "seats", "auction", "board",
                                        "first_hand"]), json_values, max_size=3))  # fmt: skip
def test_any_json_gets_an_answer_or_named_errors_never_a_crash(patch):
    try:
        settle_json(dict(deal(), **patch))
    except InvalidInput as error:
        assert error.render() and error.render("en")
