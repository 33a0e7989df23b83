"""Every refusal of a Russian sheet: the rules, the contract, the seats, the defenders'
decisions the rules allow (docs/game.md §9.3), the tricks each outcome needs, the
board, first hand and the talon. Each names its field and its rule."""

import pytest

from scoring.games.russian import InvalidInput, deal_from_json
from scoring.games.russian.names import read_contract
from tests.games.russian.russian_helpers import codes, sheet

TWO = {"E": "whist", "S": "whist"}
MADE = {"N": 6, "E": 3, "S": 1}


def six(**changes):
    """A valid Сочи sheet (N plays 6♠, E and S whist, 6 : 3 : 1), changed."""
    fields = {"declarer": "N", "contract": "6S", "defenders": TWO, "tricks": MADE} | changes
    game = fields.pop("game", "sochi")
    return sheet(game, **fields)


def test_the_valid_sheet_is_valid():
    assert codes(six()) == {}


# --- The rules ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        ({}, {"rules.game": ["required"]}),
        ({"game": "moscow"}, {"rules.game": ["choice"]}),
        ({"game": "sochi", "ten": "always"}, {"rules.ten": ["choice"]}),
        ({"game": "sochi", "responsibility": 1}, {"rules.responsibility": ["choice"]}),
        ({"game": "sochi", "stalingrad": "yes"}, {"rules.stalingrad": ["boolean"]}),
        ({"game": "sochi", "pot": "fixed"}, {"rules.pot": ["unknown_field"]}),
    ],
)
def test_the_rules_name_a_convention_and_its_options(rules, expected):
    assert codes(six(game=rules)) == expected


def test_the_rules_are_an_object():
    assert codes(six(game="sochi") | {"rules": "sochi"}) == {"rules": ["not_object"]}


def test_the_options_default_to_the_conventions_and_may_be_given():
    deal = deal_from_json(six(game={"game": "leningrad"}))
    assert deal.rules.as_json() == {
        "game": "leningrad", "ten": "whisted", "responsibility": "half", "stalingrad": False,
    }  # fmt: skip
    for game in ("sochi", "rostov"):
        assert deal_from_json(six(game=game)).rules.as_json() == {
            "game": game, "ten": "checked", "responsibility": "full", "stalingrad": False,
        }  # fmt: skip
    given = {"game": "rostov", "ten": "whisted", "responsibility": "half", "stalingrad": True}
    assert deal_from_json(six(game=given)).rules.as_json() == given


# --- The contract and the shape ---------------------------------------------------------------


@pytest.mark.parametrize("contract", ["5S", "11NT", "6X", "pass", 6, "", "6 spades"])
def test_a_contract_is_a_bid_code_misere_or_passed(contract):
    assert codes(six(contract=contract)) == {"contract": ["contract_code"]}


def test_a_contract_is_required():
    assert codes(sheet(declarer="N")) == {"contract": ["required"]}


@pytest.mark.parametrize(("typed", "code"), [("6♠", "6S"), ("7бк", "7NT"), ("10 nt", "10NT"),
                                             ("9♥", "9H"), ("мизер", "misere"),
                                             ("Распасы", "passed")])  # fmt: skip
def test_contracts_may_be_typed_in_russian_or_with_symbols(typed, code):
    assert read_contract(typed).code == code


def test_an_unknown_field_is_refused():
    assert codes(six(trump="spades")) == {"trump": ["unknown_field"]}


def test_a_sheet_is_an_object():
    assert codes([1]) == {"deal": ["not_object"]}


def test_the_declarer_is_required_and_a_seat():
    assert codes(six(declarer=None)) == {"declarer": ["required"]}
    assert codes(six(declarer="X")) == {"declarer": ["seat"]}


# --- Распасы, мизер -----------------------------------------------------------------------------


def test_all_pass_has_no_declarer_no_defenders_and_no_talon():
    data = sheet(contract="passed", declarer="N", defenders=TWO, talon="SA H7",
                 tricks={"N": 2, "E": 3, "S": 5})  # fmt: skip
    assert codes(data) == {
        "declarer": ["passed_declarer"],
        "defenders": ["passed_defenders"],
        "talon": ["passed_talon"],
    }


def test_all_pass_needs_every_seats_tricks():
    data = sheet(contract="passed", seats=["N", "E", "S"], tricks={"N": 2, "E": 8})
    assert codes(data) == {"tricks.S": ["tricks_missing"]}


def test_all_pass_tricks_add_up_to_ten():
    assert codes(sheet(contract="passed", tricks={"N": 2, "E": 3, "S": 4})) == {
        "tricks": ["tricks_sum"]
    }


def test_all_pass_with_fewer_tricks_than_seats_needs_the_seats():
    assert codes(sheet(contract="passed", tricks={"N": 10})) == {"seats": ["seats_needed"]}


def test_a_misere_has_no_defenders():
    data = sheet(declarer="N", contract="misere", defenders={"E": "pass", "S": "pass"},
                 tricks={"N": 0, "E": 5, "S": 5})  # fmt: skip
    assert codes(data) == {"defenders": ["misere_defenders"]}


