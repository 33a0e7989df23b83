"""The PINs' failure counters are in the database (scoring.models.PinFailures) and hurt the
guesser, not the player: PIN_FAILURES_ALLOWED wrong PINs for a player from one phone within
PIN_LOCK_SECONDS of the first lock that phone out of his PIN until the window ends, while his
right PIN from another phone still works; PIN_FAILURES_ALLOWED_PLAYER from all phones
together lock his PIN on every phone, and his own link clears that. The rule holds with the
cache down, counts every one of many phones failing at once, and begins a new window once
the old one is over."""

import threading
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone

from scoring.models import PinFailures, Proof
from scoring.sheets import proof, services
from tests.factories import round_link, seat_at

DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1
GUESSER, OWNER, THIRD = "a" * 24, "b" * 24, "c" * 24  # three phones (device_hash's shape)


@pytest.fixture
def east(running):
    return seat_at(running, "E").entry


def _wrong(entry) -> str:
    return f"{(int(entry.pin) + 1) % 10000:04d}"


def _count(entry, device) -> int:
    return PinFailures.objects.get(entry=entry, device=device).count


def _identify(play, *, device, pin=None, key=None, position="E", named=False):
    return proof.identify(
        _seats(play),
        access=services.players_access(play),
        position=position,
        key=key,
        pin=pin,
        named=named,
        device=device,
    )


def _seats(play):
    from events.models import Seat

    return Seat.objects.select_related("entry").filter(round=play.round, table=play.table)


def _refusal(play, **kwargs) -> str:
    with pytest.raises(ValidationError) as refused:
        _identify(play, **kwargs)
    return " ".join(refused.value.message_dict["pin"])


# --- the counters -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_five_failures_from_one_phone_lock_that_phone_until_the_window_of_the_first_ends(
    east, settings
):
    settings.PIN_LOCK_SECONDS = 600
    for _ in range(4):
        proof._count_failure(east.pk, GUESSER)
    assert proof.seconds_locked(east.pk, GUESSER) == 0
    proof._count_failure(east.pk, GUESSER)
    assert 590 < proof.seconds_locked(east.pk, GUESSER) <= 600
    assert proof.lock_of(east.pk, GUESSER).every_phone is False
    assert proof.seconds_locked(east.pk, OWNER) == 0  # another phone may still try
    assert _count(east, GUESSER) == 5 and _count(east, PinFailures.EVERY_PHONE) == 5


@pytest.mark.django_db
def test_ten_failures_from_several_phones_lock_his_pin_on_every_phone(east, settings):
    phones = [f"{i:024x}" for i in range(10)]  # a guesser who drops his cookie each time
    for phone in phones[:9]:
        proof._count_failure(east.pk, phone)
    assert proof.seconds_locked(east.pk, OWNER) == 0
    proof._count_failure(east.pk, phones[9])
    lock = proof.lock_of(east.pk, OWNER)
    assert lock is not None and lock.every_phone and lock.seconds > 14 * 60
    settings.PIN_FAILURES_ALLOWED_PLAYER = 11  # the setting is read when asked
    assert proof.seconds_locked(east.pk, OWNER) == 0


@pytest.mark.django_db
def test_a_failure_after_the_window_begins_a_new_one(east):
    for _ in range(5):
        proof._count_failure(east.pk, GUESSER)
    PinFailures.objects.filter(entry=east).update(until=timezone.now() - timedelta(seconds=1))
    assert proof.seconds_locked(east.pk, GUESSER) == 0  # the lock is over with its window
    proof._count_failure(east.pk, GUESSER)
    for device in (GUESSER, PinFailures.EVERY_PHONE):
        row = PinFailures.objects.get(entry=east, device=device)
        assert row.count == 1 and row.until > timezone.now() + timedelta(minutes=14)
    assert proof.seconds_locked(east.pk, GUESSER) == 0


@pytest.mark.django_db
def test_a_caller_that_names_no_phone_counts_as_one_phone(east):
    for _ in range(5):
        proof._count_failure(east.pk)
    assert proof.seconds_locked(east.pk) > 0
    assert _count(east, proof.UNKNOWN_PHONE) == 5
    assert proof.seconds_locked(east.pk, OWNER) == 0


@pytest.mark.django_db(transaction=True)
def test_phones_failing_at_once_each_count(east):
    """Eight threads, each its own database connection, fail at once from one phone: eight
    failures on the phone's count and on the player's (the conditional UPDATE is one
    statement; the row locks order them)."""
    start = threading.Barrier(8)
    errors = []

    def fail():
        try:
            start.wait()
            proof._count_failure(east.pk, GUESSER)
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
    assert _count(east, GUESSER) == 8 and _count(east, PinFailures.EVERY_PHONE) == 8
    assert proof.seconds_locked(east.pk, GUESSER) > 0


