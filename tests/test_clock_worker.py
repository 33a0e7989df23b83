"""The round clock with a real Celery worker on Redis: on time, exactly once, stale tasks idle."""

import time
from datetime import timedelta

import pytest

from events import rounds
from events.models import Announcement, Round
from tests.factories import seat_players

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery"),
    pytest.mark.slow,
]


@pytest.fixture
def round1(event):
    session = seat_players(event, 15)
    return Round.objects.get(room__session=session, number=1)


def _wait_for_end(rnd, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        end = Announcement.objects.filter(round=rnd, kind="end").first()
        if end:
            return end
        time.sleep(0.05)
    return None


def test_a_3_second_round_fires_the_end_once_within_a_second(worker_factory, round1):
    worker = worker_factory()
    rnd = rounds.round_start(round1, length_seconds=3)
    end = _wait_for_end(rnd, timeout=8)
    assert end is not None, worker.log_path.read_text()[-3000:]
    lag = (end.fired_at - rnd.ends_at).total_seconds()
    assert 0 <= lag <= 1.0
    time.sleep(1.5)  # the sweep keeps running: still exactly one
    assert Announcement.objects.filter(round=rnd, kind="end").count() == 1
    assert Round.objects.get(pk=rnd.pk).state == "finished"


def test_pause_resume_and_extend_move_the_firing_time(worker_factory, round1):
    worker_factory()
    rnd = rounds.round_start(round1, length_seconds=3)
    first_end = rnd.ends_at
    time.sleep(1)
    rnd = rounds.round_pause(rnd)
    time.sleep(3)  # the original task comes due while paused: it must do nothing
    assert not Announcement.objects.filter(round=rnd, kind="end").exists()
    rnd = rounds.round_resume(rnd)
    rnd = rounds.round_adjust(rnd, seconds=2)
    new_end = Round.objects.get(pk=rnd.pk).ends_at
    assert new_end - first_end >= timedelta(seconds=4)
    end = _wait_for_end(rnd, timeout=10)
    assert end is not None
    assert 0 <= (end.fired_at - new_end).total_seconds() <= 1.0
    assert Announcement.objects.filter(round=rnd, kind="end").count() == 1


def test_a_worker_dying_mid_round_and_a_new_one_still_fire_exactly_once(worker_factory, round1):
    first = worker_factory()
    rnd = rounds.round_start(round1, length_seconds=3)
    time.sleep(1)
    first.stop(kill=True)  # the worker holding the timer dies without a word
    time.sleep(3)
    assert not Announcement.objects.filter(round=rnd, kind="end").exists()
    worker_factory()  # a new worker's sweep finds the overdue round
    end = _wait_for_end(rnd, timeout=15)
    assert end is not None
    time.sleep(1.5)
    assert Announcement.objects.filter(round=rnd, kind="end").count() == 1


def test_a_duplicated_delivery_fires_once(worker_factory, round1):
    from events import tasks

    worker_factory()
    rnd = rounds.round_start(round1, length_seconds=2)
    for _ in range(3):
        tasks.round_end_due.apply_async((rnd.pk,), eta=rnd.ends_at)
        tasks.round_end_due.apply_async((rnd.pk,), eta=rnd.ends_at + timedelta(milliseconds=50))
    end = _wait_for_end(rnd, timeout=8)
    assert end is not None
    time.sleep(1.5)
    assert Announcement.objects.filter(round=rnd, kind="end").count() == 1


def test_the_clock_page_renders_the_running_state(client, worker_factory, round1):
    worker_factory()
    event = round1.room.session.event
    rnd = rounds.round_start(round1, length_seconds=600)
    page = client.get(f"/e/{event.slug}/clock")
    assert page.status_code == 200
    body = page.content.decode()
    assert "data-digits" in body and 'data-state="running"' in body and "Начало тура!" in body
    doc = client.get(f"/e/{event.slug}/clock.json").json()
    (room,) = doc["rooms"]
    assert room["state"] == "running" and room["round"] == 1
    assert room["ends_at"] == rnd.ends_at.isoformat()
    assert 590_000 < room["remaining_ms"] <= 600_000
    assert room["announcement"]["kind"] == "start"
