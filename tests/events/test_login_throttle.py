"""Failed logins lock a name from the address they came from (django-axes, its attempts in
the database): even the right password is refused there for a while, while the name's owner
at another address logs in as usual — until the name's failures from all addresses together
reach LOGIN_FAILURES_ALLOWED_NAME, which locks it everywhere."""

import time

import pytest
from django.core.cache import cache
from django.test import RequestFactory, override_settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

LOGIN = "/director/login/"
HERE = "198.51.100.2"  # the owner's address
ELSEWHERE = "203.0.113.7"  # someone else's
PROXY = "172.18.0.5"  # the compose proxy, as the web server sees it


def _try(client, username, password, address=HERE, **headers):
    return client.post(
        LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address, **headers
    )


def _logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_five_wrong_passwords_lock_the_name_at_that_address_with_a_clear_message(client, director):
    for _ in range(4):
        response = _try(client, "judge", "wrong")
        assert response.status_code == 200  # the usual «wrong name or password»
    response = _try(client, "judge", "wrong")  # the fifth locks it, and says so
    assert response.status_code == 429
    response = _try(client, "judge", "s3cret-pass-1")  # the right one, too late
    assert response.status_code == 429
    body = response.content.decode()
    assert "Слишком много неудачных входов под этим именем" in body
    assert "15 минут" in body
    assert 'value="judge"' in body  # the form comes back with the name as typed
    assert not _logged_in(client)
    # Any letter case is the same name.
    assert _try(client, "JUDGE", "s3cret-pass-1").status_code == 429


def test_a_burst_from_another_address_never_locks_the_owner_out_at_his(client, director):
    """Anyone can type the public name «judge» (or «director») with wrong passwords: that
    locks the name at his own address only."""
    for _ in range(12):
        _try(client, "judge", "wrong", address=ELSEWHERE)
    assert _try(client, "judge", "s3cret-pass-1", address=ELSEWHERE).status_code == 429
    response = _try(client, "judge", "s3cret-pass-1", address=HERE)
    assert response.status_code == 302 and response.url == reverse("director:event_list")
    assert _logged_in(client)


def test_one_address_failing_under_many_names_locks_none_but_those(
    client, director, other_director
):
    for name in ("admin", "root", "director", "judge", "test"):
        for _ in range(5):
            _try(client, name, "wrong", address=PROXY)
    assert _try(client, "judge", "s3cret-pass-1", address=PROXY).status_code == 429
    assert _try(client, "rival", "s3cret-pass-2", address=PROXY).status_code == 302


@override_settings(PROXY_COUNT=1)
def test_behind_the_proxy_each_client_is_the_address_the_proxy_saw(client, director):
    """Behind the compose proxy every request comes from the proxy's address; the client's
    is the last hop of X-Forwarded-For (the proxy appends it), whatever he wrote before it."""
    for _ in range(5):
        # A client who writes the owner's address himself: the proxy appends his real one.
        _try(
            client,
            "judge",
            "wrong",
            address=PROXY,
            HTTP_X_FORWARDED_FOR=f"{HERE}, {ELSEWHERE}",
        )
    locked = _try(client, "judge", "s3cret-pass-1", address=PROXY, HTTP_X_FORWARDED_FOR=ELSEWHERE)
    assert locked.status_code == 429
    response = _try(client, "judge", "s3cret-pass-1", address=PROXY, HTTP_X_FORWARDED_FOR=HERE)
    assert response.status_code == 302


def test_with_no_proxy_set_the_forwarded_header_is_not_trusted(client, director):
    for i in range(5):
        _try(client, "judge", "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{i + 1}")
    response = _try(client, "judge", "s3cret-pass-1", HTTP_X_FORWARDED_FOR="192.0.2.99")
    assert response.status_code == 429  # one address: the connection's


def test_another_name_still_logs_in_and_a_success_clears_the_count(
    client, director, other_director
):
    for _ in range(5):
        _try(client, "judge", "wrong")
    response = _try(client, "rival", "s3cret-pass-2")
    assert response.status_code == 302 and response.url == reverse("director:event_list")
    client.logout()
    for _ in range(4):
        _try(client, "rival", "wrong")
    assert _try(client, "rival", "s3cret-pass-2").status_code == 302  # 4 < 5: cleared
    client.logout()
    for _ in range(4):
        assert _try(client, "rival", "wrong").status_code == 200
    assert _try(client, "rival", "wrong").status_code == 429
    assert _try(client, "rival", "s3cret-pass-2").status_code == 429


def test_the_count_is_kept_in_the_database_not_the_cache(client, director):
    from axes.models import AccessAttempt

    for _ in range(5):
        _try(client, "judge", "wrong")
    cache.clear()
    assert _try(client, "judge", "s3cret-pass-1").status_code == 429
    attempt = AccessAttempt.objects.get()
    assert (attempt.username, attempt.ip_address, attempt.failures_since_start) == (
        "judge",
        HERE,
        5,
    )


