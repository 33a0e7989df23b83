"""A ladder person's status (issue 24): provisional below 100 rated deals, established from
300, regular between, inactive once more than 12 months have passed since his last rated
session (his grade kept). No database."""

import datetime

import pytest

from scoring.ladder import (
    ESTABLISHED,
    INACTIVE,
    PROVISIONAL,
    REGULAR,
    Entry,
    Params,
    Session,
    StatusRules,
    months_after,
    replay,
    status,
    statuses,
)

ON = datetime.date(2026, 6, 1)
RECENT = datetime.date(2026, 5, 1)


@pytest.mark.parametrize(
    ("deals", "expected"),
    [(0, PROVISIONAL), (99, PROVISIONAL), (100, REGULAR), (299, REGULAR), (300, ESTABLISHED)],
)
def test_the_status_follows_the_rated_deals(deals, expected):
    assert status(deals, RECENT, ON) == expected


def test_a_person_turns_inactive_the_day_after_12_months_without_a_rated_session():
    last = datetime.date(2025, 3, 1)
    assert status(400, last, datetime.date(2026, 3, 1)) == ESTABLISHED
    assert status(400, last, datetime.date(2026, 3, 2)) == INACTIVE
    assert status(10, last, datetime.date(2027, 1, 1)) == INACTIVE


def test_twelve_months_after_the_29th_of_february_is_the_28th():
    leap = datetime.date(2024, 2, 29)
    assert months_after(leap, 12) == datetime.date(2025, 2, 28)
    assert status(150, leap, datetime.date(2025, 2, 28)) == REGULAR
    assert status(150, leap, datetime.date(2025, 3, 1)) == INACTIVE
    assert months_after(datetime.date(2025, 12, 31), 2) == datetime.date(2026, 2, 28)
    assert months_after(datetime.date(2025, 11, 15), 1) == datetime.date(2025, 12, 15)


def test_a_person_never_rated_is_provisional():
    assert status(0, None, ON) == PROVISIONAL


def test_the_thresholds_are_the_ladders():
    assert status(40, RECENT, ON, Params(provisional_deals=40)) == REGULAR
    assert status(40, RECENT, ON, Params(provisional_deals=40), StatusRules(40, 12)) == ESTABLISHED
    assert status(40, RECENT, ON, rules=StatusRules(300, 0)) == INACTIVE


def test_statuses_of_a_replayed_ladder():
    day = datetime.date(2025, 1, 10)
    sessions = [
        Session("old", day, 4, (Entry("a", 60, 150), Entry("b", 40, 20), Entry("c", 50, 3))),
        Session("new", RECENT, 4, (Entry("a", 55, 160), Entry("d", 45, 20))),
    ]
    ladder = replay(sessions)
    assert statuses(ladder, ON) == {
        "a": ESTABLISHED,  # 310 rated deals
        "b": INACTIVE,  # last rated in January 2025
        "c": PROVISIONAL,  # never rated (3 deals)
        "d": PROVISIONAL,
    }
