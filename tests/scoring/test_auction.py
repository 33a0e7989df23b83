"""The auction of seed 004: valid and invalid call sequences (scoring/rules.check_auction)."""

import pytest

from scoring.boards import Seat
from scoring.rules import (
    AUSTRIAN_SUIT_ORDER,
    SEED_SUIT_ORDER,
    AuctionOutcome,
    Call,
    Contract,
    InvalidInput,
    Suit,
    check_auction,
    deal_from_json,
    settle_json,
)

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
THREE_HANDED = (N, E, S)


def calls(*texts: str) -> list[Call]:
    """«N one», «E game clubs» → calls."""
    result = []
    for text in texts:
        seat, bid, *suit = text.split()
        result.append(Call(seat, bid, suit[0] if suit else None))
    return result


def outcome(*texts: str, active=THREE_HANDED, first=None, order=SEED_SUIT_ORDER):
    result, problems = check_auction(calls(*texts), active, first, order)
    assert not problems, problems.codes()
    return result


def refused(*texts: str, active=THREE_HANDED, first=None, order=SEED_SUIT_ORDER):
    result, problems = check_auction(calls(*texts), active, first, order)
    assert result is None
    return problems.codes()


# --- Valid auctions -----------------------------------------------------------------------


def test_all_passing_passes_the_deal_out():
    assert outcome("N pass", "E pass", "S pass") == AuctionOutcome(None, Contract.PASSED)


def test_one_and_two_passes_make_first_hand_the_declarer():
    assert outcome("N one", "E pass", "S pass") == AuctionOutcome(N, Contract.ONE)


def test_the_last_player_may_still_bid_after_two_passes():
    assert outcome("N pass", "E pass", "S one") == AuctionOutcome(S, Contract.ONE)


def test_first_hand_is_whoever_speaks_first_at_a_three_player_table():
    assert outcome("E one", "S two", "N pass", "E pass") == AuctionOutcome(S, Contract.TWO)


def test_an_outbid_player_may_hold():
    assert outcome("N one", "E two", "S pass", "N hold", "E pass") == AuctionOutcome(
        N, Contract.TWO
    )


def test_after_a_hold_the_other_names_the_next_number():
    result = outcome(
        "N one", "E two", "S pass", "N hold", "E three", "N hold", "E four", "N hold", "E pass"
    )
    assert result == AuctionOutcome(N, Contract.FOUR)


def test_a_hold_by_the_earliest_speaker_against_a_third_player():
    result = outcome("N one", "E two", "S three", "N hold", "E four", "S pass", "N hold", "E pass")
    assert result == AuctionOutcome(N, Contract.FOUR)


def test_the_earlier_speaker_may_name_the_next_number_instead_of_holding():
    assert outcome("N one", "E two", "S pass", "N three", "E pass") == AuctionOutcome(
        N, Contract.THREE
    )


def test_game_overcalls_numbers():
    result = outcome("N one", "E game clubs", "S pass", "N pass")
    assert result == AuctionOutcome(E, Contract.GAME, Suit.CLUBS)


def test_a_single_game_bid_needs_no_suit():
    assert outcome("N game", "E pass", "S pass") == AuctionOutcome(N, Contract.GAME, None)


def test_the_higher_game_suit_wins():
    result = outcome("N game spades", "E game diamonds", "S pass")
    assert result == AuctionOutcome(E, Contract.GAME, Suit.DIAMONDS)


def test_a_later_game_in_a_lower_suit_is_legal_and_loses():
    result = outcome("N game diamonds", "E game spades", "S pass")
    assert result == AuctionOutcome(N, Contract.GAME, Suit.DIAMONDS)


def test_on_equal_game_suits_the_earlier_speaker_wins():
    result = outcome("N game clubs", "E pass", "S game clubs")
    assert result == AuctionOutcome(N, Contract.GAME, Suit.CLUBS)


def test_the_game_suit_order_follows_the_event_rule():
    seq = ("N game spades", "E game clubs", "S pass")
    assert outcome(*seq, order=SEED_SUIT_ORDER).declarer is E
    assert outcome(*seq, order=AUSTRIAN_SUIT_ORDER).declarer is N


def test_hearts_ends_the_auction_at_once():
    assert outcome("N one", "E hearts") == AuctionOutcome(E, Contract.HEARTS, Suit.HEARTS)


