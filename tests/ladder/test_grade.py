"""The ladder's grade ``pct_grade_v1`` (issue 24) on worked examples computed by hand
here: two sessions of three players, a session not rated for its tables, a player below
``min_deals`` left out of the field, the switch of ``k`` at exactly 100 rated deals and the
clamp of the expected percentage at 0 and 100. No database."""

import datetime

import pytest

from scoring.ladder import Entry, Params, Session, expected, rated_entries, replay

DAY = datetime.date(2026, 3, 1)


def session(ident, players, day=DAY, tables=5):
    """``players``: (person, percent, deals) triples."""
    return Session(ident, day, tables, tuple(Entry(*p) for p in players))


def approx(value):
    return pytest.approx(value, abs=1e-12)


def rows_of(ladder):
    return {
        (r.session, r.person): (r.before, r.expected, r.actual, r.after) for r in ladder.history
    }


def test_two_sessions_of_three_players():
    # s1: everybody starts at 50, so S = 50 and E = 50; k·d = 0.0075 · 24 = 0.18.
    #   p1 50 + 0.18 · (60 − 50) = 51.8, p2 50, p3 50 + 0.18 · (40 − 50) = 48.2.
    # s2 (a week later; given first): k·d = 0.0075 · 20 = 0.15.
    #   p1: S = (50 + 50) / 2 = 50, E = 50 + 51.8 − 50 = 51.8, 51.8 + 0.15 · 3.2 = 52.28
    #   p2: S = (51.8 + 50) / 2 = 50.9, E = 49.1, 50 + 0.15 · (45 − 49.1) = 49.385
    #   p4: S = 50.9, E = 49.1, 50 + 0.15 · (50 − 49.1) = 50.135
    s1 = session("s1", [("p1", 60, 24), ("p2", 50, 24), ("p3", 40, 24)])
    s2 = session(
        "s2", [("p1", 55, 20), ("p2", 45, 20), ("p4", 50, 20)], day=datetime.date(2026, 3, 8)
    )
    ladder = replay([s2, s1])
    assert ladder.grades == {
        "p1": approx(52.28),
        "p2": approx(49.385),
        "p3": approx(48.2),
        "p4": approx(50.135),
    }
    assert ladder.deals == {"p1": 44, "p2": 44, "p3": 24, "p4": 20}
    assert [(r.session, r.person) for r in ladder.history] == [
        ("s1", "p1"), ("s1", "p2"), ("s1", "p3"), ("s2", "p1"), ("s2", "p2"), ("s2", "p4"),
    ]  # fmt: skip
    rows = rows_of(ladder)
    assert rows[("s1", "p1")] == (50.0, 50.0, 60.0, approx(51.8))
    assert rows[("s2", "p1")] == (approx(51.8), approx(51.8), 55.0, approx(52.28))
    assert rows[("s2", "p2")] == (50.0, approx(49.1), 45.0, approx(49.385))
    assert rows[("s2", "p4")] == (50.0, approx(49.1), 50.0, approx(50.135))
    assert ladder.standings["p1"].last_rated == datetime.date(2026, 3, 8)
    assert ladder.standings["p3"].last_rated == DAY


def test_sessions_of_one_date_keep_the_order_given():
    # Both on one day: «b» is given first, so it is rated first.
    a = session("a", [("p1", 70, 10), ("p2", 30, 10)])
    b = session("b", [("p1", 30, 10), ("p2", 70, 10)])
    first_b = replay([b, a])
    assert [r.session for r in first_b.history] == ["b", "b", "a", "a"]
    # b: p1 50 − 0.075 · 20 = 48.5, p2 51.5; a: p1 S = 51.5, E = 47, 48.5 + 0.075 · 23.
    assert first_b.grades["p1"] == approx(48.5 + 0.075 * 23)
    assert replay([a, b]).grades["p1"] == approx(51.5 + 0.075 * (30 - 53))


def test_a_session_of_one_table_is_not_rated():
    lone = session("s1", [("p1", 80, 24), ("p2", 20, 24), ("p3", 50, 24)], tables=1)
    ladder = replay([lone])
    assert ladder.grades == {"p1": 50.0, "p2": 50.0, "p3": 50.0}
    assert ladder.deals == {"p1": 0, "p2": 0, "p3": 0}
    assert ladder.history == []
    assert ladder.standings["p1"].last_rated is None
    # The same session rated once the ladder asks for one table only.
    assert replay([lone], Params(min_tables=1)).grades["p1"] == approx(50 + 0.18 * 30)
    assert rated_entries(lone, Params()) == []


