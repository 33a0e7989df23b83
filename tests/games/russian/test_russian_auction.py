"""The Russian auction (docs/game.md §9.2): bids in order, «здесь», мизер, the
final pass, распасы; and how a sheet's declarer and contract agree with the record."""

import pytest

from events.boards import Seat
from scoring.games.russian import MISERE, PASSED, Call, Contract, check_auction
from scoring.games.russian.auction import _refusal
from tests.games.russian.russian_helpers import codes, sheet

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
NES = (N, E, S)


def calls(*said: str) -> list[Call]:
    """``"N 6S"``, ``"E here"`` … as calls."""
    return [Call(Seat(word.split()[0]), word.split()[1]) for word in said]


def outcome(*said: str, first=None):
    result, problems = check_auction(calls(*said), NES, first)
    assert not problems, problems.codes()
    return result.declarer, result.bid


def refusal(*said: str, first=None) -> dict[str, list[str]]:
    result, problems = check_auction(calls(*said), NES, first)
    assert result is None
    return problems.codes()


# --- Auctions that end ------------------------------------------------------------------------


def test_the_highest_bid_wins_when_the_others_have_passed():
    assert outcome("N 6S", "E 6C", "S pass", "N pass") == (E, Contract("6C"))


def test_a_bid_may_jump():
    assert outcome("N 6S", "E 8NT", "S pass", "N pass") == (E, Contract("8NT"))


def test_everybody_passing_at_his_first_word_is_all_pass():
    assert outcome("N pass", "E pass", "S pass") == (None, PASSED)


def test_the_last_speaker_may_still_bid_after_two_passes():
    assert outcome("N pass", "E pass", "S 6S") == (S, Contract("6S"))


def test_a_senior_player_who_has_bid_may_equal_the_highest_bid():
    # N speaks first: senior to E. N «здесь» on 7♠; E must bid higher or pass.
    said = ("N 6S", "E 7S", "S pass", "N here", "E 7C", "N here", "E pass")
    assert outcome(*said) == (N, Contract("7C"))


def test_misere_sits_between_eight_nt_and_nine_spades():
    assert outcome("N 8NT", "E misere", "S pass", "N pass") == (E, MISERE)
    assert outcome("N misere", "E 9S", "S pass", "N pass") == (E, Contract("9S"))


def test_a_misere_winner():
    assert outcome("N pass", "E misere", "S pass") == (E, MISERE)


def test_first_hand_is_the_first_caller_when_not_given():
    assert outcome("E 6S", "S pass", "N pass") == (E, Contract("6S"))


# --- Calls refused -------------------------------------------------------------------------------


def test_a_bid_must_be_higher_than_the_highest():
    assert refusal("N 7S", "E 6NT") == {"auction.1": ["bid_low"]}
    assert refusal("N 7S", "E 7S") == {"auction.1": ["bid_low"]}
    assert refusal("N 9S", "E misere") == {"auction.1": ["bid_low"]}


def test_here_is_only_for_the_senior_player():
    # E speaks before S: E may equal S's 6♦, S may not equal it back.
    assert refusal("N pass", "E 6C", "S 6D", "E here", "S here") == {"auction.4": ["here_junior"]}


def test_here_needs_a_bid_of_ones_own():
    assert refusal("N 6S", "E here") == {"auction.1": ["here_needs_bid"]}
    assert refusal("N here") == {"auction.0": ["here_nothing"]}


def test_here_is_not_said_at_misere():
    assert refusal("N 6S", "E misere", "S pass", "N here") == {"auction.3": ["here_not_at"]}


def test_here_is_not_said_at_six_spades():
    # No record reaches it by the other rules (nobody who has bid is below 6♠), so the
    # rule is shown on the check of one call: N, senior, has bid, E holds 6♠.
    code, params = _refusal(Call(N, "here"), "bid", Contract("6S"), E, NES)
    assert (code, params) == ("here_not_at", {"bid": Contract("6S")})


def test_misere_is_only_a_first_bid():
    assert refusal("N 6S", "E 6C", "S pass", "N misere") == {"auction.3": ["misere_first"]}


