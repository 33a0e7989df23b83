"""The room clock documents: built once per change, served from the shared cache, never stale
after a change returns, in the reader's language, and at a fixed (near zero) query cost."""

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone

from events import clockdoc, rounds
from events.models import Entry, Event, Round
from tests.factories import seat_players

pytestmark = pytest.mark.django_db


def _round(session, number=1, room=1):
    return Round.objects.select_related("room__session__event").get(
        room__session=session, room__number=room, number=number
    )


def _entry(session, number=1):
    return Entry.objects.get(event=session.event, number=number)


def _player(client, entry, lang="ru"):
    response = client.get(f"/p/{entry.key}/clock.json", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    (room,) = response.json()["rooms"]
    return room


def _hall(client, event, lang="ru"):
    response = client.get(f"/e/{event.slug}/clock.json", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.json()


CHANGES = [
    # (what the director or the timer does, the state shown, the headline ru, en)
    ("start", "running", "Начало тура!", "Round start!"),
    ("pause", "paused", "Часы остановлены", "The clock is stopped"),
    ("resume", "running", "Часы снова идут", "The clock runs again"),
    ("adjust", "running", "Время тура увеличено на 5 минут", "Round time extended by 5 minutes"),
    ("warning", "running", "Осталось 5 минут", "5 minutes left"),
    ("end", "finished", "Конец тура!", "Round over!"),
]


def _do(action, rnd):
    if action == "start":
        return rounds.round_start(rnd, length_seconds=20 * 60)
    if action == "pause":
        return rounds.round_pause(rnd)
    if action == "resume":
        return rounds.round_resume(rnd)
    if action == "adjust":
        return rounds.round_adjust(rnd, seconds=5 * 60)
    if action == "warning":
        # The timer's turn: the round's end is now within the warning (5 minutes).
        Round.objects.filter(pk=rnd.pk).update(ends_at=timezone.now() + timedelta(minutes=5))
        assert rounds.round_fire_warning(rnd.pk)
        return rnd
    return rounds.round_end_now(rnd)


def test_every_clock_change_shows_on_the_next_poll_of_phone_and_hall_in_both_languages(
    client, session15
):
    entry = _entry(session15, 3)
    rnd = _round(session15)
    assert _player(client, entry)["state"] == "pending"  # cached before the first change
    assert _hall(client, session15.event, "en")["rooms"][0]["state"] == "pending"
    for action, state, ru, en in CHANGES:
        rnd = _do(action, rnd)
        fresh = Round.objects.get(pk=rnd.pk)
        mine, hall = _player(client, entry), _hall(client, session15.event, "en")["rooms"][0]
        assert (mine["state"], hall["state"]) == (state, state), action
        assert mine["announcement"]["headline"] == ru, action
        assert hall["announcement"]["headline"] == en, action
        assert mine["ends_at"] == (fresh.ends_at.isoformat() if fresh.ends_at else None)
        if state == "paused":
            assert mine["remaining_ms"] == int(fresh.paused_remaining.total_seconds() * 1000)
    assert _player(client, entry, "en")["announcement"]["details"].startswith("Round 1 is over")
    assert _player(client, entry)["next_round"] == 2


def test_a_running_rounds_remaining_time_is_counted_at_each_answer(client, session15):
    rnd = rounds.round_start(_round(session15), length_seconds=600)
    first = _player(client, _entry(session15))["remaining_ms"]
    time.sleep(0.3)
    later = _player(client, _entry(session15))["remaining_ms"]
    assert 590_000 < later < first <= 600_000
    doc = client.get(f"/e/{session15.event.slug}/clock.json").json()
    assert doc["rooms"][0]["ends_at"] == rnd.ends_at.isoformat()


def test_an_automatic_start_after_the_changeover_shows_and_then_runs(client, session15):
    Event.objects.filter(pk=session15.event.pk).update(changeover_minutes=2)
    rounds.round_end_now(rounds.round_start(_round(session15)))
    room = _player(client, _entry(session15))
    assert room["state"] == "finished" and room["next_round"] == 2 and room["auto_start_at"]
    Round.objects.filter(pk=_round(session15, 2).pk).update(auto_start_at=timezone.now())
    assert rounds.clock_sweep()["start"] == 1
    room = _player(client, _entry(session15))
    assert (room["round"], room["state"], room["auto_start_at"]) == (2, "running", None)


def test_a_substitute_sees_the_clock_of_the_room_he_took_over(client, session15):
    from events.services import entry_create
    from movements.services import seat_substitute

    late = entry_create(session15.event, last_name="Поздний", first_name="Пётр")
    before = client.get(f"/p/{late.key}/clock.json").json()
    assert before["rooms"] == []  # entered, not seated: no room yet
    leaving = _entry(session15, 7)
    assert _player(client, leaving)["room"] == 1
    seat_substitute(session15, leaving=leaving, arriving=late, from_round=1)
    assert _player(client, late)["room"] == 1
    # Every seat of his changed hands: his phone has no room any more (as his page).
    assert client.get(f"/p/{leaving.key}/clock.json").json()["rooms"] == []


def test_a_wrong_key_is_the_links_json_404_whatever_it_looks_like(client, session15):
    for key in ("not-a-key", "x" * 80, "a%20b"):
        response = client.get(f"/p/{key}/clock.json", HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 404
        assert response.json()["error"] == "not_found"
    assert client.get("/e/nosuchslug/clock.json").status_code == 404


def test_after_commit_the_documents_are_rebuilt_so_the_next_poll_reads_no_database(
    client, session15, django_capture_on_commit_callbacks, django_assert_num_queries
):
    entry = _entry(session15, 2)
    _player(client, entry)  # his room is known
    for lang in ("ru", "en"):
        _hall(client, session15.event, lang)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_start(_round(session15), length_seconds=300)
    with django_assert_num_queries(0):
        assert _player(client, entry)["state"] == "running"
        assert _player(client, entry, "en")["announcement"]["headline"] == "Round start!"
        assert _hall(client, session15.event)["rooms"][0]["state"] == "running"


@pytest.mark.parametrize("players", [15, 60])
def test_a_poll_costs_the_same_few_queries_whatever_the_tables_and_rounds(
    client, event, players, django_assert_num_queries
):
    # 15: 5 tables, 5 rounds; 60: a skip room of 20 tables × 3, 20 rounds.
    session = seat_players(event, players, kind="prime" if players == 15 else "skip")
    rnd = rounds.round_start(_round(session))
    first, other = _entry(session, 1), _entry(session, 2)
    _player(client, first)  # builds the room's document (a first poll after a change)
    with django_assert_num_queries(1):  # a phone not seen since the seating: finds his room
        _player(client, other)
    with django_assert_num_queries(0):  # and from then on
        _player(client, other)
        _player(client, first)
    _hall(client, event)  # the hall finds its rooms once
    with django_assert_num_queries(0):
        _hall(client, event)
    rounds.round_pause(rnd)  # a change: the first poll after it builds the document again
    with django_assert_num_queries(3):  # the room, its rounds, its latest announcement
        assert _player(client, first)["state"] == "paused"
    with django_assert_num_queries(0):
        assert _player(client, other)["state"] == "paused"


def test_the_directors_room_page_shows_the_same_clock(director_client, session15):
    rnd = rounds.round_start(_round(session15), length_seconds=300)
    room = session15.rooms.get()
    page = director_client.get(f"/director/events/{session15.event.pk}/rooms/{room.pk}/")
    assert page.status_code == 200
    assert page.context["clock"]["state"] == "running"
    assert page.context["clock"]["ends_at"] == rnd.ends_at.isoformat()


@pytest.mark.django_db(transaction=True)
def test_a_document_built_from_the_state_before_the_commit_is_not_served_after_it(event):
    """Another process polls between the change and its commit (it reads the old state under
    the token bumped at once): after the commit the new token makes that document unread."""
    session = seat_players(event, 15)
    entry = _entry(session, 1)
    rnd = rounds.round_start(_round(session), length_seconds=300)
    phone = Client()
    assert _player(phone, entry)["state"] == "running"
    changed, polled = threading.Event(), threading.Event()
    seen = {}

    def poll_meanwhile():
        changed.wait(10)
        try:
            seen["state"] = _player(Client(), entry)["state"]
        finally:
            connection.close()
            polled.set()

    other = threading.Thread(target=poll_meanwhile)
    other.start()
    with transaction.atomic():
        rounds.round_pause(rnd)
        changed.set()
        # SQLite: its reader waits for no writer (WAL); PostgreSQL reads the last commit.
        assert polled.wait(10)
    other.join(10)
    assert seen["state"] == "running"  # it read before the commit, as it should
    assert _player(phone, entry)["state"] == "paused"
    assert _player(Client(), entry)["state"] == "paused"


@pytest.mark.django_db(transaction=True)
@pytest.mark.xdist_group("celery")
@pytest.mark.slow
def test_a_round_ended_by_its_timer_in_the_worker_shows_on_the_next_poll(worker_factory, event):
    session = seat_players(event, 15)
    entry = _entry(session, 4)
    phone = Client()
    worker_factory()
    rnd = rounds.round_start(_round(session), length_seconds=2)
    assert _player(phone, entry)["state"] == "running"
    deadline = time.monotonic() + 10
    while Round.objects.get(pk=rnd.pk).state != "finished" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert Round.objects.get(pk=rnd.pk).state == "finished"
    room = _player(phone, entry)
    assert room["state"] == "finished" and room["announcement"]["headline"] == "Конец тура!"
    hall = _hall(phone, event, "en")["rooms"][0]
    assert hall["state"] == "finished" and hall["announcement"]["headline"] == "Round over!"


def test_the_setup_token_survives_its_loss_from_the_cache(client, session15):
    from django.core.cache import cache

    entry = _entry(session15)
    assert _player(client, entry)["state"] == "pending"
    cache.delete(clockdoc.SETUP)  # evicted: a new token, everything found again
    rounds.round_start(_round(session15))
    assert _player(client, entry)["state"] == "running"


@pytest.mark.django_db(transaction=True)
def test_an_overdue_round_is_ended_by_the_first_read_of_its_clock_exactly_once(client, event):
    """No worker, no sweep (the broker may be down): the phones' own polls end the round
    once its time is up, and only once however many read it."""
    from events.models import Announcement

    session = seat_players(event, 15)
    rnd = Round.objects.get(room__session=session, number=1)
    rnd = rounds.round_start(rnd, length_seconds=1)
    key = session.rooms.get().rounds.get(number=1).placements.first().entry.key
    assert client.get(f"/p/{key}/clock.json").json()["rooms"][0]["state"] == "running"
    time.sleep(1.3)

    def poll():
        from django.db import connections

        Client().get(f"/p/{key}/clock.json")
        connections.close_all()

    threads = [threading.Thread(target=poll) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert Round.objects.get(pk=rnd.pk).state == "finished"
    assert Announcement.objects.filter(round=rnd, kind="end").count() == 1
    deadline = time.monotonic() + 3
    state = None
    while time.monotonic() < deadline:
        state = client.get(f"/p/{key}/clock.json").json()["rooms"][0]
        if state["state"] == "finished":
            break
        time.sleep(0.2)
    assert state["state"] == "finished" and state["announcement"]["kind"] == "end"