@pytest.mark.django_db
def test_it_goes_with_its_player(event):
    from events.services import entry_create

    late = entry_create(event, last_name="Поздний", first_name="Пётр")
    proof._count_failure(late.pk, GUESSER)
    late.delete()  # entered by mistake, never seated
    assert not PinFailures.objects.exists()


# --- identify: who pays for the wrong PINs ---------------------------------------------------


@pytest.mark.django_db
def test_a_guessers_phone_locks_itself_and_the_players_pin_works_from_another(running):
    east = seat_at(running, "E").entry
    for _ in range(4):
        assert "Это не ПИН-код игрока места E" in _refusal(
            running, device=GUESSER, pin=_wrong(east)
        )
    locked = _refusal(running, device=GUESSER, pin=_wrong(east))
    assert "Слишком много неверных ПИН-кодов этого игрока с этого телефона" in locked
    assert "его личная страница или другой телефон" in locked
    assert east.last_name not in locked  # the gate names nobody
    # His right PIN from the locked phone is refused too: that phone may not try …
    assert "с этого телефона" in _refusal(running, device=GUESSER, pin=east.pin)
    # … but from his own phone, or the table's next one, it proves him.
    assert _identify(running, device=OWNER, pin=east.pin).proof == Proof.PIN


@pytest.mark.django_db
def test_his_own_link_clears_his_lock_across_phones_but_not_the_guessers_phone(running):
    east = seat_at(running, "E").entry
    phones = [f"{i:024x}" for i in range(10)]
    for phone in phones:
        _refusal(running, device=phone, pin=_wrong(east))
    for phone in (OWNER, phones[0]):
        locked = _refusal(running, device=phone, pin=east.pin)
        assert "с разных телефонов" in locked and "свою личную страницу" in locked
    assert _identify(running, device=THIRD, key=east.key, position=None).proof == Proof.LINK
    assert not PinFailures.objects.filter(entry=east, device=PinFailures.EVERY_PHONE).exists()
    assert _identify(running, device=OWNER, pin=east.pin).proof == Proof.PIN
    # A phone that counted five of them for him stays locked; one that counted one does not.
    for _ in range(4):
        _refusal(running, device=phones[0], pin=_wrong(east))
    assert "с этого телефона" in _refusal(running, device=phones[0], pin=east.pin)
    assert _identify(running, device=phones[1], pin=east.pin).proof == Proof.PIN


@pytest.mark.django_db
def test_link_proven_clears_only_what_there_is(east, django_assert_num_queries):
    with django_assert_num_queries(1):  # nothing counted: one read, no write
        proof.link_proven(east.pk)
    proof._count_failure(east.pk, GUESSER)
    proof.link_proven(east.pk)
    assert list(PinFailures.objects.filter(entry=east).values_list("device", flat=True)) == [
        GUESSER
    ]


@pytest.mark.django_db
def test_a_pin_where_the_player_may_not_write_is_not_counted(running):
    """(Through the pages, with a round of his old table: test_round_links.py.)"""
    east = seat_at(running, "E").entry
    closed = services.PlayersAccess(open=False, late=False, reason="Протоколы закрыты.")
    for _ in range(6):
        with pytest.raises(ValidationError) as refused:
            proof.identify(
                _seats(running), access=closed, position="E", pin=_wrong(east), device=GUESSER
            )
        assert refused.value.message_dict["pin"] == ["Протоколы закрыты."]
    assert not PinFailures.objects.exists()


# --- through the table's pages --------------------------------------------------------------


@pytest.mark.django_db
def test_the_rule_holds_with_the_cache_down(client, running, east, settings):
    settings.CACHES = {"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": DEAD_REDIS}}
    url = round_link(running, "deals/1/")
    for _ in range(5):
        assert client.post(url, {"as": "E", "pin": _wrong(east), "check": "1"}).status_code == 400
    locked = client.post(url, {"as": "E", "pin": east.pin, "check": "1"})
    assert locked.status_code == 400
    assert "Слишком много неверных ПИН-кодов" in locked.content.decode()


@pytest.mark.django_db
def test_a_phone_that_guessed_is_locked_and_the_players_own_phone_is_not(client, running):
    from django.test import Client

    east = seat_at(running, "E").entry
    url = round_link(running, "deals/1/")
    for _ in range(5):
        assert client.post(url, {"as": "E", "pin": _wrong(east), "check": "1"}).status_code == 400
    locked = client.post(url, {"as": "E", "pin": east.pin, "check": "1"}).content.decode()
    assert "с этого телефона" in locked
    own = Client().post(url, {"as": "E", "pin": east.pin, "check": "1"}).content.decode()
    assert "Слишком много неверных ПИН-кодов" not in own
