"""Planning rooms to seat exactly N participants."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from movements import planner
from movements.engine import is_prime

PRIME_TABLES = [t for t in range(5, 98) if is_prime(t)]


def shape(option):
    return [(r.kind, r.tables, r.seats) for r in option.rooms]


def test_it_seats_20_in_one_prime_room_of_5_tables_of_4_first():
    result = planner.plan(20)
    assert shape(result.options[0]) == [("prime", 5, 4)]
    assert result.nearest == ()


def test_it_offers_13_plus_13_for_26_first():
    result = planner.plan(26)
    shapes = [[(r.kind, r.participants) for r in o.rooms] for o in result.options]
    assert [("scheme", 13), ("scheme", 13)] in shapes
    assert shapes[0] == [("scheme", 13), ("scheme", 13)]


@pytest.mark.parametrize(
    "n, nearest", [(19, (18, 20)), (14, (13, 15)), (10, (9, 12)), (7, (8,)), (1, (8,))]
)
def test_it_gives_the_nearest_counts_that_work_when_nothing_seats_n(n, nearest):
    result = planner.plan(n)
    assert result.options == ()
    assert result.nearest == nearest


@pytest.mark.parametrize("tables", PRIME_TABLES)
def test_it_prefers_a_single_prime_room_to_skip_rooms_and_splits(tables):
    for seats in (3, 4):
        first = planner.plan(tables * seats, limit=5).options[0]
        assert shape(first) == [("prime", tables, seats)]


@pytest.mark.parametrize("n", [8, 9, 13])
def test_it_offers_the_special_scheme_where_it_is_the_only_single_room(n):
    first = planner.plan(n).options[0]
    assert [(r.kind, r.participants) for r in first.rooms] == [("scheme", n)]


def test_it_puts_a_room_whose_deals_nobody_else_plays_after_one_where_they_are_compared():
    options = planner.plan(12).options
    assert shape(options[0]) == [("skip", 4, 3)]
    assert [r.kind for r in options[1].rooms] == ["scheme"]
    assert options[1].metrics()["every_deal_compared"] is False


def test_it_answers_400_participants_with_rooms_that_add_up():
    result = planner.plan(400)
    assert result.options
    for option in result.options:
        assert sum(r.participants for r in option.rooms) == 400
        assert len(option.rooms) <= 4


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 250))
def test_every_option_seats_exactly_n_ranked_best_first(n):
    result = planner.plan(n, limit=8)
    assert len(result.options) <= 8
    assert bool(result.options) != bool(result.nearest)
    keys = [o.key for o in result.options]
    assert keys == sorted(keys)
    for option in result.options:
        assert sum(r.participants for r in option.rooms) == n
        assert 1 <= len(option.rooms) <= 4
        m = option.metrics()
        assert m["set_repeats"] == 0
        assert 0 < m["coverage"] <= 1
        assert sum(m["pair_meetings"].values()) == n * (n - 1) // 2
    for m in result.nearest:
        assert planner.plan(m, limit=1).options, m


def test_room_figures_match_the_engine():
    from movements import engine

    for kind, tables, seats in [("prime", 7, 4), ("skip", 6, 4), ("skip", 9, 3)]:
        room = planner.room_summary(kind, tables, seats)
        m = engine.metrics(engine.movement(tables, seats, skip=kind == "skip"))
        assert {str(k): v for k, v in room.histogram} == m["pair_meetings"]
        assert room.skips == m["skips"]


def test_a_plan_is_json_serialisable_with_the_command_line_shape():
    doc = planner.plan(20).as_dict()
    assert json.loads(json.dumps(doc)) == doc
    assert doc["participants"] == 20 and doc["nearest"] == []
    room = doc["options"][0]["rooms"][0]
    assert {"kind", "tables", "seats", "participants", "rounds"} <= set(room)
    assert room["rounds"] == 5
    assert {"coverage", "pair_meetings", "set_repeats", "pauses", "rooms"} <= set(
        doc["options"][0]["metrics"]
    )


@pytest.mark.parametrize(
    "n, single",
    [
        (26, {"prime": [], "skip": [], "scheme": False}),
        (20, {"prime": [[5, 4]], "skip": [], "scheme": False}),
        (15, {"prime": [[5, 3]], "skip": [], "scheme": False}),
        (24, {"prime": [], "skip": [[6, 4], [8, 3]], "scheme": True}),
        (28, {"prime": [[7, 4]], "skip": [], "scheme": False}),
        (13, {"prime": [], "skip": [], "scheme": True}),
    ],
)
def test_it_says_which_single_rooms_seat_a_count(n, single):
    assert planner.single_rooms(n) == single


def test_a_count_without_a_single_room_is_offered_only_splits():
    for n in (26, 34, 38):
        if not any(planner.single_rooms(n).values()):
            assert all(len(o.rooms) > 1 for o in planner.plan(n).options), n


def test_the_session_lasts_rounds_times_deals_per_set_times_minutes_per_deal():
    room = planner.room_summary("scheme", 0, 0, 13)
    assert (room.rounds, room.deals_per_set, room.deals) == (13, 4, 52)
    assert room.minutes(5) == 260  # 4 h 20 min
    three = planner.room_summary("prime", 5, 3)
    assert (three.deals_per_set, three.minutes(5), three.minutes(7)) == (3, 75, 105)


def test_the_longest_room_sets_the_session_length():
    option = planner.option_of(
        [planner.room_summary("skip", 6, 3), planner.room_summary("scheme", 0, 0, 8)]
    )
    m = option.metrics(minutes_per_deal=5)
    assert m["deals_per_set"] == {"min": 3, "max": 4}
    assert m["session"] == {"minutes_per_deal": 5, "minutes": 7 * 4 * 5}


def test_twin_rooms_count_together_in_the_tables_per_deal():
    thirteen = planner.room_summary("scheme", 0, 0, 13)
    twins = planner.option_of([thirteen, thirteen]).metrics()
    assert twins["tables_per_set"] == {"min": 1, "max": 2}
    assert twins["tables_per_deal"] == {"min": 2, "max": 4}
    alone = planner.option_of([thirteen]).metrics()
    assert alone["tables_per_deal"] == {"min": 1, "max": 2}
    assert alone["every_deal_compared"] is False


@settings(max_examples=40, deadline=None)
@given(n=st.integers(8, 120))
def test_every_deal_is_compared_exactly_when_each_is_played_at_two_tables_or_more(n):
    for option in planner.plan(n, limit=5).options:
        m = option.metrics()
        assert m["every_deal_compared"] is (m["tables_per_deal"]["min"] >= 2)
        assert m["session"]["minutes"] == max(
            r.rounds * r.seats * planner.MINUTES_PER_DEAL for r in option.rooms
        )
