"""Seating the next session while a round of this one runs changes nothing on the running
session's screens (issue 21, finding 2; docs/game.md §7.4): the hall screen, the room
consoles' clocks and the phones key a room by its own id — both sessions have a room 1 —
and show the session being played; the next one's rooms and seats come once it is over."""

import pytest
from django.test import Client

from events import rounds
from events.models import Entry, Event, Round, Seat
from movements import planner
from movements.services import session_create
from tests.factories import seat_players

pytestmark = pytest.mark.django_db


def _round(session, number):
    return Round.objects.get(room__session=session, number=number)


def _next_session(event, **kwargs):
    """Session 2 for the same 15 players, dealt by the app (as the club evening did)."""
    option = planner.plan(15).as_dict()["options"][0]
    return session_create(Event.objects.get(pk=event.pk), option, dealing="app", **kwargs)


@pytest.fixture
def running(event):
    """Session 1 at round 2 (round 1 over), then session 2 seated meanwhile."""
    first = seat_players(event, 15)
    rounds.round_end_now(rounds.round_start(_round(first, 1)))
    rounds.round_start(_round(first, 2), length_seconds=1200)
    second = _next_session(event)
    return first, second


def _hall(client, event, **params):
    response = client.get(f"/e/{event.slug}/clock.json", params, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    return response.json()["rooms"]


def _phone(client, entry):
    response = client.get(f"/p/{entry.key}/clock.json", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    (room,) = response.json()["rooms"]
    return room


def _places(client, entry) -> str:
    return client.get(f"/p/{entry.key}/places", HTTP_ACCEPT_LANGUAGE="ru").content.decode()


def _shown(doc: dict) -> tuple:
    return doc["session"], doc["room"], doc["round"], doc["state"]


def _player(session, number=4):
    return Entry.objects.get(event=session.event, number=number)


def test_the_hall_shows_the_running_sessions_round_not_the_next_sessions_room_1(client, running):
    first, second = running
    room1, room2 = first.rooms.get(), second.rooms.get()
    assert room1.number == room2.number == 1  # what the pages used to key the clocks by
    (shown,) = _hall(client, first.event)
    assert _shown(shown) == (1, 1, 2, "running") and shown["id"] == room1.pk
    assert shown["session_name"] == "Сессия 1"
    page = client.get(f"/e/{first.event.slug}/clock", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert f'data-room="{room1.pk}"' in page and f'data-room="{room2.pk}"' not in page
    assert "<span data-session>Сессия 1</span>" in page and "Сессия 2" not in page
    assert "<strong data-round>2</strong> / <span data-rounds>5</span>" in page
    panels = page.split("<template")[0]
    assert 'data-state="running"' in panels and 'data-state="pending"' not in panels


def test_each_rooms_console_shows_its_own_rooms_clock(client, director_client, running):
    first, second = running
    room1, room2 = first.rooms.get(), second.rooms.get()
    (mine,) = _hall(client, first.event, room=room1.pk)
    assert _shown(mine) == (1, 1, 2, "running") and mine["id"] == room1.pk
    (theirs,) = _hall(client, first.event, room=room2.pk)
    assert _shown(theirs) == (2, 1, 1, "pending") and theirs["id"] == room2.pk
    page = director_client.get(f"/director/events/{first.event.pk}/rooms/{room1.pk}/")
    body = page.content.decode()
    assert f'clock.json?room={room1.pk}"' in body and f'data-room="{room1.pk}"' in body
    assert _shown(page.context["clock"]) == (1, 1, 2, "running")


def test_a_room_of_no_session_of_the_event_is_no_clock(client, running, other_event):
    first, _second = running
    other = seat_players(other_event, 15).rooms.get()
    url = f"/e/{first.event.slug}/clock.json"
    assert client.get(url, {"room": other.pk}).status_code == 404
    assert client.get(url, {"room": "1x"}).status_code == 404


def test_a_phone_of_session_1_keeps_its_round_and_next_round_until_the_session_is_over(
    client, running
):
    first, second = running
    entry = _player(first)
    assert _shown(_phone(client, entry)) == (1, 1, 2, "running")
    body = _places(client, entry)
    assert "Сейчас — сессия 1, тур 2" in body and "Затем — сессия 1, тур 3" in body
    assert "сессия 2" not in body
    for number in (2, 3, 4):
        rounds.round_end_now(_round(first, number))
        rounds.round_start(_round(first, number + 1))
    body = _places(client, entry)  # the last round: nothing after it in this session
    assert "Сейчас — сессия 1, тур 5" in body and "Затем" not in body and "сессия 2" not in body
    rounds.round_end_now(_round(first, 5))
    # Over: his seats are the next session's, his clock keeps the last «Конец тура!».
    body = _places(client, entry)
    assert "Далее — сессия 2, тур 1: идите" in body and "Затем — сессия 2, тур 2" in body
    room = _phone(client, entry)
    assert _shown(room) == (1, 1, 5, "finished")
    assert room["announcement"]["headline"] == "Конец тура!"
    (hall,) = _hall(client, first.event)
    assert _shown(hall) == (1, 1, 5, "finished")
    assert hall["announcement"]["headline"] == "Конец тура!"
    # The next session's first round starts: every screen follows.
    rounds.round_start(_round(second, 1))
    assert _shown(_phone(client, entry)) == (2, 1, 1, "running")
    assert [_shown(r) for r in _hall(client, first.event)] == [(2, 1, 1, "running")]
    assert "Сейчас — сессия 2, тур 1" in _places(client, entry)


def test_before_any_round_the_hall_and_the_phones_show_the_first_session(client, event):
    first = seat_players(event, 15)
    second = _next_session(event)
    entry = _player(first)
    assert [_shown(r) for r in _hall(client, event)] == [(1, 1, 1, "pending")]
    assert _shown(_phone(client, entry)) == (1, 1, 1, "pending")
    assert "Далее — сессия 1, тур 1: идите" in _places(client, entry)
    rounds.round_start(_round(second, 1))  # the director starts session 2 first: so be it
    assert [_shown(r) for r in _hall(client, event)] == [(2, 1, 1, "running")]
    assert _shown(_phone(client, entry)) == (2, 1, 1, "running")
    assert "Сейчас — сессия 2, тур 1" in _places(client, entry)


def test_a_player_seated_in_the_next_session_only_is_shown_his_own(client, event):
    from events.services import entry_create, entry_withdraw

    first = seat_players(event, 15)
    rounds.round_start(_round(first, 1))
    late = entry_create(event, last_name="Поздний", first_name="Пётр")
    entry_withdraw(_player(first, 7), confirmed=True)
    second = _next_session(event)
    assert Seat.objects.filter(entry=late, round__room__session=second).exists()
    assert _shown(_phone(client, late)) == (2, 1, 1, "pending")
    assert "Далее — сессия 2, тур 1: идите" in _places(client, late)
    # The hall still shows session 1's round 1.
    assert [_shown(r) for r in _hall(client, event)] == [(1, 1, 1, "running")]


def test_with_the_next_session_seated_a_poll_costs_what_it_did(
    client, running, django_assert_num_queries
):
    first, _second = running
    entry, other = _player(first, 1), _player(first, 2)
    _phone(client, entry)  # builds the rooms' documents
    with django_assert_num_queries(1):  # a phone not seen since the seating: finds his rooms
        _phone(client, other)
    with django_assert_num_queries(0):
        _phone(client, other)
    _hall(client, first.event)
    room = first.rooms.get().pk
    with django_assert_num_queries(0):
        _hall(client, first.event)
        _hall(client, first.event, room=room)
    rounds.round_pause(_round(first, 2))
    with django_assert_num_queries(3):  # the room, its rounds, its latest announcement
        assert _phone(client, entry)["state"] == "paused"
    with django_assert_num_queries(0):
        assert _phone(Client(), other)["state"] == "paused"
        assert _hall(client, first.event)[0]["state"] == "paused"


def test_with_the_next_session_seated_the_seat_fragment_costs_what_it_did(
    client, running, django_assert_max_num_queries
):
    from tests.events.test_player_cost import CACHED_MAX, UNPUBLISHED_MAX

    first, _second = running
    entry = _player(first)
    for over in (False, True):  # his session running, then over (seats: the next session's)
        # Once over, the next session's check-in is asked of him (events.checkin): his row of
        # it, one query more, whatever the size of the hall.
        with django_assert_max_num_queries(UNPUBLISHED_MAX + over):
            _places(client, entry)
        with django_assert_max_num_queries(CACHED_MAX):
            _places(client, entry)
        if not over:
            rounds.round_end_now(_round(first, 2))
            for number in range(3, 6):
                rounds.round_end_now(rounds.round_start(_round(first, number)))
    assert "Далее — сессия 2, тур 1: идите" in _places(client, entry)
