"""With the broker unreachable, the director's clock actions still succeed (the round is
committed running, paused, ended: no error page) and the page says the timer could not be
set; «Конец тура!» then comes from the first read of the room's clock after its end.

Transactional: the timers are queued by on-commit hooks, which run only at a real commit."""

import time

import pytest

from config.celery import app
from events import rounds
from events.models import Announcement, Round

pytestmark = pytest.mark.django_db(transaction=True)

WARNING = "the task queue does not answer"


def _reset_pools():
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def dead_broker():
    """The broker's address points where nothing listens (port 1) for this test."""
    previous = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:1/0"
    _reset_pools()
    yield
    app.conf.broker_url = previous
    _reset_pools()


def _act(client, event, rnd, action, **data):
    url = f"/director/events/{event.pk}/rounds/{rnd.pk}/{action}/"
    return client.post(url, data, follow=True, HTTP_ACCEPT_LANGUAGE="en")


def test_start_pause_resume_and_end_succeed_and_say_the_timer_is_not_set(
    director_client, session15, dead_broker
):
    event = session15.event
    first = Round.objects.get(room__session=session15, number=1)
    for action, data, state in (
        ("start", {}, "running"),
        ("pause", {}, "paused"),
        ("resume", {}, "running"),
        ("end", {"confirm": "yes"}, "finished"),
    ):
        response = _act(director_client, event, first, action, **data)
        assert response.status_code == 200, action
        first.refresh_from_db()
        assert first.state == state, action
        body = response.content.decode()
        # Start and resume queue the end's timer; pausing queues none, nor does ending
        # (no changeover here: no automatic start of the next round to queue).
        assert (WARNING in body) == (action in ("start", "resume")), action


def test_an_end_that_queues_the_next_rounds_automatic_start_says_so_too(
    director_client, session15, dead_broker
):
    event = session15.event
    event.changeover_minutes = 5
    event.save()
    first = Round.objects.get(room__session=session15, number=1)
    _act(director_client, event, first, "start")
    response = _act(director_client, event, first, "end", confirm="yes")
    assert response.status_code == 200 and WARNING in response.content.decode()
    second = Round.objects.get(room__session=session15, number=2)
    assert first.__class__.objects.get(pk=first.pk).state == "finished"
    assert second.auto_start_at is not None  # the page shows when it starts all the same


def test_the_warning_is_in_russian_on_a_russian_page(director_client, session15, dead_broker):
    event = session15.event
    first = Round.objects.get(room__session=session15, number=1)
    url = f"/director/events/{event.pk}/rounds/{first.pk}/start/"
    body = director_client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "очередь задач не отвечает" in body


def test_with_no_broker_the_end_still_comes_from_the_first_clock_read(
    client, session15, dead_broker
):
    first = Round.objects.get(room__session=session15, number=1)
    rounds.round_start(first, length_seconds=1)  # its timer cannot be queued: no error
    assert rounds.timers_unqueued()
    time.sleep(1.2)
    client.get(f"/e/{session15.event.slug}/clock.json")  # the first read ends it
    first.refresh_from_db()
    assert first.state == "finished"
    assert Announcement.objects.filter(round=first, kind="end").count() == 1
    room = client.get(f"/e/{session15.event.slug}/clock.json").json()["rooms"][0]
    assert room["announcement"]["kind"] == "end"


def test_the_api_starts_the_round_and_says_its_timer_is_not_set(director, session15, dead_broker):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(director)
    first = Round.objects.get(room__session=session15, number=1)
    url = f"/api/v1/events/{session15.event.pk}/rounds/{first.pk}/start/"
    answer = api.post(url, {"minutes": 5}, format="json")
    assert answer.status_code == 200
    assert answer.json()["state"] == "running" and answer.json()["timers_set"] is False
