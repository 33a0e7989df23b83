"""Properties of ``pct_grade_v1`` on random ladders (hypothesis, derandomised so every run
draws the same cases): what holds exactly, and the zero sum only where it holds — one k and
one number of deals for every player, no clamp, percentages averaging 50."""

import datetime
import math
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.ladder import Entry, Params, Session, replay

PEOPLE = [f"p{i}" for i in range(10)]
DAYS = [datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * i) for i in range(6)]
SETTINGS = settings(
    max_examples=80,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

percents = st.floats(0, 100, allow_nan=False)


@st.composite
def sessions(draw, min_size=1, max_size=6):
    count = draw(st.integers(min_size, max_size))
    out = []
    for i in range(count):
        people = draw(st.lists(st.sampled_from(PEOPLE), min_size=0, max_size=8, unique=True))
        entries = tuple(Entry(p, draw(percents), draw(st.integers(0, 40))) for p in people)
        out.append(Session(f"s{i}", draw(st.sampled_from(DAYS)), draw(st.integers(0, 6)), entries))
    return out


params = st.builds(
    Params,
    k=st.sampled_from([0.0025, 0.01, 0.05]),
    k_provisional=st.sampled_from([0.0075, 0.02]),
    start=st.sampled_from([50.0, 40.0, 61.5]),
    provisional_deals=st.integers(0, 60),
    min_deals=st.integers(0, 12),
    min_tables=st.integers(0, 3),
)


def outcome(ladder):
    """Everything a replay says, rows keyed so that their order inside a session is not."""
    rows = {(r.session, r.person): r for r in ladder.history}
    return ladder.grades, ladder.deals, rows


@SETTINGS
@given(sessions(), params, st.randoms(use_true_random=False))
def test_the_order_of_players_inside_a_session_does_not_matter(history, par, rnd):
    shuffled = []
    for s in history:
        players = list(s.players)
        rnd.shuffle(players)
        shuffled.append(Session(s.id, s.date, s.tables, tuple(players)))
    # Exactly equal, not nearly: the field's mean is a correctly rounded sum.
    assert outcome(replay(shuffled, par)) == outcome(replay(history, par))


@SETTINGS
@given(sessions(), params, st.permutations(range(len(PEOPLE))))
def test_the_names_of_persons_do_not_matter(history, par, perm):
    names = {p: f"renamed-{PEOPLE[j]}" for p, j in zip(PEOPLE, perm, strict=True)}
    renamed = [
        Session(
            s.id,
            s.date,
            s.tables,
            tuple(Entry(names[e.person], e.percent, e.deals) for e in s.players),
        )
        for s in history
    ]
    grades, deals, rows = outcome(replay(history, par))
    grades2, deals2, rows2 = outcome(replay(renamed, par))
    assert grades2 == {names[p]: g for p, g in grades.items()}
    assert deals2 == {names[p]: d for p, d in deals.items()}
    assert {(s, names[p]): (r.before, r.expected, r.after) for (s, p), r in rows.items()} == {
        key: (r.before, r.expected, r.after) for key, r in rows2.items()
    }


@SETTINGS
@given(sessions(), params, st.randoms(use_true_random=False))
def test_sessions_are_replayed_by_date_whatever_order_they_come_in(history, par, rnd):
    # One session per date, so that the order given decides nothing.
    history = [
        Session(s.id, DAYS[0] + datetime.timedelta(days=i), s.tables, s.players)
        for i, s in enumerate(history)
    ]
    shuffled = list(history)
    rnd.shuffle(shuffled)
    assert outcome(replay(shuffled, par)) == outcome(replay(history, par))
    assert replay(shuffled, par).history == replay(history, par).history


@SETTINGS
@given(sessions(), params, st.data())
def test_a_player_whose_percentage_is_his_expected_one_keeps_his_grade(history, par, data):
    people = data.draw(st.lists(st.sampled_from(PEOPLE), min_size=2, max_size=8, unique=True))
    deals = [data.draw(st.integers(par.min_deals, 40)) for _ in people]
    final = Session(
        "last",
        DAYS[-1] + datetime.timedelta(days=1),
        par.min_tables + 1,
        tuple(Entry(p, data.draw(percents), d) for p, d in zip(people, deals, strict=True)),
    )
    first = replay([*history, final], par)
    row = next(r for r in first.history if r.session == "last" and r.person == people[0])
    # E does not depend on his own percentage: give him exactly his E and replay.
    entries = (Entry(people[0], row.expected, deals[0]), *final.players[1:])
    again = replay([*history, Session("last", final.date, final.tables, entries)], par)
    same = next(r for r in again.history if r.session == "last" and r.person == people[0])
    assert (same.before, same.expected) == (row.before, row.expected)
    assert same.after == same.before


@SETTINGS
@given(sessions(max_size=4), st.data())
def test_a_session_is_zero_sum_with_one_k_and_one_number_of_deals(history, data):
    # One k for all: everybody past his provisional deals (provisional_deals = 0).
    par = Params(k=0.01, provisional_deals=0, min_deals=0, min_tables=0)
    people = data.draw(st.lists(st.sampled_from(PEOPLE), min_size=2, max_size=8, unique=True))
    deals = data.draw(st.integers(1, 40))
    raw = [data.draw(st.floats(0, 100, allow_nan=False)) for _ in people]
    mean = math.fsum(raw) / len(raw)
    shares = [50 + v - mean for v in raw]  # they average 50, as matchpoint percentages do
    assume(all(0 <= a <= 100 for a in shares))
    final = Session(
        "last",
        DAYS[-1] + datetime.timedelta(days=1),
        2,
        tuple(Entry(p, a, deals) for p, a in zip(people, shares, strict=True)),
    )
    rows = [r for r in replay([*history, final], par).history if r.session == "last"]
    assume(all(0 < r.expected < 100 for r in rows))  # no clamp
    assert len(rows) == len(people)
    assert math.fsum(r.after - r.before for r in rows) == pytest.approx(0, abs=1e-9)
    assert math.fsum(r.expected for r in rows) == pytest.approx(50 * len(rows), abs=1e-9)


@SETTINGS
@given(sessions(), params)
def test_the_replay_is_deterministic_and_counts_rated_deals(history, par):
    one, two = replay(history, par), replay(list(history), par)
    assert outcome(one) == outcome(two)
    assert set(one.grades) == {e.person for s in history for e in s.players}
    for person, deals in one.deals.items():
        assert deals == sum(r.deals for r in one.history if r.person == person)
    for person in one.grades:
        rows = [r for r in one.history if r.person == person]
        assert one.grades[person] == (rows[-1].after if rows else par.start)


def test_a_random_ladder_of_a_club_season_replays_the_same_twice():
    rnd = random.Random(24)
    history = [
        Session(
            f"s{i}",
            DAYS[0] + datetime.timedelta(days=i),
            5,
            tuple(Entry(p, rnd.uniform(20, 80), rnd.randint(6, 30)) for p in rnd.sample(PEOPLE, 8)),
        )
        for i in range(60)
    ]
    assert outcome(replay(history)) == outcome(replay(history))
