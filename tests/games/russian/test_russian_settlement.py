"""The Russian game's settlement: one literal test per outcome row of the note's table
(docs/game.md §9.4), the распасы of every convention, the deal's score and
the note's two worked examples."""

from fractions import Fraction

import pytest

from events.boards import Seat
from scoring.games.russian import Deal, Rules, balance, misses, settle, settle_json
from tests.games.russian.russian_helpers import answer, sheet

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
TWO = {"E": "whist", "S": "whist"}
LONE = {"E": "whist", "S": "pass"}


# --- The note's worked examples -----------------------------------------------------------


def test_the_notes_first_example_six_made_with_two_whisters():
    got = answer(declarer="N", contract="6S", defenders=TWO, tricks={"N": 6, "E": 3, "S": 1})
    assert got == {
        "scores": {"N": 5.33, "E": -0.67, "S": -4.67},
        "pool": {"N": 2, "E": 0, "S": 0},
        "mountain": {"N": 0, "E": 0, "S": 0},
        "whists": {"E": {"N": 6}, "S": {"N": 2}},
        "failed": [],
    }


def test_the_notes_second_example_six_down_one_with_consolation():
    got = answer(declarer="N", contract="6S", defenders=TWO, tricks={"N": 5, "E": 3, "S": 2})
    assert got["scores"] == {"N": -27.33, "E": 14.67, "S": 12.67}
    assert got["mountain"] == {"N": 2, "E": 0, "S": 0}
    assert got["whists"] == {"E": {"N": 8}, "S": {"N": 6}}
    assert got["failed"] == ["N"]


def test_scores_are_exact_inside_and_rounded_only_in_json():
    deal = Deal("6S", N, {E: "whist", S: "whist"}, {N: 6, E: 3, S: 1})
    assert settle(deal).scores == {N: Fraction(16, 3), E: Fraction(-2, 3), S: Fraction(-14, 3)}


# --- Both pass, полвиста -------------------------------------------------------------------


def test_both_pass_the_contract_counts_as_made_and_nothing_is_played():
    got = answer(declarer="N", contract="7H", defenders={"E": "pass", "S": "pass"})
    assert got["pool"] == {"N": 4, "E": 0, "S": 0}
    assert got["mountain"] == {"N": 0, "E": 0, "S": 0}
    assert got["whists"] == {} and got["failed"] == []
    assert got["scores"] == {"N": 26.67, "E": -13.33, "S": -13.33}


@pytest.mark.parametrize(("contract", "written"), [("6D", 4), ("7NT", 4)])
def test_half_whist_writes_half_the_norm_times_the_price(contract, written):
    # 6: n/2 · p = 2 · 2; 7: 1 · 4.
    got = answer(declarer="N", contract=contract, defenders={"E": "pass", "S": "half"})
    price = {"6D": 2, "7NT": 4}[contract]
    assert got["pool"] == {"N": price, "E": 0, "S": 0}
    assert got["whists"] == {"S": {"N": written}}
    assert got["failed"] == []


def test_half_whist_is_doubled_in_leningrad():
    got = answer("leningrad", declarer="N", contract="6S", defenders={"E": "pass", "S": "half"})
    assert got["whists"] == {"S": {"N": 8}}
    assert got["pool"]["N"] == 2


# --- Made -----------------------------------------------------------------------------------


def test_made_with_two_whisters_each_writes_his_own_tricks():
    got = answer(declarer="N", contract="7S", defenders=TWO, tricks={"N": 7, "E": 2, "S": 1})
    assert got["pool"]["N"] == 4
    assert got["whists"] == {"E": {"N": 8}, "S": {"N": 4}}
    assert got["failed"] == []


def test_a_lone_whister_writes_all_the_defences_tricks():
    # He plays both hands open («жлобский вист»): S's hand's tricks are his.
    got = answer(declarer="N", contract="6C", defenders=LONE, tricks={"N": 6, "E": 3, "S": 1})
    assert got["whists"] == {"E": {"N": 8}}
    assert got["mountain"] == {"N": 0, "E": 0, "S": 0}
    assert got["failed"] == []


