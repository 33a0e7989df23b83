"""Who met whom and each session's lines (movements.meetings, pure)."""

from math import comb

from movements import engine, meetings, planner


def test_only_seats_at_one_table_in_one_round_count_as_meetings():
    seating = {
        1: {1: {"N": 1, "E": 2, "S": 3}, 2: {"N": 4, "E": 5, "S": 6}},
        2: {1: {"N": 1, "E": 5, "S": 6}},  # 2, 3, 4 pause: they meet nobody
    }
    assert meetings.met_pairs(seating) == {
        (1, 2),
        (1, 3),
        (2, 3),
        (4, 5),
        (4, 6),
        (5, 6),
        (1, 5),
        (1, 6),
    }


def test_a_players_line_is_the_position_he_held_most_ties_going_to_his_first_round():
    seating = {
        1: {1: {"N": 10, "E": 20}},
        2: {1: {"E": 10, "N": 20}},
        3: {1: {"N": 10, "S": 20}},
    }
    # 10 held N twice; 20 held E, N, S once each: his first round's position, E
    assert meetings.player_lines(seating) == {"N": [10], "E": [20]}


def test_a_prime_room_meets_every_cross_line_pair_once_and_no_same_line_pair():
    schedule = engine.movement(13, 4)
    pairs = meetings.schedule_pairs(schedule)
    assert len(pairs) == comb(52, 2) - 4 * comb(13, 2)
    seating = {
        plan.number: {tp.table: dict(tp.seats) for tp in plan.tables}
        for plan in schedule.round_plans
    }
    lines = meetings.player_lines(seating)
    assert sorted(len(m) for m in lines.values()) == [13, 13, 13, 13]
    for members in lines.values():
        assert not any(meetings.pair(a, b) in pairs for a in members for b in members if a != b)


def test_the_figures_count_first_meetings_repeats_and_pairs_still_never_met():
    met = {(1, 2), (3, 4), (1, 9)}  # 9 no longer plays
    figures = meetings.meeting_figures([1, 2, 3, 4], met, {(1, 2), (1, 3)})
    assert figures == {"pairs": 6, "never_before": 4, "first_time": 1, "again": 1, "never_after": 3}


def test_four_lines_of_13_become_four_rooms_on_the_13_scheme():
    (grouping,) = planner.line_groupings({"N": 13, "E": 13, "S": 13, "W": 13})
    assert [lines for lines, _rooms in grouping] == [("N",), ("E",), ("S",), ("W",)]
    assert all(
        [(r.kind, r.participants) for r in rooms] == [("scheme", 13)] for _l, rooms in grouping
    )


def test_lines_of_20_are_rooms_of_5_tables_of_4():
    (grouping,) = planner.line_groupings({"N": 20, "E": 20, "S": 20})
    assert {(r.kind, r.tables, r.seats) for _l, rooms in grouping for r in rooms} == {
        ("prime", 5, 4)
    }


def test_a_line_with_no_movement_is_joined_with_another():
    groupings = planner.line_groupings({"N": 14, "E": 13, "S": 13, "W": 13})
    assert groupings
    for grouping in groupings:
        assert len(grouping) >= 2
        assert sum(r.participants for _l, rooms in grouping for r in rooms) == 53
        assert all(len(lines) > 1 for lines, _rooms in grouping if "N" in lines)


def test_nothing_fits_gives_no_grouping():
    assert planner.line_groupings({"N": 1, "E": 1, "S": 1}) == []


def test_groupings_never_need_more_rooms_than_a_session_seats():
    for grouping in planner.line_groupings({"N": 25, "E": 25, "S": 25, "W": 25}, max_rooms=7):
        assert sum(len(rooms) for _lines, rooms in grouping) <= 7
