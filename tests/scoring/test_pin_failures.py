"""The PINs' failure counter is in the database (scoring.models.PinFailures): the rule —
PIN_FAILURES_ALLOWED wrong PINs within PIN_LOCK_SECONDS of the first lock that player's PIN
until the window ends — holds with the cache down, counts every one of many phones failing
at once, and begins a new window once the old one is over."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from scoring import proof
from scoring.models import PinFailures
from tests.factories import round_link, seat_at

DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture
def east(running):
    return seat_at(running, "E").entry


@pytest.mark.django_db
def test_five_failures_lock_his_pin_until_the_window_of_the_first_ends(east, settings):
    settings.PIN_LOCK_SECONDS = 600
    for _ in range(4):
        proof._count_failure(east.pk)
    assert proof.seconds_locked(east.pk) == 0
    proof._count_failure(east.pk)
    assert 590 < proof.seconds_locked(east.pk) <= 600
    row = PinFailures.objects.get(entry=east)
    assert row.count == 5


@pytest.mark.django_db
def test_a_failure_after_the_window_begins_a_new_one(east):
    for _ in range(5):
        proof._count_failure(east.pk)
    PinFailures.objects.filter(entry=east).update(until=timezone.now() - timedelta(seconds=1))
    assert proof.seconds_locked(east.pk) == 0  # the lock is over with its window
    proof._count_failure(east.pk)
    row = PinFailures.objects.get(entry=east)
    assert row.count == 1 and row.until > timezone.now() + timedelta(minutes=14)
    assert proof.seconds_locked(east.pk) == 0


@pytest.mark.django_db
def test_the_rule_holds_with_the_cache_down(client, running, east, settings):
    settings.CACHES = {"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": DEAD_REDIS}}
    wrong = f"{(int(east.pin) + 1) % 10000:04d}"
    url = round_link(running, "deals/1/")
    for _ in range(5):
        assert client.post(url, {"as": "E", "pin": wrong, "check": "1"}).status_code == 400
    locked = client.post(url, {"as": "E", "pin": east.pin, "check": "1"})
    assert locked.status_code == 400
    assert "Слишком много неверных ПИН-кодов" in locked.content.decode()


@pytest.mark.django_db(transaction=True)
def test_phones_failing_at_once_each_count(east):
    """Eight threads, each its own database connection, fail at once: eight failures (the
    conditional UPDATE is one statement; the row lock orders them)."""
    start = threading.Barrier(8)
    errors = []

    def fail():
        try:
            start.wait()
            proof._count_failure(east.pk)
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=fail) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert PinFailures.objects.get(entry=east).count == 8
    assert proof.seconds_locked(east.pk) > 0


@pytest.mark.django_db
def test_it_goes_with_its_player(event):
    from events.services import entry_create

    late = entry_create(event, last_name="Поздний", first_name="Пётр")
    proof._count_failure(late.pk)
    late.delete()  # entered by mistake, never seated
    assert not PinFailures.objects.exists()
