"""With Redis down (cache and broker), the login still answers: its page, a wrong password,
the lock and the right password — never a 500. The lock's count is in the database.

Once in the test process, with the cache and the broker pointed where nothing listens; once
through a real web server started, as `make run` starts it, with ``REDIS_URL`` pointing
there."""

import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from django.test import Client

from config.celery import app
from tests.serving import gunicorn

ROOT = Path(__file__).resolve().parents[2]
DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1
LOGIN = "/director/login/"


@pytest.fixture
def dead_redis(settings):
    """The shared cache and the broker point at a closed port for this test."""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": DEAD_REDIS,
            "KEY_PREFIX": "dead",
        }
    }
    previous = app.conf.broker_url
    app.conf.broker_url = DEAD_REDIS
    app._pool = None
    yield
    app.conf.broker_url = previous
    app._pool = None


@pytest.mark.django_db
def test_the_login_page_answers_with_redis_down(director, dead_redis):
    from django.core.cache import cache

    cache.set("anything", 1)
    assert cache.get("anything") is None  # the cache really is down: it keeps nothing
    client = Client(raise_request_exception=False)
    assert client.get(LOGIN).status_code == 200
    for _ in range(4):
        assert client.post(LOGIN, {"username": "judge", "password": "wrong"}).status_code == 200
    good = client.post(LOGIN, {"username": "judge", "password": "s3cret-pass-1"})
    assert good.status_code == 302
    client.logout()
    for _ in range(4):
        client.post(LOGIN, {"username": "judge", "password": "wrong"})
    locked = client.post(LOGIN, {"username": "judge", "password": "wrong"})
    assert locked.status_code == 429
    assert "Слишком много неудачных входов" in locked.content.decode()


def _post(opener, url, data, csrf):
    body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": csrf}).encode()
    request = urllib.request.Request(url, data=body, headers={"Referer": url})
    try:
        return opener.open(request, timeout=20)
    except urllib.error.HTTPError as error:
        return error


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _browser(url):
    """A client of its own (its cookies) that opened the login page: it and its CSRF token."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect)
    page = opener.open(url, timeout=20)
    assert page.status == 200
    return opener, next(c.value for c in jar if c.name == "csrftoken")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_server_started_with_redis_unreachable_logs_in(server_director, tmp_path):
    with gunicorn(tmp_path, ready=LOGIN, timeout=30, REDIS_URL=DEAD_REDIS) as server:
        url = server.base + LOGIN
        good, csrf = _browser(url)
        assert (
            _post(good, url, {"username": "judge", "password": "s3cret-pass-1"}, csrf).status == 302
        )
        bad, csrf = _browser(url)
        answers = [
            _post(bad, url, {"username": "judge", "password": "wrong"}, csrf).status
            for _ in range(5)
        ]
        assert answers == [200, 200, 200, 200, 429]
        assert (
            _post(bad, url, {"username": "judge", "password": "s3cret-pass-1"}, csrf).status == 429
        )
    assert "Traceback" not in server.output, server.output
