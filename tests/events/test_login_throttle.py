"""A name that keeps failing to log in is refused for a while, even with the right password."""

import time

import pytest
from django.test import override_settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

LOGIN = "/director/login/"


def _try(client, username, password):
    return client.post(LOGIN, {"username": username, "password": password})


def test_five_wrong_passwords_lock_the_name_with_a_clear_message(client, director):
    for _ in range(5):
        response = _try(client, "judge", "wrong")
        assert response.status_code == 200  # the usual «wrong name or password»
    response = _try(client, "judge", "s3cret-pass-1")  # the right one, too late
    assert response.status_code == 429
    body = response.content.decode()
    assert "Слишком много неудачных входов под этим именем" in body
    assert "15 минут" in body
    assert "_auth_user_id" not in client.session
    # Any letter case is the same name.
    assert _try(client, "JUDGE", "s3cret-pass-1").status_code == 429


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
        _try(client, "rival", "wrong")
    assert _try(client, "rival", "wrong").status_code == 200
    assert _try(client, "rival", "s3cret-pass-2").status_code == 429


def test_the_admin_login_is_refused_as_well(client, django_user_model):
    django_user_model.objects.create_superuser("root", password="s3cret-root-1")
    for _ in range(5):
        client.post("/admin/login/", {"username": "root", "password": "wrong"})
    client.post("/admin/login/", {"username": "root", "password": "s3cret-root-1"})
    assert "_auth_user_id" not in client.session


@override_settings(LOGIN_LOCK_SECONDS=4)
def test_the_lock_ends_with_its_window(client, director):
    from events import throttle

    for _ in range(5):
        _try(client, "judge", "wrong")
    assert _try(client, "judge", "s3cret-pass-1").status_code == 429
    left = throttle.seconds_locked("judge", None)  # the window runs from the first failure
    assert 0 < left <= 4
    time.sleep(left + 0.3)
    assert _try(client, "judge", "s3cret-pass-1").status_code == 302


def test_the_message_comes_in_english_on_request(client, director):
    for _ in range(5):
        _try(client, "judge", "wrong")
    response = client.post(
        LOGIN,
        {"username": "judge", "password": "s3cret-pass-1"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 429
    assert "Too many failed logins for this name: wait 15 minutes" in response.content.decode()
