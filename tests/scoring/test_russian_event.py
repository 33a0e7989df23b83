"""A Russian event end to end on the sheets' side: sheets recorded at several tables of the
same set are compared per pocket by the game-blind comparison (``scoring.compare``) on the
exact vist balance — equal balances tie, and points add up exactly in thirds."""

from fractions import Fraction

import pytest

from events import services as event_services
from scoring import standings
from scoring.models import DealScore, TablePlay
from scoring.sheets import services
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


@pytest.mark.parametrize(("game", "trick"), [("sochi", 10), ("leningrad", 20)])
def test_an_artificial_score_in_points_is_the_average_and_a_trick_of_the_games_own(
    director, game, trick
):
    """The Russian game has no stake: «one trick» of an artificial score in points is a
    point of гора as the convention writes it (docs/game.md §9.6): 10 whists in Сочи, 20 in
    Ленинград. The event's Austrian stake, whatever it says, plays no part."""
    from events.models import Event, Seat

    event = event_services.event_create(
        owner=director, name="Кубок", date="2026-12-05", game=game, scoring_method="points"
    )
    Event.objects.filter(pk=event.pk).update(stake=40)
    session = seat_players(Event.objects.get(pk=event.pk), 15)
    one, two, three = _three_plays_of_one_set(session)
    deal = _record(one, SIX_MADE, director)
    _record(two, SIX_DOWN, director)
    north = Seat.objects.get(round=three.round, table=three.table, position="N").entry
    services.adjustment_create(
        three,
        entry=north,
        kind="artificial",
        deal=deal,
        score="A+",
        by_user=director,
        reason="стол не успел",
    )
    standings.session_refresh(session)
    figures = _figures(deal)
    made, down = figures[one.pk], figures[two.pk]
    assert figures[three.pk] == (made + down) / 2 + trick