def test_a_player_below_min_deals_is_left_out_of_the_field():
    # s1: a 50 + 0.075 · 20 = 51.5, b 48.5.
    # s2: c has 7 deals (< 8): not rated, not in the field. a: S = 48.5, E = 53,
    #   51.5 + 0.075 · (50 − 53) = 51.275; b: S = 51.5, E = 47, 48.5 + 0.075 · 3 = 48.725.
    #   (With c in the field a's S would be (48.5 + 50) / 2 and E 52.25.)
    s1 = session("s1", [("a", 70, 10), ("b", 30, 10)])
    s2 = session("s2", [("a", 50, 10), ("b", 50, 10), ("c", 90, 7)], day=DAY.replace(day=2))
    ladder = replay([s1, s2])
    assert ladder.grades == {"a": approx(51.275), "b": approx(48.725), "c": 50.0}
    assert ladder.deals == {"a": 20, "b": 20, "c": 0}
    assert ("s2", "c") not in rows_of(ladder)
    assert rows_of(ladder)[("s2", "a")][1] == approx(53)


def test_a_session_with_one_rated_player_is_not_rated():
    only = session("s1", [("a", 70, 24), ("b", 30, 7), ("c", 50, 0)])
    ladder = replay([only])
    assert ladder.history == []
    assert ladder.grades == {"a": 50.0, "b": 50.0, "c": 50.0}
    assert ladder.deals == {"a": 0, "b": 0, "c": 0}


def test_k_switches_at_exactly_100_rated_deals_before_the_session():
    # s1: p1 and p2 play 100 deals, p3 99; all at 50 % against a field of 50: no change,
    #   and p1 is rated with the provisional k for all his 100 deals (0 before).
    # s2: p1 (100 before: k = 0.0025) 50 + 0.0025 · 10 · 10 = 50.25;
    #     p3 (99 before: k = 0.0075) 50 + 0.0075 · 10 · (40 − 50) = 49.25.
    s1 = session("s1", [("p1", 50, 100), ("p2", 50, 100), ("p3", 50, 99)])
    s2 = session("s2", [("p1", 60, 10), ("p3", 40, 10)], day=DAY.replace(day=2))
    ladder = replay([s1, s2])
    assert ladder.grades == {"p1": approx(50.25), "p2": 50.0, "p3": approx(49.25)}
    assert ladder.deals == {"p1": 110, "p2": 100, "p3": 109}
    assert [r.k for r in ladder.history] == [0.0075, 0.0075, 0.0075, 0.0025, 0.0075]
    # The k of the session that brings him to 100 is still the provisional one.
    big = replay([session("s1", [("p1", 60, 100), ("p2", 40, 100)])])
    assert big.grades == {"p1": approx(57.5), "p2": approx(42.5)}


def test_the_expected_percentage_is_clamped_at_0_and_100():
    # k = 1: s1 a 50 + 8 · 50 = 450, b 50 − 8 · 50 = −350.
    # s2: a's E = 50 + 450 − (−350) = 850 → 100, b's E = 50 − 350 − 450 = −750 → 0:
    #   a 450 + 8 · (90 − 100) = 370, b −350 + 8 · (5 − 0) = −310.
    params = Params(k=1.0, k_provisional=1.0)
    s1 = session("s1", [("a", 100, 8), ("b", 0, 8)])
    s2 = session("s2", [("a", 90, 8), ("b", 5, 8)], day=DAY.replace(day=2))
    ladder = replay([s1, s2], params)
    assert ladder.grades == {"a": 370.0, "b": -310.0}
    rows = rows_of(ladder)
    assert rows[("s2", "a")] == (450.0, 100.0, 90.0, 370.0)
    assert rows[("s2", "b")] == (-350.0, 0.0, 5.0, -310.0)
    assert expected(80.0, 20.0) == 100.0
    assert expected(20.0, 80.0) == 0.0
    assert expected(60.0, 55.0) == 55.0


def test_the_start_grade_is_the_ladders():
    ladder = replay([session("s1", [("a", 60, 10), ("b", 40, 10), ("c", 50, 2)])], Params(start=40))
    # All start at 40: S = 40, E = 50.
    assert ladder.grades == {"a": approx(40.75), "b": approx(39.25), "c": 40.0}


def test_a_person_twice_in_one_session_is_refused_by_the_core_too():
    with pytest.raises(ValueError, match="twice"):
        replay([session("s1", [("a", 60, 10), ("a", 40, 10)])])


def test_different_deals_make_a_session_no_zero_sum():
    """The grade changes of a session sum to zero only with one k and one number of deals
    for every player (and no clamp, and percentages averaging 50): here a plays 24 deals
    and b 10, so a wins 0.18 · 10 and b loses only 0.075 · 10."""
    ladder = replay([session("s1", [("a", 60, 24), ("b", 40, 10)])])
    assert sum(r.after - r.before for r in ladder.history) == approx(1.8 - 0.75)