def test_the_admin_login_is_refused_as_well(client, django_user_model):
    django_user_model.objects.create_superuser("root", password="s3cret-root-1")
    for _ in range(5):
        client.post("/admin/login/", {"username": "root", "password": "wrong"})
    response = client.post("/admin/login/", {"username": "root", "password": "s3cret-root-1"})
    assert response.status_code == 429
    assert "Слишком много неудачных входов под этим именем" in response.content.decode()
    assert not _logged_in(client)


@override_settings(LOGIN_LOCK_SECONDS=4)
def test_the_lock_ends_with_its_window_and_tries_meanwhile_do_not_prolong_it(client, director):
    from events import throttle

    for _ in range(5):
        _try(client, "judge", "wrong")
    assert _try(client, "judge", "s3cret-pass-1").status_code == 429
    time.sleep(1)
    assert _try(client, "judge", "wrong").status_code == 429  # not counted: no longer
    request = RequestFactory().post(LOGIN, {"username": "judge"}, REMOTE_ADDR=HERE)
    left = throttle.seconds_locked(request)
    assert 0 < left <= 3
    time.sleep(left + 0.3)
    assert _try(client, "judge", "s3cret-pass-1").status_code == 302


def test_the_message_comes_in_english_on_request(client, director):
    for _ in range(5):
        _try(client, "judge", "wrong")
    response = _try(client, "judge", "s3cret-pass-1", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 429
    assert "Too many failed logins for this name: wait 15 minutes" in response.content.decode()


@pytest.mark.parametrize(
    "name",
    ["x" * 5000, "judge\x00", "", "   ", "судья", "<script>alert(1)</script>"],
    ids=["long", "nul", "empty", "blank", "cyrillic", "markup"],
)
def test_an_odd_name_is_a_form_error_never_a_500(client, director, name):
    for _ in range(6):
        response = _try(client, name, "wrong")
        assert response.status_code in (200, 429)
    assert "<script>alert" not in response.content.decode()


@override_settings(PROXY_COUNT=2)
@pytest.mark.parametrize(
    "forwarded",
    ["garbage", "", " , ,", "1.2.3.4:5678, 10.0.0.1", "::::, x", "fe80::1%eth0, 10.0.0.1"],
)
def test_an_odd_forwarded_header_is_never_a_500(client, director, forwarded):
    for _ in range(6):
        response = _try(client, "judge", "wrong", address=PROXY, HTTP_X_FORWARDED_FOR=forwarded)
        assert response.status_code in (200, 429)
    assert response.status_code == 429


# --- a name across addresses ------------------------------------------------------------------

ROTATING = [f"192.0.2.{i}" for i in range(1, 5)]  # a guesser's addresses


def test_a_guesser_rotating_addresses_is_capped_by_the_name_across_them(
    client, director, other_director
):
    """Three times LOGIN_FAILURES_ALLOWED from all addresses together lock the name from
    every one: the third address's fifth failure is answered with the lock, and a fourth
    address — the owner's, with his right password — is refused as well."""
    for address in ROTATING[:2]:
        for _ in range(5):
            _try(client, "judge", "wrong", address=address)
    for _ in range(4):
        assert _try(client, "judge", "wrong", address=ROTATING[2]).status_code == 200
    assert _try(client, "judge", "wrong", address=ROTATING[2]).status_code == 429
    for address in (ROTATING[3], HERE):
        response = _try(client, "judge", "s3cret-pass-1", address=address)
        assert response.status_code == 429
        body = response.content.decode()
        assert "Слишком много неудачных входов под этим именем" in body
        assert "15 минут" in body
    assert not _logged_in(client)
    # Other names are not touched.
    assert _try(client, "rival", "s3cret-pass-2", address=ROTATING[3]).status_code == 302


def test_below_the_names_cap_the_owner_logs_in_at_his_address(client, director):
    for address in ROTATING[:2]:
        for _ in range(5):
            _try(client, "judge", "wrong", address=address)
    for _ in range(4):
        _try(client, "judge", "wrong", address=ROTATING[2])  # 14 in all
    response = _try(client, "judge", "s3cret-pass-1", address=HERE)
    assert response.status_code == 302 and _logged_in(client)
    # His success clears his address's count only: the guessers' stay.
    from axes.models import AccessAttempt

    assert sorted(AccessAttempt.objects.values_list("ip_address", flat=True)) == ROTATING[:3]


@override_settings(LOGIN_LOCK_SECONDS=4, LOGIN_FAILURES_ALLOWED_NAME=6)
def test_the_names_lock_says_its_own_wait_and_ends_as_its_failures_age(client, director):
    from events import throttle

    for _ in range(4):
        _try(client, "judge", "wrong", address=ROTATING[0])
    time.sleep(1.5)
    for _ in range(2):
        _try(client, "judge", "wrong", address=ROTATING[1])  # 6 in all: locked everywhere
    request = RequestFactory().post(LOGIN, {"username": "judge"}, REMOTE_ADDR=HERE)
    left = throttle.seconds_locked(request)
    assert 0 < left <= 3  # until the first address's failures are 4 s old
    assert _try(client, "judge", "s3cret-pass-1").status_code == 429
    time.sleep(left + 0.3)
    assert throttle.seconds_locked(request) == 0
    assert _try(client, "judge", "s3cret-pass-1").status_code == 302
