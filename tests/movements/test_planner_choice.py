"""The planner's seats choice, its promises, its ranking codes and why no single room fits."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movements import planner
from movements.engine import MovementError


def shape(option):
    return [(r.kind, r.tables, r.seats) for r in option.rooms]


# --- seats per table ----------------------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4])
def test_it_keeps_only_rooms_of_the_seats_asked_for(seats):
    options = planner.plan(33, seats=seats).options
    assert options
    assert all(r.seats == seats for o in options for r in o.rooms)


def test_33_at_tables_of_3_is_the_prime_rule_on_11_tables_first():
    assert shape(planner.plan(33, seats=3).options[0]) == [("prime", 11, 3)]


def test_33_at_tables_of_4_has_no_single_room_and_says_so():
    result = planner.plan(33, seats=4)
    assert all(len(o.rooms) > 1 for o in result.options)
    one = planner.one_room(33, seats=4)
    assert (one.fits, one.reason) == (False, "indivisible")
    assert (one.below.participants, one.below.seats) == (32, 4)
    assert (one.above.participants, one.above.seats) == (36, 4)


def test_the_nearest_counts_follow_the_seats_asked_for():
    # Tables of 3 only: no scheme, and one room needs 4 tables (12 players); two rooms 24.
    assert planner.plan(10, seats=3).nearest == (12,)
    assert planner.plan(13, seats=3).nearest == (12, 15)
    assert planner.plan(13).options  # the special scheme for 13 has tables of 4


def test_any_seats_is_the_plan_of_old():
    assert planner.plan(26, seats=None).options == planner.plan(26).options


def test_it_refuses_a_table_of_five():
    with pytest.raises(MovementError, match="3 or 4"):
        planner.plan(20, seats=5)


# --- one room -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n, reason, below, above",
    [
        (31, "indivisible", ("skip", 30, 10, 3), ("skip", 32, 8, 4)),
        (34, "indivisible", ("prime", 33, 11, 3), ("skip", 36, 12, 3)),
        (26, "indivisible", ("skip", 24, 6, 4), ("skip", 27, 9, 3)),
        (10, "too_few", ("scheme", 9, 2, 4), ("skip", 12, 4, 3)),
        (5, "too_few", None, ("scheme", 8, 2, 4)),
    ],
)
def test_it_says_why_no_single_room_seats_a_count_and_the_nearest_that_do(n, reason, below, above):
    one = planner.one_room(n)
    assert (one.fits, one.reason) == (False, reason)

    def figures(room):
        return None if room is None else (room.kind, room.participants, room.tables, room.seats)

    assert (figures(one.below), figures(one.above)) == (below, above)


@pytest.mark.parametrize("n", [33, 28, 24, 13, 12, 9, 8])
def test_a_count_one_room_seats_fits(n):
    one = planner.one_room(n)
    assert one.fits and one.reason == "" and one.below is None and one.above is None


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 150), seats=st.sampled_from([None, 3, 4]))
def test_one_room_fits_exactly_when_a_single_room_option_exists(n, seats):
    one = planner.one_room(n, seats=seats)
    single = any(len(o.rooms) == 1 for o in planner.plan(n, seats=seats, limit=50).options)
    assert one.fits is single
    if not one.fits:
        # the nearest below and above, nothing one room seats in between
        low = one.below.participants if one.below else 0
        high = one.above.participants if one.above else n + 1
        assert low < n < high
        assert all(planner.best_single_room(m, seats) is None for m in range(low + 1, high))
        for room in (one.below, one.above):
            if room is not None:
                assert seats in (None, room.seats)


# --- promises and ranking -----------------------------------------------------------------


def test_the_prime_rule_promises_everything_it_keeps():
    best = planner.plan(33).options[0]
    assert best.promises() == planner.PROMISES  # one prime room: all of them


def test_promises_are_read_off_the_figures():
    twins = planner.plan(26).options[0]  # 13 + 13: pauses, two rooms, routes not lines
    kept = twins.promises()
    assert "every_deal_compared" in kept and "no_set_repeats" in kept
    assert not {"no_pauses", "one_room", "other_lines_once", "every_set"} & set(kept)
    skip = planner.option_of([planner.room_summary("skip", 6, 4)])
    assert "no_skips" not in skip.promises() and "every_set" in skip.promises()
    alone = planner.option_of([planner.room_summary("scheme", 0, 0, 12)])
    assert "every_deal_compared" not in alone.promises()


@settings(max_examples=30, deadline=None)
@given(n=st.integers(8, 90))
def test_promises_keep_the_declared_order(n):
    for option in planner.plan(n, limit=5).options:
        kept = option.promises()
        assert list(kept) == [p for p in planner.PROMISES if p in kept]
        assert ("no_pauses" in kept) is (option.metrics()["pauses"] == 0)


def test_the_ranking_codes_name_every_step_of_the_sort_key():
    room = planner.room_summary("prime", 5, 4)
    assert len(planner.RANKING) == len(planner._rank_key((room,)))
    assert len(set(planner.RANKING)) == len(planner.RANKING)


def test_the_options_come_in_the_ranking_order():
    options = planner.plan(33).options
    keys = [planner._rank_key(o.rooms) for o in options]
    assert keys == sorted(keys)


def test_the_json_keeps_its_keys_and_adds_seats_ranking_one_room_and_promises():
    doc = json.loads(json.dumps(planner.plan(31, seats=4).as_dict(3)))
    assert {"participants", "options", "nearest", "single_room"} <= set(doc)
    assert doc["seats"] == 4 and doc["ranking"] == list(planner.RANKING)
    one = doc["one_room"]
    assert (one["fits"], one["reason"], one["seats"]) == (False, "indivisible", 4)
    assert one["below"]["participants"] == 28 and one["above"]["participants"] == 32
    assert one["below"]["minutes"] == 7 * 4 * 3
    option = doc["options"][0]
    assert {"rooms", "metrics", "promises"} <= set(option)
    assert set(option["promises"]) <= set(planner.PROMISES)