def test_a_misere_with_the_declarers_tricks_alone_needs_the_seats():
    assert codes(sheet(declarer="N", contract="misere", tricks={"N": 0})) == {
        "seats": ["seats_needed"]
    }


def test_a_misere_with_more_than_the_declarers_tricks_needs_every_seats():
    data = sheet(declarer="N", contract="misere", tricks={"N": 0, "E": 4}, seats=["N", "E", "S"])
    assert codes(data) == {"tricks.S": ["tricks_missing"]}


def test_a_misere_needs_the_declarers_tricks():
    data = sheet(declarer="N", contract="misere", seats=["N", "E", "S"])
    assert codes(data) == {"tricks": ["tricks_required"]}


def test_a_misere_declarer_plays_the_deal():
    data = sheet(declarer="W", contract="misere", tricks={"W": 0}, seats=["N", "E", "S"])
    assert codes(data) == {"declarer": ["seat_not_active"]}


# --- Defence ----------------------------------------------------------------------------------


def test_two_defenders_are_needed():
    assert codes(six(defenders={"E": "whist"})) == {"defenders": ["defenders_count"]}
    assert codes(six(defenders=None)) == {"defenders": ["defenders_required"]}


def test_the_declarer_is_no_defender():
    assert codes(six(defenders={"N": "whist", "S": "whist"})) == {
        "defenders.N": ["declarer_defends"]
    }


@pytest.mark.parametrize("decision", ["double", 1, None])
def test_a_decision_is_whist_pass_or_half(decision):
    assert codes(six(defenders={"E": "whist", "S": decision})) == {"defenders.S": ["choice"]}


@pytest.mark.parametrize("contract", ["8S", "9H", "8NT"])
def test_half_whist_only_on_six_and_seven(contract):
    data = six(contract=contract, defenders={"E": "pass", "S": "half"}, tricks=None)
    assert codes(data) == {"defenders.S": ["half_level"]}


def test_half_whist_on_ten_whisted_in_leningrad_is_refused_too():
    data = six(game="leningrad", contract="10S", defenders={"E": "pass", "S": "half"}, tricks=None)
    assert codes(data) == {"defenders.S": ["half_level"]}


def test_half_whist_only_by_the_second_defender():
    # E sits on N's left: he decides first.
    data = six(defenders={"E": "half", "S": "pass"}, tricks=None)
    assert codes(data) == {"defenders.E": ["half_second"]}


def test_half_whist_only_after_the_first_passed():
    data = six(defenders={"E": "whist", "S": "half"}, tricks=None)
    assert codes(data) == {"defenders.S": ["half_after_pass"]}


def test_the_first_defender_depends_on_the_declarers_seat():
    # S declares at a 4-seat table without E: W is on S's left and decides first.
    data = sheet(declarer="S", contract="7S", defenders={"W": "pass", "N": "half"})
    assert codes(data) == {}
    data = sheet(declarer="S", contract="7S", defenders={"N": "pass", "W": "half"})
    assert codes(data) == {"defenders.W": ["half_second"]}


@pytest.mark.parametrize("decision", ["whist", "half"])
def test_a_checked_ten_is_not_whisted(decision):
    data = six(contract="10S", defenders={"E": "pass", "S": decision}, tricks={"N": 10})
    assert codes(data) == {"defenders.S": ["checked_ten"]}


def test_a_checked_ten_takes_both_pass_or_no_decisions():
    both = six(contract="10S", defenders={"E": "pass", "S": "pass"}, tricks={"N": 10})
    none = six(contract="10S", defenders=None, tricks={"N": 10}, seats=["N", "E", "S"])
    assert codes(both) == codes(none) == {}


def test_a_checked_ten_without_decisions_needs_the_seats():
    assert codes(six(contract="10S", defenders=None, tricks={"N": 10})) == {
        "seats": ["seats_needed"]
    }


@pytest.mark.parametrize(
    ("defenders", "expected"),
    [
        ({"E": "pass", "S": "whist"}, {"defenders.E": ["stalingrad"]}),
        ({"E": "whist", "S": "pass"}, {"defenders.S": ["stalingrad"]}),
        (
            {"E": "pass", "S": "pass"},
            {"defenders.E": ["stalingrad"], "defenders.S": ["stalingrad"]},
        ),
        (
            {"E": "pass", "S": "half"},
            {"defenders.E": ["stalingrad"], "defenders.S": ["stalingrad"]},
        ),
    ],
)
def test_stalingrad_both_defenders_must_whist_a_six_of_spades(defenders, expected):
    data = six(game={"game": "sochi", "stalingrad": True}, defenders=defenders,
               tricks={"N": 6, "E": 4})  # fmt: skip
    if "whist" not in defenders.values():
        data.pop("tricks")
    assert codes(data) == expected


def test_stalingrad_is_only_about_the_six_of_spades():
    data = six(game={"game": "sochi", "stalingrad": True}, contract="6C",
               defenders={"E": "pass", "S": "pass"}, tricks=None)  # fmt: skip
    assert codes(data) == {}