def test_a_lone_whisters_passer_may_be_left_out_of_the_tricks():
    left_out = answer(declarer="N", contract="6C", defenders=LONE, tricks={"N": 6, "E": 4})
    given = answer(declarer="N", contract="6C", defenders=LONE, tricks={"N": 6, "E": 1, "S": 3})
    assert left_out == given


def test_a_lone_whister_short_of_the_norm_misses_the_difference():
    # 6: n = 4; the defence took 2, so he misses 2: гора += 2 · 2 · 1 · 1.
    got = answer(declarer="N", contract="6S", defenders=LONE, tricks={"N": 8, "E": 2, "S": 0})
    assert got["mountain"] == {"N": 0, "E": 4, "S": 0}
    assert got["whists"] == {"E": {"N": 4}}
    assert got["failed"] == ["E"]


@pytest.mark.parametrize(
    ("split", "mountain", "failed"),
    [
        ((3, 0), {"E": 0, "S": 4}, ["S"]),  # the second whister is 2 short: 2 · p
        ((0, 3), {"E": 4, "S": 0}, ["E"]),
        ((2, 1), {"E": 0, "S": 2}, ["S"]),  # 1 short
        ((1, 1), {"E": 2, "S": 2}, ["E", "S"]),  # each 1 short
        ((3, 1), {"E": 0, "S": 0}, []),  # the pair has its four
        ((4, 0), {"E": 0, "S": 0}, []),
        ((0, 0), {"E": 4, "S": 4}, ["E", "S"]),
    ],
)
def test_two_whisters_on_a_six_each_answers_for_his_half(split, mountain, failed):
    e, s = split
    got = answer(
        declarer="N", contract="6H", defenders=TWO, tricks={"N": 10 - e - s, "E": e, "S": s}
    )
    assert {k: v for k, v in got["mountain"].items() if k != "N"} == mountain
    assert got["mountain"]["N"] == 0
    assert got["failed"] == failed


@pytest.mark.parametrize(
    ("split", "mountain"),
    [((1, 0), {"E": 0, "S": 4}), ((0, 0), {"E": 4, "S": 4}), ((2, 0), {"E": 0, "S": 0})],
)
def test_two_whisters_on_a_seven_each_answers_for_one(split, mountain):
    e, s = split
    got = answer(
        declarer="N", contract="7C", defenders=TWO, tricks={"N": 10 - e - s, "E": e, "S": s}
    )
    assert {k: v for k, v in got["mountain"].items() if k != "N"} == mountain


@pytest.mark.parametrize(
    ("game", "contract", "price"),
    [("sochi", "8S", 6), ("sochi", "9NT", 8), ("leningrad", "10D", 10)],
)
def test_two_whisters_at_eight_nine_ten_taking_nothing_each_miss_one(game, contract, price):
    got = answer(
        game, declarer="N", contract=contract, defenders=TWO, tricks={"N": 10, "E": 0, "S": 0}
    )
    # Ленинград: 1 · p · m · r = 1 · 10 · 2 · ½.
    assert got["mountain"] == {"N": 0, "E": price, "S": price}
    assert got["failed"] == ["E", "S"]


def test_two_whisters_at_eight_with_one_trick_between_them_miss_nothing():
    got = answer(declarer="N", contract="8S", defenders=TWO, tricks={"N": 9, "E": 0, "S": 1})
    assert got["mountain"] == {"N": 0, "E": 0, "S": 0}
    assert got["whists"] == {"S": {"N": 6}}
    assert got["failed"] == []


def test_a_miss_costs_half_with_half_responsibility():
    got = answer({"game": "sochi", "responsibility": "half"}, declarer="N", contract="6S",
                 defenders=LONE, tricks={"N": 8, "E": 2, "S": 0})  # fmt: skip
    assert got["mountain"]["E"] == 2


def test_a_miss_costs_a_whister_p_in_every_convention_with_its_defaults():
    for game in ("sochi", "leningrad", "rostov"):
        got = answer(game, declarer="N", contract="7D", defenders=LONE, tricks={"N": 9, "E": 1})
        assert got["mountain"]["E"] == 4, game  # 1 trick short × p = 4


