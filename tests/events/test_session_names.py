"""With several sessions the hall screen, the phones and the cards name the session
(«Сессия 2 · Тур 3»); with one session the hall and the phones say the round alone."""

import pytest

from events import rounds
from events.models import Entry, Event, Round, Seat
from movements import planner
from movements.services import session_create
from tests.factories import seat_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_sessions(event):
    first = seat_players(event, 15)
    option = planner.plan(15).as_dict()["options"][0]
    second = session_create(Event.objects.get(pk=event.pk), option, number=2, rounds=2)
    return first, second


def test_the_hall_names_each_rooms_session(client, two_sessions):
    first, second = two_sessions
    # Both running (the hall shows the sessions running: docs/game.md §7.4).
    for session in (first, second):
        rounds.round_start(Round.objects.get(room__session=session, number=1), length_seconds=300)
    doc = client.get(f"/e/{first.event.slug}/clock.json", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert [(r["session"], r["sessions"]) for r in doc["rooms"]] == [(1, 2), (2, 2)]
    page = client.get(f"/e/{first.event.slug}/clock", HTTP_ACCEPT_LANGUAGE="ru")
    body = page.content.decode()
    assert "<span data-session-part><span data-session>Сессия 1</span> · </span>Тур" in body
    assert "<span data-session-part><span data-session>Сессия 2</span> · </span>Тур" in body
    english = client.get(f"/e/{first.event.slug}/clock", HTTP_ACCEPT_LANGUAGE="en").content
    assert "<span data-session>Session 2</span> · </span>Round" in english.decode()


def test_one_session_says_the_round_alone(client, session15):
    doc = client.get(f"/e/{session15.event.slug}/clock.json").json()
    assert doc["rooms"][0]["sessions"] == 1
    # The place for a session's name is there (a second session may be seated while the
    # page is open), hidden and empty.
    hall = client.get(f"/e/{session15.event.slug}/clock").content.decode()
    assert "<span data-session-part hidden><span data-session></span> · </span>Тур" in hall
    entry = Entry.objects.get(event=session15.event, number=1)
    page = client.get(f"/p/{entry.key}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<span data-session-part hidden><span data-session></span> · </span>Round" in page
    assert "Next round 1: go to" in page


def test_the_phone_names_the_session_of_its_round(client, two_sessions):
    _first, second = two_sessions
    entry = Entry.objects.get(event=second.event, number=4)
    rounds.round_start(Round.objects.get(room__session=second, number=1), length_seconds=300)
    ru = client.get(f"/p/{entry.key}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<span data-session>Сессия 2</span> · </span>Тур" in ru
    en = client.get(f"/p/{entry.key}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Now — session 2, round 1" in en
    assert "After that — session 2, round 2" in en
    fragment = client.get(f"/p/{entry.key}/places", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Now — session 2, round 1" in fragment


def test_the_cards_name_the_session(director_client, two_sessions):
    _first, second = two_sessions
    base = f"/director/events/{second.event.pk}/sessions/2"
    for page in ("tables/", "participants/"):
        response = director_client.get(f"{base}/{page}", HTTP_ACCEPT_LANGUAGE="ru")
        assert response.status_code == 200, page
        assert f"{second.event.name} · Сессия 2" in response.content.decode()


def test_the_phones_results_name_each_deals_session(client, director, two_sessions):
    from scoring.models import TablePlay
    from scoring.sheets import services
    from tests.factories import THREE_DIAMONDS, deal_of, play_of

    first, second = two_sessions
    for session in (first, second):
        rounds.round_start(Round.objects.get(room__session=session, number=1))
        play = play_of(session, 1, 1)
        # Played out (written at every table holding its set): a place counts it.
        for other in TablePlay.objects.filter(board_set=play.board_set).select_related("board_set"):
            services.sheet_record(other, deal_of(other, 1), THREE_DIAMONDS, by_user=director)
    Event.objects.filter(pk=first.event_id).update(results_public=True)
    entry = Seat.objects.get(
        round__room__session=second, round__number=1, table__number=1, position="N"
    ).entry
    body = client.get(f"/p/{entry.key}/places", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "session 2, round 1 · N" in body
    assert "Session 2: Place" in body