def test_after_misere_only_pass():
    assert refusal("N misere", "E 9S", "S pass", "N 9C") == {"auction.3": ["misere_then_pass"]}
    assert refusal("N misere", "E 9S", "S pass", "N here") == {"auction.3": ["misere_then_pass"]}


def test_a_pass_is_final():
    assert refusal("N 6S", "E pass", "S 6C", "E 7S") == {"auction.3": ["passed_for_good"]}


def test_players_speak_in_turn():
    assert refusal("N 6S", "S 6C") == {"auction.1": ["out_of_turn"]}


def test_first_hand_opens():
    assert refusal("E 6S", first=N) == {"auction.0": ["auction_first_hand"]}


def test_an_unfinished_auction_and_calls_after_the_end():
    assert refusal("N 6S", "E pass") == {"auction": ["auction_unfinished"]}
    assert refusal("N 6S", "E pass", "S pass", "N 7S") == {"auction.3": ["auction_over"]}
    assert refusal() == {"auction": ["auction_unfinished"]}


def test_a_seat_that_does_not_play_does_not_speak():
    assert refusal("N 6S", "W 6C") == {"auction.1": ["seat_not_active"]}


# --- The sheet and its auction --------------------------------------------------------------------


def deal(contract="7S", declarer="E", auction=("N 6S", "E 7S", "S pass", "N pass"), **more):
    fields = {"declarer": declarer, "contract": contract, "auction": list(auction)}
    if contract == "misere":
        fields |= {"tricks": {declarer: 0}, "seats": ["N", "E", "S"]}
    elif contract != "passed":
        fields |= {"defenders": {s: "pass" for s in "NES" if s != declarer}}
    return sheet(**(fields | more))


def test_the_declarer_may_order_a_higher_contract():
    assert codes(deal("7S")) == {}
    assert codes(deal("9H")) == {}


def test_the_contract_is_not_lower_than_the_winning_bid():
    assert codes(deal("6NT")) == {"contract": ["auction_contract_low"]}


def test_a_numeric_winner_never_orders_misere():
    assert codes(deal("misere")) == {"contract": ["auction_no_misere"]}


def test_a_misere_winner_plays_misere():
    record = ("N pass", "E misere", "S pass")
    assert codes(deal("misere", auction=record)) == {}
    assert codes(deal("9S", auction=record)) == {"contract": ["auction_plays_misere"]}


def test_the_winner_declares():
    assert codes(deal("7S", declarer="S")) == {"auction": ["auction_mismatch"]}


def test_all_pass_agrees_with_the_auction():
    all_pass = ("N pass", "E pass", "S pass")
    passed = sheet(contract="passed", tricks={"N": 2, "E": 3, "S": 5}, auction=list(all_pass))
    assert codes(passed) == {}
    assert codes(deal("7S", auction=all_pass)) == {"auction": ["auction_mismatch"]}
    assert codes(passed | {"auction": ["N 6S", "E pass", "S pass"]}) == {
        "auction": ["auction_mismatch"]
    }


def test_the_auction_follows_the_board_and_first_hand():
    # Board 2 of a 3-player set: E is first hand.
    record = ["E 6S", "S pass", "N pass"]
    data = sheet(declarer="E", contract="6S", defenders={"S": "pass", "N": "pass"},
                 auction=record, board={"players": 3, "number": 2})  # fmt: skip
    assert codes(data) == {}
    data["board"] = {"players": 3, "number": 1}
    assert codes(data) == {"auction.0": ["auction_first_hand"]}


@pytest.mark.parametrize(
    ("call", "field", "code"),
    [
        ("N", "auction.0", "call_format"),
        (42, "auction.0", "call_format"),
        ({"seat": "N"}, "auction.0", "call_format"),
        ("N 6X", "auction.0.call", "call_word"),
        ("X 6S", "auction.0.seat", "seat"),
        ({"seat": "N", "call": "6S", "suit": "S"}, "auction.0.suit", "unknown_field"),
    ],
)
def test_a_call_is_a_seat_and_a_word(call, field, code):
    data = deal(auction=[call, "E 7S", "S pass", "N pass"])
    assert codes(data) == {field: [code]}


def test_calls_may_be_typed_in_russian():
    data = deal(auction=["N 6♠", "E 7S", "S пас", "N здесь", "E 8S", "N пас"], contract="8S")
    assert codes(data) == {}