@pytest.mark.parametrize(
    ("level", "own", "expected"),
    [
        (6, {E: 3, S: 0}, {S: 2}),
        (6, {E: 2, S: 1}, {S: 1}),
        (6, {E: 1, S: 1}, {E: 1, S: 1}),
        (6, {E: 3, S: 1}, {}),
        (6, {E: 1}, {E: 3}),
        (7, {E: 0, S: 0}, {E: 1, S: 1}),
        (8, {E: 0, S: 0}, {E: 1, S: 1}),
        (9, {E: 1}, {}),
        (10, {E: 0}, {E: 1}),
    ],
)
def test_misses_follow_the_notes_decisions(level, own, expected):
    assert misses(level, own) == expected


# --- Down -----------------------------------------------------------------------------------


def test_down_with_a_lone_whister_the_passer_writes_the_consolation():
    got = answer(declarer="N", contract="8S", defenders=LONE, tricks={"N": 6, "E": 4})
    # u = 2, p = 6: E writes 4·6 + 2·6, S 2·6; N's гора 2·6.
    assert got["mountain"] == {"N": 12, "E": 0, "S": 0}
    assert got["whists"] == {"E": {"N": 36}, "S": {"N": 12}}
    assert got["failed"] == ["N"]


def test_down_in_leningrad_everything_written_is_doubled():
    got = answer(
        "leningrad", declarer="N", contract="6S", defenders=TWO, tricks={"N": 5, "E": 3, "S": 2}
    )
    assert got["mountain"]["N"] == 4
    assert got["whists"] == {"E": {"N": 16}, "S": {"N": 12}}


def test_misses_are_not_checked_when_the_contract_goes_down():
    got = answer(declarer="N", contract="6S", defenders=TWO, tricks={"N": 5, "E": 5, "S": 0})
    assert got["mountain"] == {"N": 2, "E": 0, "S": 0}
    assert got["failed"] == ["N"]


# --- The checked 10, мизер ----------------------------------------------------------------


def test_a_checked_ten_made_writes_ten_in_the_pool():
    got = answer(declarer="E", contract="10NT", tricks={"E": 10}, seats=["N", "E", "S"])
    assert got["pool"] == {"E": 10, "S": 0, "N": 0}
    assert got["whists"] == {} and got["failed"] == []


def test_a_checked_ten_down_each_defender_writes_u_times_ten():
    got = answer(declarer="E", contract="10S", defenders={"S": "pass", "N": "pass"},
                 tricks={"E": 8, "S": 1, "N": 1})  # fmt: skip
    assert got["mountain"] == {"E": 20, "S": 0, "N": 0}
    assert got["whists"] == {"S": {"E": 20}, "N": {"E": 20}}
    assert got["failed"] == ["E"]


def test_a_checked_ten_down_in_rostov_and_leningrad_when_checked():
    sochi = answer(declarer="N", contract="10H", tricks={"N": 9}, seats=["N", "E", "S"])
    rostov = answer("rostov", declarer="N", contract="10H", tricks={"N": 9}, seats=["N", "E", "S"])
    assert sochi == rostov
    checked = {"game": "leningrad", "ten": "checked"}
    got = answer(checked, declarer="N", contract="10H", tricks={"N": 9}, seats=["N", "E", "S"])
    assert got["mountain"]["N"] == 20 and got["whists"] == {"E": {"N": 20}, "S": {"N": 20}}


def test_a_whisted_ten_in_sochi_when_the_event_says_so():
    got = answer({"game": "sochi", "ten": "whisted"}, declarer="N", contract="10S",
                 defenders=LONE, tricks={"N": 10, "E": 0})  # fmt: skip
    assert got["mountain"] == {"N": 0, "E": 10, "S": 0}  # the norm of 1 missed: 1 · 10


def test_a_clean_misere_writes_ten_in_the_pool():
    got = answer(declarer="E", contract="misere", tricks={"E": 0, "S": 4, "N": 6})
    assert got["pool"] == {"E": 10, "S": 0, "N": 0}
    assert got["scores"] == {"E": 66.67, "S": -33.33, "N": -33.33}
    assert got["failed"] == []


