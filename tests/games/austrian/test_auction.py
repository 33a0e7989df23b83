"""The auction of seed 004: valid and invalid call sequences (scoring.games.austrian.check_auction)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.boards import Seat
from scoring.games.austrian import (
    AUSTRIAN_SUIT_ORDER,
    SEED_SUIT_ORDER,
    AuctionOutcome,
    Call,
    Contract,
    Deal,
    Defence,
    InvalidInput,
    Rules,
    Suit,
    check_auction,
    deal_from_json,
    settle_json,
    validate,
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
    # E was outbid by S and cannot hold against N, who spoke earlier: E can only pass.
    result = outcome("N one", "E two", "S three", "N hold", "E pass", "S four", "N hold", "S pass")
    assert result == AuctionOutcome(N, Contract.FOUR)


def test_an_outbid_player_with_priority_holds_the_third_players_number():
    result = outcome("N one", "E two", "S three", "N pass", "E hold", "S four", "E hold", "S pass")
    assert result == AuctionOutcome(E, Contract.FOUR)


def test_the_held_player_may_pass_and_leave_the_contract_to_the_holder():
    assert outcome("N pass", "E one", "S two", "E hold", "S pass") == AuctionOutcome(
        E, Contract.TWO
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
    held_at_four = ("N one", "E two", "S pass", "N hold", "E three", "N hold", "E four", "N hold")
    assert refused(*held_at_four, "E four") == {"auction.8": ["no_number_above_four"]}


def test_an_outbid_player_may_not_name_a_higher_number():
    # Issue 9: «N раз, E два, S пас, N три» — N was outbid, so only «здесь» or «пас».
    assert refused("N one", "E two", "S pass", "N three") == {"auction.3": ["outbid_number"]}


def test_an_outbid_player_may_not_repeat_the_number_either():
    assert refused("N one", "E two", "S pass", "N two") == {"auction.3": ["outbid_number"]}


def test_an_outbid_player_may_not_name_a_number_after_holding_before():
    seq = ("N one", "E two", "S pass", "N hold", "E three")
    assert refused(*seq, "N four") == {"auction.5": ["outbid_number"]}


def test_a_player_outbid_without_priority_can_only_pass():
    # S outbid E; N (earlier than E) holds S's «три»: E may neither hold nor name «четыре».
    seq = ("N one", "E two", "S three", "N hold")
    assert refused(*seq, "E four") == {"auction.4": ["outbid_number_pass"]}
    assert outcome(*seq, "E pass", "S pass") == AuctionOutcome(N, Contract.THREE)


def test_the_outbid_refusal_reads_naturally_in_both_languages():
    _, problems = check_auction(calls("N one", "E two", "S pass", "N three"), THREE_HANDED)
    assert problems.render() == {
        "auction.3": "цифру N перебили: теперь N может только сказать «здесь» или спасовать, "
        "назвать цифру выше нельзя"
    }
    assert problems.render("en") == {
        "auction.3": "N was outbid: he may only hold or pass, not name a higher number"
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
        "auction.4": ["outbid_no_hold"]
    }


def test_the_hold_refusal_names_the_next_number():
    _, problems = check_auction(calls("N one", "E two", "S pass", "N hold", "E hold"), THREE_HANDED)
    assert problems.render() == {
        "auction.4": "«здесь» может сказать только тот, кто говорил раньше N: E должен назвать "
        "«три» или спасовать"
    }


def test_the_hold_refusal_at_four_says_only_a_pass_is_left():
    held_at_four = ("N one", "E two", "S pass", "N hold", "E three", "N hold", "E four", "N hold")
    _, problems = check_auction(calls(*held_at_four, "E hold"), THREE_HANDED)
    assert problems.codes() == {"auction.8": ["hold_priority_four"]}
    assert problems.render() == {
        "auction.8": "«здесь» может сказать только тот, кто говорил раньше N, а выше «четыре» "
        "цифр нет: E может только спасовать"
    }
    assert "«пас» или пас" not in problems.render()["auction.8"]


def test_game_cannot_be_held():
    assert refused("N one", "E game clubs", "S pass", "N hold") == {"auction.3": ["hold_nothing"]}


def test_game_is_not_bid_in_hearts():
    assert refused("N game hearts") == {"auction.0.suit": ["game_in_hearts"]}


def test_game_after_two_is_not_bid_below_the_level_reached():
    assert refused("N one", "E two", "S game spades") == {
        "auction.2.suit": ["game_suit_below_level"]
    }
    assert outcome("N one", "E two", "S game clubs", "N pass", "E pass") == AuctionOutcome(
        S, Contract.GAME, Suit.CLUBS
    )


def test_game_after_two_follows_the_events_suit_order():
    assert refused("N one", "E two", "S game clubs", order=AUSTRIAN_SUIT_ORDER) == {
        "auction.2.suit": ["game_suit_below_level"]
    }
    seq = ("N one", "E two", "S game spades", "N pass", "E pass")
    assert outcome(*seq, order=AUSTRIAN_SUIT_ORDER).suit is Suit.SPADES


def test_game_after_one_may_be_in_spades():
    assert outcome("N one", "E game spades", "S pass", "N pass").suit is Suit.SPADES


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


def test_a_passed_out_sheet_naming_a_declarer_gets_one_clear_error():
    data = {
        "contract": "passed",
        "declarer": "N",
        "seats": ["N", "E", "S"],
        "auction": ["N pass", "E pass", "S pass"],
    }
    with pytest.raises(InvalidInput) as caught:
        deal_from_json(data)
    assert caught.value.problems.codes() == {"declarer": ["passed_out_field"]}
    assert caught.value.render() == {
        "declarer": "в распасованной сдаче нет разыгрывающего: все спасовали в торговле, "
        "никто не играет"
    }
    assert caught.value.render("en") == {
        "declarer": "a passed-out deal has no declarer: everybody passed in the auction, "
        "nobody plays"
    }


def test_a_passed_out_sheet_whose_auction_has_a_contract_says_so():
    data = {
        "contract": "passed",
        "seats": ["N", "E", "S"],
        "auction": ["N one", "E pass", "S pass"],
    }
    with pytest.raises(InvalidInput) as caught:
        deal_from_json(data)
    assert caught.value.render() == {
        "auction": "по торговле — N играет «раз», а в протоколе — распас"
    }


def test_a_sheet_without_a_declarer_reports_only_the_missing_declarer():
    data = {k: v for k, v in BASE.items() if k != "declarer"}
    data["auction"] = ["N one", "E pass", "S pass"]
    assert problems_of(data) == {"declarer": ["required"]}


GAME_AFTER_TWO = {
    "declarer": "S",
    "contract": "game",
    "defenders": {"N": "whist", "E": "whist"},
    "tricks": {"S": 6, "N": 2, "E": 2},
    "auction": ["N one", "E two", "S game", "N pass", "E pass"],
}


def test_game_after_two_may_not_be_in_spades():
    data = dict(GAME_AFTER_TWO, trump="spades")
    assert problems_of(data) == {"trump": ["game_trump_below_level"]}
    with pytest.raises(InvalidInput) as caught:
        deal_from_json(data)
    assert caught.value.render() == {
        "trump": "«игра» после «два» в торговле: козырь не ниже достигнутого — трефы или бубны"
    }


@pytest.mark.parametrize("trump", ["clubs", "diamonds"])
def test_game_after_two_is_played_in_clubs_or_diamonds(trump):
    assert settle_json(dict(GAME_AFTER_TWO, trump=trump))["failed"] == []


def test_game_after_two_in_the_pagat_order_is_not_in_clubs():
    pagat = {"suit_order": "pagat"}
    assert problems_of(dict(GAME_AFTER_TWO, trump="clubs", rules=pagat)) == {
        "trump": ["game_trump_below_level"]
    }
    assert settle_json(dict(GAME_AFTER_TWO, trump="spades", rules=pagat))["failed"] == []


def test_game_without_an_auction_may_be_in_any_suit_but_hearts():
    data = {k: v for k, v in GAME_AFTER_TWO.items() if k != "auction"}
    assert settle_json(dict(data, trump="spades"))["failed"] == []


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


# --- Properties ---------------------------------------------------------------------------

NUMBERS = ("one", "two", "three", "four")
SUITS = (None, *Suit)


@st.composite
def auctions(draw):
    """Calls by the three players in turn (passers and «игра» bidders are skipped, as at the
    table), numbers mostly one above the last: near-legal auctions, the engine decides.

    Returns (accepted, refused, suit order): the calls the engine accepted, in order, and
    the calls it refused on the way as (how many calls were accepted before, call)."""
    order = [N, E, S]
    suit_order = draw(st.sampled_from([SEED_SUIT_ORDER, AUSTRIAN_SUIT_ORDER]))
    out: set[Seat] = set()
    accepted: list[Call] = []
    refused: list[tuple[int, Call]] = []
    turn, level = 0, 0
    for _ in range(draw(st.integers(1, 20))):
        if len(out) == 3 or legal(accepted, suit_order):
            break
        while order[turn % 3] in out:
            turn += 1
        seat = order[turn % 3]
        kind = draw(st.sampled_from(["next", "next", "hold", "pass", "pass", "game", "number",
                                     "hearts"]))  # fmt: skip
        if kind == "next":
            bid = NUMBERS[min(level, 3)]
        elif kind == "number":
            bid = draw(st.sampled_from(NUMBERS))
        else:
            bid = kind
        suit = draw(st.sampled_from(SUITS)) if bid == "game" else None
        call = Call(seat, bid, suit)
        if legal([*accepted, call], suit_order) is False:
            refused.append((len(accepted), call))
            continue
        accepted.append(call)
        level = max(level, call.bid.level or 0)
        if bid in ("pass", "game"):
            out.add(seat)
        turn += 1
    return accepted, refused, suit_order


def legal(calls_, order):
    """The outcome of a legal (perhaps unfinished) auction, or False if a call is refused."""
    result, problems = check_auction(calls_, THREE_HANDED, N, order)
    if problems.codes() in ({}, {"auction": ["auction_unfinished"]}):
        return result
    return False


def outbid_numbers(calls_):
    """Indexes of numbers named by a player whose last number was outbid since."""
    found = []
    for i, call in enumerate(calls_):
        mine = [j for j in range(i) if calls_[j].seat is call.seat and calls_[j].bid.level]
        if call.bid.level and mine and any(c.bid.level for c in calls_[mine[-1] + 1 : i]):
            found.append(i)
    return found


@settings(max_examples=400)
@given(auctions())
def test_no_accepted_auction_lets_an_outbid_player_name_a_number_again(drawn):
    accepted, refused, order = drawn
    assert outbid_numbers(accepted) == []
    for before, call in refused:
        tried = [*accepted[:before], call]
        if outbid_numbers(tried):
            # Refused, and for that reason (or because «игра» was bid: numbers are over).
            _, problems = check_auction(tried, THREE_HANDED, N, order)
            codes = problems.codes()[f"auction.{before}"]
            assert codes in (["outbid_number"], ["outbid_number_pass"], ["number_after_game"])


def next_speaker(calls_, order):
    """Who speaks next in an unfinished legal auction (None when it is over)."""
    _, problems = check_auction(calls_, THREE_HANDED, N, order)
    unfinished = problems.by_field.get("auction")
    return unfinished[0].params["seat"] if unfinished else None


@settings(max_examples=400)
@given(auctions())
def test_a_held_player_may_always_name_the_next_number(drawn):
    accepted, _, order = drawn
    for end in range(1, len(accepted) + 1):
        prefix = accepted[:end]
        if prefix[-1].bid != "hold":
            continue
        level = max(c.bid.level or 0 for c in prefix)
        held = [c.seat for c in prefix if c.bid.level == level][-1]
        if level < 4 and next_speaker(prefix, order) is held:
            assert legal([*prefix, Call(held, NUMBERS[level])], order) is not False


@settings(max_examples=400)
@given(auctions())
def test_an_accepted_game_call_is_never_below_the_number_reached(drawn):
    calls_, _, order = drawn
    reached = 0
    for call in calls_:
        if call.bid.level:
            reached = call.bid.level
        if call.bid == "game" and call.suit is not None:
            assert call.suit is not Suit.HEARTS
            assert order.index(call.suit) + 1 >= reached


@settings(max_examples=400)
@given(auctions(), st.sampled_from(list(Suit)))
def test_the_trump_of_game_after_a_number_is_never_below_that_number(drawn, trump):
    calls_, _, order = drawn
    result = legal(calls_, order)
    if not result or result.contract is not Contract.GAME:
        return
    reached = max((c.bid.level or 0 for c in calls_), default=0)
    deal = Deal(
        contract=Contract.GAME,
        declarer=result.declarer,
        trump=trump,
        defenders={s: Defence.PASS for s in THREE_HANDED if s is not result.declarer},
        auction=tuple(calls_),
        rules=Rules(suit_order=order),
    )
    rank = order.index(trump) + 1
    expected_ok = (
        trump is not Suit.HEARTS
        and rank >= max(reached, 1)
        and (result.suit is None or result.suit is trump)
    )
    assert (not validate(deal)) is expected_ok, validate(deal).codes()