def test_without_stalingrad_a_six_of_spades_may_be_passed():
    assert codes(six(defenders={"E": "pass", "S": "pass"}, tricks=None)) == {}


# --- Tricks -------------------------------------------------------------------------------------


def test_both_pass_no_tricks_are_written():
    data = six(defenders={"E": "pass", "S": "pass"}, tricks={"N": 10, "E": 0, "S": 0})
    assert codes(data) == {"tricks": ["both_pass_tricks"]}


def test_half_whist_no_tricks_are_written():
    data = six(defenders={"E": "pass", "S": "half"})
    assert codes(data) == {"tricks": ["half_tricks"]}


def test_a_played_deal_needs_its_tricks():
    assert codes(six(tricks=None)) == {"tricks": ["tricks_required"]}


def test_each_whisters_and_the_declarers_tricks_are_needed():
    assert codes(six(tricks={"N": 6, "E": 4})) == {"tricks.S": ["tricks_missing"]}
    lone = six(defenders={"E": "whist", "S": "pass"}, tricks={"N": 6, "S": 4})
    assert codes(lone) == {"tricks.E": ["tricks_missing"]}


def test_the_tricks_add_up_to_ten():
    assert codes(six(tricks={"N": 6, "E": 3, "S": 2})) == {"tricks": ["tricks_sum"]}
    lone = six(defenders={"E": "whist", "S": "pass"}, tricks={"N": 6, "E": 3})
    assert codes(lone) == {"tricks": ["tricks_sum"]}


@pytest.mark.parametrize(("count", "code"), [(-1, "trick_count"), (2.5, "trick_count"),
                                             ("2", "trick_count"), (True, "trick_count"),
                                             (11, "tricks_max")])  # fmt: skip
def test_a_trick_count_is_a_whole_number_up_to_ten(count, code):
    assert codes(six(tricks={"N": 6, "E": 3, "S": count})) == {"tricks.S": [code]}


def test_tricks_of_a_seat_that_does_not_play_are_refused():
    assert codes(six(tricks={"N": 6, "E": 3, "S": 1, "W": 0})) == {"tricks.W": ["seat_not_active"]}


# --- Seats, board, first hand, talon ----------------------------------------------------------


def test_the_seats_agree_with_the_declarer_and_defenders():
    assert codes(six(seats=["N", "E", "S"])) == {}
    assert codes(six(seats=["N", "E", "W"])) == {"seats": ["seats_mismatch"]}
    assert codes(six(seats=["N", "E"])) == {"seats": ["seats_count"]}
    assert codes(six(seats=["N", "N", "E"])) == {"seats": ["seats_count"]}
    assert codes(six(seats="NES")) == {"seats": ["not_list"]}


def test_the_board_plays_the_active_seats():
    assert codes(six(board={"players": 3, "number": 1})) == {}
    assert codes(six(board={"players": 4, "number": 3})) == {"board": ["board_seats"]}
    assert codes(six(board={"players": 5, "number": 1})) == {"board.players": ["board_players"]}
    assert codes(six(board={"players": 4, "number": 5})) == {"board.number": ["board_number"]}


def test_first_hand_is_active_and_on_the_dealers_left():
    assert codes(six(first_hand="W")) == {"first_hand": ["first_hand_inactive"]}
    four = sheet(declarer="N", contract="6S", defenders={"E": "whist", "W": "whist"},
                 tricks={"N": 6, "E": 2, "W": 2})  # fmt: skip
    # S sits out: he dealt, so first hand is W, on his left.
    assert codes(four | {"first_hand": "E"}) == {"first_hand": ["first_hand_dealer_left"]}
    assert codes(four | {"first_hand": "W"}) == {}


def test_the_talon_is_two_cards_on_a_numeric_contract_or_a_misere():
    assert deal_from_json(six(talon="SA H7")).talon is not None
    misere = sheet(declarer="N", contract="misere", tricks={"N": 0}, seats=["N", "E", "S"])
    assert codes(misere | {"talon": ["D7", "D8"]}) == {}
    assert codes(six(talon="SA")) == {"talon": ["talon_format"]}
    assert codes(six(talon="SA X9")) == {"talon": ["talon_card"]}
    assert codes(six(talon="SA SA")) == {"talon": ["talon_twice"]}


def test_every_problem_is_reported_at_once():
    data = six(declarer="X", contract="6S", tricks={"N": 12}, talon="Z", first_hand=7)
    assert set(codes(data)) == {"declarer", "tricks.N", "talon", "first_hand"}


def test_refusals_are_worded_in_both_languages():
    with pytest.raises(InvalidInput) as caught:
        deal_from_json(six(contract="8S", defenders={"E": "pass", "S": "half"}, tricks=None))
    assert caught.value.render("ru") == {
        "defenders.S": "полвиста бывает только на шестерной и семерной"
    }
    assert caught.value.render("en") == {"defenders.S": "half whist is only on a 6 or a 7"}
