"""Matchpoints and the cached figures stay exact on a Russian deal's thirds (issue 22): the
comparison ranks the results as integers brought to one denominator, and the ``points``
column keeps a settlement rounded once to its places."""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events import services as event_services
from scoring import standings
from scoring.compare import Artificial, ArtificialScores, matchpoints, neuberg
from scoring.models import DealScore, TablePlay
from scoring.sheets import services
from scoring.standings import recompute
from tests.factories import seat_players

# Scores in thirds, halves, sixths and whole points, so that equal values written with
# different denominators (2/1, 6/3) and close unequal ones (16/3 against 5) both occur.
fractions = st.builds(Fraction, st.integers(-60, 60), st.sampled_from([1, 2, 3, 6]))
results = st.lists(
    st.one_of(fractions, st.integers(-20, 20), st.sampled_from(list(Artificial))),
    min_size=1,
    max_size=25,
)


def reference(scores, expected):
    """Matchpoints by their definition, result against result with Fraction comparisons."""
    real = [Fraction(s) for s in scores if not isinstance(s, Artificial)]
    played = len(real)
    top = 2 * (expected - 1)
    mp, pct = [], []
    for score in scores:
        if isinstance(score, Artificial):
            pct.append(ArtificialScores().percent(score))
            mp.append(pct[-1] * top / 100)
            continue
        raw = sum(2 if other < score else 1 if other == score else 0 for other in real) - 1
        plain = Fraction(50) if played == 1 else Fraction(100 * raw, 2 * (played - 1))
        pct.append(neuberg(plain, played, expected))
        mp.append(Fraction(raw) if expected == played else pct[-1] * top / 100)
    return tuple(mp), tuple(pct)


@given(results, st.integers(0, 5))
def test_matchpoints_on_fractions_equal_their_definition(scores, missing):
    expected = len(scores) + missing
    result = matchpoints(scores, expected)
    assert (result.matchpoints, result.percent) == reference(scores, expected)
    assert all(type(v) is Fraction for v in result.matchpoints + result.percent)


@given(st.lists(st.tuples(results, st.integers(0, 3)), min_size=1, max_size=6))
def test_figures_known_from_earlier_pockets_are_the_same(pockets):
    known = {}
    for scores, missing in pockets:
        expected = len(scores) + missing
        shared = matchpoints(scores, expected, known=known)
        assert shared == matchpoints(scores, expected)
        assert (shared.matchpoints, shared.percent) == reference(scores, expected)


def test_equal_thirds_tie_and_a_third_apart_does_not():
    scores = [Fraction(16, 3), Fraction(32, 6), Fraction(5), Fraction(-2, 3), 0]
    result = matchpoints(scores)
    assert result.matchpoints == (7, 7, 4, 0, 2)
    assert result.percent[0] == result.percent[1] == Fraction(175, 2)


def test_whole_and_fractional_values_are_ranked_together():
    result = matchpoints([Fraction(1, 3), 0, Fraction(1, 2), 1, Fraction(2, 6)])
    assert result.matchpoints == (3, 0, 6, 8, 3)


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        (Fraction(16, 3), Decimal("5.3333")),
        (Fraction(-2, 3), Decimal("-0.6667")),
        (Fraction(-110, 3), Decimal("-36.6667")),
        (Fraction(1, 32), Decimal("0.0313")),  # a half at the fifth place: away from zero
        (Fraction(-1, 32), Decimal("-0.0313")),
        (Fraction(27, 2), Decimal("13.5")),
        (Fraction(70), Decimal("70")),
        (Fraction(0), Decimal("0")),
    ],
)
def test_the_points_column_gets_the_settlement_rounded_once(value, kept):
    assert recompute._points(value) == kept


SIX_MADE = {  # +16/3, −2/3, −14/3
    "declarer": "N",
    "contract": "6S",
    "defenders": {"E": "whist", "S": "whist"},
    "tricks": {"N": 6, "E": 3, "S": 1},
}


@pytest.mark.django_db
def test_a_russian_settlement_is_stored_to_the_columns_places(director):
    event = event_services.event_create(
        owner=director, name="Кубок Сочи", date="2026-12-05", game="sochi"
    )
    session = seat_players(event, 15)
    play = (
        TablePlay.objects.filter(round__room__session=session)
        .select_related("board_set", "round__room__session__event", "table")
        .order_by("board_set__number", "round__number")
        .first()
    )
    deal = play.board_set.deals.get(number=1)
    services.sheet_record(play, deal, SIX_MADE, by_user=director)
    standings.session_recompute(session)
    stored = {s.position: s.points for s in DealScore.objects.filter(deal=deal, play=play)}
    assert stored == {"N": Decimal("5.3333"), "E": Decimal("-0.6667"), "S": Decimal("-4.6667")}
