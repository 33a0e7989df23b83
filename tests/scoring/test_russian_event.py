"""A Russian event end to end on the sheets' side: sheets recorded at several tables of the
same set are compared per pocket by the game-blind comparison (``scoring.compare``) on the
exact vist balance — equal balances tie, and points add up exactly in thirds."""

from fractions import Fraction

import pytest

from events import services as event_services
from scoring import services, standings
from scoring.models import DealScore, TablePlay
from tests.factories import seat_players

pytestmark = pytest.mark.django_db

SIX_MADE = {  # the note's example: +16/3, −2/3, −14/3
    "declarer": "N",
    "contract": "6S",
    "defenders": {"E": "whist", "S": "whist"},
    "tricks": {"N": 6, "E": 3, "S": 1},
}
SIX_DOWN = {  # down one, 5 : 3 : 2: −82/3, +44/3, +38/3
    "declarer": "N",
    "contract": "6S",
    "defenders": {"E": "whist", "S": "whist"},
    "tricks": {"N": 5, "E": 3, "S": 2},
}


def _sochi(director, method):
    event = event_services.event_create(
        owner=director, name="Кубок Сочи", date="2026-12-05", game="sochi", scoring_method=method
    )
    session = seat_players(event, 15)
    return event, session


def _three_plays_of_one_set(session):
    plays = list(
        TablePlay.objects.filter(round__room__session=session)
        .select_related("board_set", "round__room__session__event", "table")
        .order_by("board_set__number", "round__number")
    )
    first = plays[0].board_set_id
    return [p for p in plays if p.board_set_id == first][:3]


def _record(play, data, by):
    deal = play.board_set.deals.get(number=1)
    services.sheet_record(play, deal, data, by_user=by)
    return deal


def _figures(deal, position="N"):
    return {
        s.play_id: Fraction(s.figure_num, s.figure_den)
        for s in DealScore.objects.filter(deal=deal, position=position)
    }


def test_equal_russian_balances_tie_in_matchpoints(director):
    _event, session = _sochi(director, "matchpoints")
    one, two, three = _three_plays_of_one_set(session)
    deal = _record(one, SIX_MADE, director)
    _record(two, SIX_MADE, director)
    _record(three, SIX_DOWN, director)
    standings.session_refresh(session)
    figures = _figures(deal)
    # A tie: 75 % each (2 + 1 of a top of 4), restated by Neuberg to the five tables that
    # play the set: (75 − 50)·(2/3)·(5/4) + 50.
    assert figures[one.pk] == figures[two.pk] == Fraction(425, 6)
    assert figures[three.pk] == Fraction(25, 3)
    assert _figures(deal, "E")[three.pk] == Fraction(275, 3)


def test_points_add_the_exact_thirds(director):
    _event, session = _sochi(director, "points")
    one, two, _three = _three_plays_of_one_set(session)
    deal = _record(one, SIX_MADE, director)
    _record(two, SIX_DOWN, director)
    standings.session_refresh(session)
    assert _figures(deal) == {one.pk: Fraction(16, 3), two.pk: Fraction(-82, 3)}
    assert _figures(deal, "S") == {one.pk: Fraction(-14, 3), two.pk: Fraction(38, 3)}