def test_hearts_overcalls_game():
    assert outcome("N game diamonds", "E hearts").declarer is E


def test_a_four_player_table_starts_on_the_dealers_left():
    # N deals and sits out: E is first hand.
    active = (E, S, W)
    assert outcome("E one", "S pass", "W two", "E pass", active=active, first=E) == (
        AuctionOutcome(W, Contract.TWO)
    )


def test_a_deal_with_a_matching_auction_settles():
    data = {
        "declarer": "E",
        "contract": "two",
        "trump": "clubs",
        "defenders": {"S": "whist", "N": "pass"},
        "tricks": {"E": 7, "S": 3},
        "auction": [
            {"seat": "N", "call": "one"},
            {"seat": "E", "call": "two"},
            {"seat": "S", "call": "pass"},
            {"seat": "N", "call": "hold"},
            {"seat": "E", "call": "three"},
            {"seat": "N", "call": "pass"},
        ],
    }
    assert problems_of(data) == {"auction": ["auction_mismatch"]}
    data["contract"] = "three"
    assert problems_of(data) == {"trump": ["trump_below_level"]}
    data["trump"] = "diamonds"
    assert settle_json(data)["scores"] == {"E": 70, "S": 30, "N": 0}


def test_russian_words_and_short_strings_are_accepted():
    data = {
        "declarer": "N",
        "contract": "two",
        "trump": "hearts",
        "defenders": {"E": "whist", "S": "whist"},
        "tricks": {"N": 6, "E": 2, "S": 2},
        "auction": ["N раз", "E два", "S пас", "N здесь", "E пас"],
    }
    assert settle_json(data)["failed"] == []
    data["auction"] = ["N: раз", "E: два", "S: пас", "N: держу", "E: пас"]
    assert settle_json(data)["failed"] == []


def test_a_passed_out_deal_may_carry_its_auction():
    data = {
        "contract": "passed",
        "seats": ["N", "E", "S"],
        "auction": ["N pass", "E pass", "S pass"],
    }
    assert settle_json(data)["scores"] == {"N": 0, "E": 0, "S": 0}


# --- Invalid auctions ---------------------------------------------------------------------


def test_numbers_rise_by_one_without_jumps():
    assert refused("N one", "E three") == {"auction.1": ["numbers_by_one"]}


def test_the_numbers_start_at_one():
    assert refused("N two") == {"auction.0": ["numbers_by_one"]}


def test_there_is_no_number_above_four():
    assert refused("N one", "E two", "S three", "N four", "E four") == {
        "auction.4": ["no_number_above_four"]
    }


def test_a_pass_is_final():
    assert refused("N one", "E pass", "S two", "E three") == {"auction.3": ["passed_for_good"]}


def test_players_speak_in_turn():
    assert refused("N one", "S two") == {"auction.1": ["out_of_turn"]}


def test_a_player_who_named_a_number_cannot_bid_game_later():
    assert refused("N one", "E two", "S pass", "N game clubs") == {
        "auction.3": ["no_talon_after_number"]
    }


def test_a_player_who_named_a_number_cannot_bid_hearts_later():
    assert refused("N one", "E two", "S pass", "N hearts") == {
        "auction.3": ["no_talon_after_number"]
    }


def test_a_number_cannot_overcall_game():
    assert refused("N game clubs", "E one") == {"auction.1": ["number_after_game"]}


def test_only_a_player_who_named_a_number_can_hold():
    assert refused("N one", "E hold") == {"auction.1": ["hold_needs_number"]}


def test_a_later_speaker_cannot_hold():
    assert refused("N one", "E two", "S pass", "N hold", "E hold") == {
        "auction.4": ["hold_priority"]
    }


def test_a_later_speaker_cannot_hold_against_an_earlier_holder():
    assert refused("N one", "E two", "S three", "N hold", "E hold") == {
        "auction.4": ["hold_priority"]
    }


def test_game_cannot_be_held():
    assert refused("N one", "E game clubs", "S pass", "N hold") == {"auction.3": ["hold_nothing"]}


def test_game_is_not_bid_in_hearts():
    assert refused("N game hearts") == {"auction.0.suit": ["game_in_hearts"]}


def test_nothing_is_said_after_hearts():
    assert refused("N hearts", "E pass") == {"auction.1": ["auction_over"]}


def test_nothing_is_said_after_the_auction_ends():
    assert refused("N one", "E pass", "S pass", "N two") == {"auction.3": ["auction_over"]}


