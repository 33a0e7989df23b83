"""Pure timing maths of the clock and the moves announced at «Конец тура!»."""

from datetime import UTC, datetime, timedelta

from events import clock

NOW = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)


def test_a_round_lasts_deals_times_minutes_unless_the_director_set_it():
    assert clock.round_length(deals=3, minutes_per_deal=5) == timedelta(minutes=15)
    assert clock.round_length(deals=4, minutes_per_deal=5, session_seconds=600) == timedelta(
        minutes=10
    )
    assert clock.round_length(
        deals=4, minutes_per_deal=5, session_seconds=600, round_seconds=3
    ) == timedelta(seconds=3)


def test_remaining_time_by_state():
    length = timedelta(minutes=15)
    ends = NOW + timedelta(seconds=90)
    assert (
        clock.remaining("pending", ends_at=None, paused_remaining=None, now=NOW, length=length)
        == length
    )
    assert clock.remaining(
        "running", ends_at=ends, paused_remaining=None, now=NOW, length=length
    ) == timedelta(seconds=90)
    assert clock.remaining(
        "running", ends_at=NOW - timedelta(seconds=5), paused_remaining=None, now=NOW, length=length
    ) == timedelta(0)
    assert clock.remaining(
        "paused", ends_at=None, paused_remaining=timedelta(seconds=42), now=NOW, length=length
    ) == timedelta(seconds=42)
    assert clock.remaining(
        "finished", ends_at=ends, paused_remaining=None, now=NOW, length=length
    ) == timedelta(0)


def test_the_warning_is_due_before_the_end_or_off():
    assert clock.warning_at(NOW, 5) == NOW - timedelta(minutes=5)
    assert clock.warning_at(NOW, 0) is None


def test_line_moves_of_a_prime_room():
    tables = 5
    now = {1: (1, "N"), 6: (1, "E"), 11: (1, "S"), 2: (2, "N"), 7: (2, "E"), 12: (2, "S")}
    nxt = {1: (1, "N"), 6: (2, "E"), 11: (3, "S"), 2: (2, "N"), 7: (3, "E"), 12: (4, "S")}
    moves = clock.line_moves(now, nxt, tables)
    assert [(m.line, m.tables) for m in moves] == [("N", 0), ("E", 1), ("S", 2)]
    west = clock.line_moves({16: (1, "W")}, {16: (4, "W")}, tables)
    assert [(m.line, m.tables) for m in west] == [("W", -2)]


def test_line_moves_are_none_when_a_line_does_not_move_as_a_block():
    assert clock.line_moves({1: (1, "N"), 2: (2, "N")}, {1: (1, "N"), 2: (1, "E")}, 2) is None
    assert clock.line_moves({1: (1, "N"), 2: (2, "N")}, {1: (2, "N"), 2: (2, "N")}, 2) is None


def test_sets_go_to_the_table_that_plays_them_next_or_back_to_the_director():
    assert clock.set_destinations({1: 1, 2: 2, 3: 3}, {1: 2, 2: 3, 3: 1}) == {
        1: [3],
        2: [1],
        3: [2],
    }
    assert clock.set_destinations({1: 7, 2: 7}, {1: 8, 2: 8}) == {1: [], 2: []}


def test_the_current_round_is_on_the_clock_else_the_latest_over_else_the_first():
    from types import SimpleNamespace as R

    rounds = [
        R(number=1, state="finished"),
        R(number=2, state="finished"),
        R(number=3, state="pending"),
    ]
    assert clock.current_round(rounds).number == 2
    rounds[2].state = "paused"
    assert clock.current_round(rounds).number == 3
    assert (
        clock.current_round([R(number=2, state="pending"), R(number=1, state="pending")]).number
        == 1
    )
    assert clock.current_round([]) is None