def test_a_misere_needs_only_the_declarers_tricks_and_the_seats():
    got = answer(declarer="E", contract="misere", tricks={"E": 0}, seats=["N", "E", "S"])
    assert got["scores"] == {"E": 66.67, "S": -33.33, "N": -33.33}


@pytest.mark.parametrize(("game", "mountain"), [("sochi", 20), ("leningrad", 40)])
def test_a_caught_misere_writes_ten_a_trick_on_the_mountain(game, mountain):
    got = answer(game, declarer="E", contract="misere", tricks={"E": 2}, seats=["N", "E", "S"])
    assert got["mountain"] == {"E": mountain, "S": 0, "N": 0}
    assert got["pool"] == {"E": 0, "S": 0, "N": 0}
    assert got["whists"] == {}
    assert got["failed"] == ["E"]


# --- Распасы --------------------------------------------------------------------------------


def test_sochi_all_pass_is_the_contracts_example():
    got = answer(contract="passed", tricks={"N": 0, "E": 3, "S": 7})
    assert got["pool"] == {"N": 1, "E": 0, "S": 0}
    assert got["mountain"] == {"N": 0, "E": 3, "S": 7}
    assert got["scores"] == {"N": 40.0, "E": 0.0, "S": -40.0}
    assert got["failed"] == []


def test_leningrad_all_pass_writes_two_a_trick_and_two_for_none():
    got = answer("leningrad", contract="passed", tricks={"N": 0, "E": 3, "S": 7})
    assert got["pool"] == {"N": 2, "E": 0, "S": 0}
    assert got["mountain"] == {"N": 0, "E": 6, "S": 14}
    # 20·(2 − ⅔) + 10·(20/3) = 93.33
    assert got["scores"] == {"N": 93.33, "E": -6.67, "S": -86.67}


def test_rostov_all_pass_the_fewest_write_five_a_trick():
    got = answer("rostov", contract="passed", tricks={"N": 2, "E": 3, "S": 5})
    assert got["whists"] == {"N": {"E": 15, "S": 25}}
    assert got["pool"] == {"N": 0, "E": 0, "S": 0}
    assert got["mountain"] == {"N": 0, "E": 0, "S": 0}
    assert got["scores"] == {"N": 40.0, "E": -15.0, "S": -25.0}


def test_rostov_all_pass_two_tied_at_the_fewest_both_write_on_the_third():
    got = answer("rostov", contract="passed", tricks={"N": 3, "E": 3, "S": 4})
    assert got["whists"] == {"N": {"S": 20}, "E": {"S": 20}}
    assert got["scores"] == {"N": 20.0, "E": 20.0, "S": -40.0}


def test_rostov_all_pass_no_trick_is_a_pool_point_too():
    got = answer("rostov", contract="passed", tricks={"N": 0, "E": 0, "S": 10})
    assert got["pool"] == {"N": 1, "E": 1, "S": 0}
    assert got["whists"] == {"N": {"S": 50}, "E": {"S": 50}}


def test_all_pass_seats_in_speaking_order_at_a_four_seat_table():
    # E sits out, so he dealt: first hand is S, on his left.
    got = answer(contract="passed", tricks={"N": 0, "S": 5, "W": 5})
    assert list(got["scores"]) == ["S", "W", "N"]


# --- The balance ------------------------------------------------------------------------------


def test_the_balance_by_the_notes_formula():
    pool = {N: Fraction(2), E: Fraction(0), S: Fraction(0)}
    mountain = {N: Fraction(0), E: Fraction(3), S: Fraction(0)}
    whists = {E: {N: Fraction(6)}}
    scores = balance(pool, mountain, whists, Rules("sochi"))
    # N: 10·(2 − ⅔) + 10·1 − 6; E: −10·⅔ − 10·2 + 6; S: −10·⅔ + 10·1
    assert scores == {N: Fraction(52, 3), E: Fraction(-62, 3), S: Fraction(10, 3)}
    assert sum(scores.values()) == 0


def test_the_json_answer_of_a_dataclass_deal_is_the_same():
    data = sheet(declarer="N", contract="6S", defenders=TWO, tricks={"N": 6, "E": 3, "S": 1})
    assert settle_json(data)["scores"] == {"N": 5.33, "E": -0.67, "S": -4.67}