def test_an_unfinished_auction_is_refused():
    assert refused("N one", "E two") == {"auction": ["auction_unfinished"]}
    assert refused() == {"auction": ["auction_unfinished"]}


def test_two_game_bidders_need_their_suits():
    assert refused("N game", "E game", "S pass") == {"auction": ["auction_game_suits"]}


def test_a_seat_outside_the_deal_cannot_bid():
    assert refused("W one") == {"auction.0": ["seat_not_active"]}
    assert refused("N one", "W pass") == {"auction.1": ["seat_not_active"]}


def test_the_auction_starts_with_first_hand():
    assert refused("S one", first=N) == {"auction.0": ["auction_first_hand"]}


# --- The auction against the score sheet --------------------------------------------------


def problems_of(data) -> dict[str, list[str]]:
    with pytest.raises(InvalidInput) as caught:
        deal_from_json(data)
    return caught.value.problems.codes()


BASE = {
    "declarer": "N",
    "contract": "one",
    "trump": "spades",
    "defenders": {"E": "whist", "S": "whist"},
    "tricks": {"N": 6, "E": 2, "S": 2},
}


def test_the_auction_must_yield_the_entered_contract():
    data = dict(BASE, auction=["N one", "E two", "S pass", "N hold", "E pass"])
    assert problems_of(data) == {"auction": ["auction_mismatch"]}


def test_the_auction_must_yield_the_entered_declarer():
    data = dict(BASE, auction=["N pass", "E one", "S pass"])
    with pytest.raises(InvalidInput) as caught:
        deal_from_json(data)
    assert caught.value.render() == {
        "auction": "по торговле — E играет «раз», а в протоколе — N играет «раз»"
    }


def test_a_passed_out_auction_needs_a_passed_out_deal():
    data = dict(BASE, auction=["N pass", "E pass", "S pass"])
    assert problems_of(data) == {"auction": ["auction_mismatch"]}


def test_the_game_suit_must_be_the_trump():
    data = dict(
        BASE, contract="game", trump="clubs", auction=["N game diamonds", "E pass", "S pass"]
    )
    assert problems_of(data) == {"auction": ["auction_game_trump"]}


def test_a_four_player_deal_infers_first_hand_from_the_dealer():
    data = {
        "declarer": "S",
        "contract": "one",
        "trump": "clubs",
        "defenders": {"E": "whist", "W": "whist"},
        "tricks": {"S": 6, "E": 2, "W": 2},
        "auction": ["S one", "W pass", "E pass"],
    }
    # N sits out, so E (on N's left) opens the auction.
    assert problems_of(data) == {"auction.0": ["auction_first_hand"]}
    data["auction"] = ["E pass", "S one", "W pass"]
    assert settle_json(data)["failed"] == []


def test_a_board_names_first_hand_for_a_three_player_table():
    data = dict(BASE, board={"players": 3, "number": 2}, auction=["N one", "E pass", "S pass"])
    assert problems_of(data) == {"auction.0": ["auction_first_hand"]}
    data["auction"] = ["E pass", "S pass", "N one"]
    assert settle_json(data)["failed"] == []


@pytest.mark.parametrize(
    ("call", "codes"),
    [
        ({"seat": "N"}, {"auction.0": ["call_format"]}),
        ("N", {"auction.0": ["call_format"]}),
        ("N double", {"auction.0.call": ["choice"]}),
        ({"seat": "X", "call": "one"}, {"auction.0.seat": ["seat"]}),
        ({"seat": "N", "call": "one", "suit": "clubs"}, {"auction.0.suit": ["unknown_field"]}),
        ({"seat": "N", "call": "one", "bid": 1}, {"auction.0.bid": ["unknown_field"]}),
    ],
)
def test_a_call_names_a_seat_and_a_known_bid(call, codes):
    assert problems_of(dict(BASE, auction=[call, "E pass", "S pass"])) == codes


def test_the_auction_is_a_list():
    assert problems_of(dict(BASE, auction="N one")) == {"auction": ["not_list"]}


def test_auction_messages_are_in_russian():
    with pytest.raises(InvalidInput) as caught:
        deal_from_json(dict(BASE, auction=["N one", "E three"]))
    assert caught.value.render() == {
        "auction.1": "цифры повышаются по одной, без скачков: сейчас можно только «два»"
    }
