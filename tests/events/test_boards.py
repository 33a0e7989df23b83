"""The layout of the duplicate box: who is first hand, who sits out, where the talon is."""

from collections import Counter

import pytest

from events.boards import (
    CLOCKWISE,
    Seat,
    board_layout,
    board_position,
    clockwise_from,
    deals_per_set,
    inferred_first_hand,
    left_of,
    set_layout,
)

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def test_seats_go_clockwise_w_n_e_s():
    assert CLOCKWISE == (W, N, E, S)
    assert [left_of(s) for s in CLOCKWISE] == [N, E, S, W]


def test_clockwise_from_starts_with_the_given_seat():
    assert clockwise_from(S, [N, E, S]) == (S, N, E)
    assert clockwise_from(E, [E, S, W]) == (E, S, W)
    with pytest.raises(ValueError):
        clockwise_from(W, [N, E, S])


def test_a_three_player_set_has_three_deals_with_the_talon_in_the_w_pocket():
    deals = set_layout(3)
    assert [d.number for d in deals] == [1, 2, 3]
    assert [d.first_hand for d in deals] == [N, E, S]
    for d in deals:
        assert d.talon_pocket is W
        assert d.talon_keeper is N
        assert d.dealer is None
        assert d.sits_out is None
        assert d.dealer_label is d.first_hand
        assert set(d.active_seats) == {N, E, S}
        assert d.active_seats[0] is d.first_hand


def test_a_four_player_set_has_four_deals_and_the_dealer_sits_out():
    deals = set_layout(4)
    assert [d.dealer for d in deals] == [W, N, E, S]
    assert [d.first_hand for d in deals] == [N, E, S, W]
    for d in deals:
        assert d.sits_out is d.dealer
        assert d.talon_pocket is d.dealer
        assert d.dealer not in d.active_seats
        assert d.first_hand is left_of(d.dealer)
        assert d.active_seats == clockwise_from(d.first_hand, set(CLOCKWISE) - {d.dealer})


@pytest.mark.parametrize("players", [3, 4])
def test_each_player_is_first_hand_once_per_round(players):
    deals = set_layout(players)
    assert len(deals) == deals_per_set(players) == players
    counts = Counter(d.first_hand for d in deals)
    assert all(count == 1 for count in counts.values())
    assert len(counts) == players


def test_each_player_sits_out_once_at_a_four_player_table():
    assert Counter(d.sits_out for d in set_layout(4)) == Counter(CLOCKWISE)


def test_first_hand_is_inferred_from_the_seat_that_sits_out():
    assert inferred_first_hand([E, S, W]) is E  # N deals
    assert inferred_first_hand([N, S, W]) is S  # E deals
    assert inferred_first_hand([N, E, W]) is W  # S deals
    assert inferred_first_hand([N, E, S]) is None  # 3 players, or W deals: undecided
    assert inferred_first_hand([N, E]) is None


def test_boards_are_numbered_on_across_sets():
    assert board_position(1, 3) == (1, 1)
    assert board_position(3, 3) == (1, 3)
    assert board_position(4, 3) == (2, 1)
    assert board_position(8, 4) == (2, 4)
    assert board_position(9, 4) == (3, 1)


@pytest.mark.parametrize(("players", "number"), [(2, 1), (5, 1), (3, 0), (3, 4), (4, 5)])
def test_it_rejects_a_deal_that_is_not_in_the_set(players, number):
    with pytest.raises(ValueError):
        board_layout(players, number)


def test_it_rejects_board_zero():
    with pytest.raises(ValueError):
        board_position(0, 3)
