"""Over HTTPS the session and CSRF cookies are sent over HTTPS only (``HTTPS=1``); behind the
compose proxy (``PROXY_COUNT``) Django reads the scheme from X-Forwarded-Proto, so a login
over HTTPS passes the CSRF check; «testserver» is an allowed host under tests only."""

import json
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.serving import gunicorn

ROOT = Path(__file__).resolve().parent.parent

DUMP = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({
    "hosts": s.ALLOWED_HOSTS,
    "session_secure": s.SESSION_COOKIE_SECURE,
    "csrf_secure": s.CSRF_COOKIE_SECURE,
    "proxy_header": getattr(s, "SECURE_PROXY_SSL_HEADER", None),
    "proxy_count": s.PROXY_COUNT,
}))
"""


def _settings(**env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("HTTPS", "PROXY_COUNT")}
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    return subprocess.run(
        [sys.executable, "-c", DUMP], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_by_default_cookies_go_over_plain_http_and_no_forwarded_header_is_trusted():
    found = json.loads(_settings().stdout)
    assert found["session_secure"] is False and found["csrf_secure"] is False
    assert found["proxy_header"] is None and found["proxy_count"] == 0


def test_https_makes_both_cookies_secure_and_a_proxy_tells_the_scheme():
    found = json.loads(_settings(HTTPS="1", PROXY_COUNT="1").stdout)
    assert found["session_secure"] is True and found["csrf_secure"] is True
    assert found["proxy_header"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert found["proxy_count"] == 1


@pytest.mark.parametrize(
    "env, named",
    [({"HTTPS": "ture"}, "HTTPS"), ({"PROXY_COUNT": "one"}, "PROXY_COUNT")]
    + [({"PROXY_COUNT": "-1"}, "PROXY_COUNT")],
)
def test_a_bad_value_stops_the_start_naming_the_variable(env, named):
    result = _settings(**env)
    assert result.returncode != 0
    assert named in result.stderr and "Traceback" in result.stderr  # the settings' own error


def test_testserver_is_an_allowed_host_under_tests_only(settings):
    assert "testserver" in settings.ALLOWED_HOSTS  # the test runner adds it
    outside = json.loads(_settings().stdout)["hosts"]
    assert "testserver" not in outside
    assert {"127.0.0.1", "localhost"} <= set(outside)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _open(opener, request):
    try:
        return opener.open(request, timeout=20)
    except urllib.error.HTTPError as error:
        return error


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_behind_the_proxy_over_https_the_login_sets_secure_cookies(server_director, tmp_path):
    """The server as the compose file runs it (HTTPS=1, PROXY_COUNT=1); the requests as
    its nginx forwards them from an HTTPS client."""
    proxied = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.2"}
    # Ready once /healthz answers: it is the one address HTTPS=1 does not send to https://.
    with gunicorn(tmp_path, ready="/healthz", timeout=30, HTTPS="1", PROXY_COUNT="1") as server:
        url = f"{server.base}/director/login/"
        origin = server.base.replace("http://", "https://")
        opener = urllib.request.build_opener(_NoRedirect)
        page = _open(opener, urllib.request.Request(url, headers=proxied))
        assert page.status == 200
        cookies = page.headers.get_all("Set-Cookie")
        csrf_cookie = next(c for c in cookies if c.startswith("csrftoken="))
        assert "; Secure" in csrf_cookie
        token = csrf_cookie.split(";", 1)[0].split("=", 1)[1]
        body = urllib.parse.urlencode(
            {"username": "judge", "password": "s3cret-pass-1", "csrfmiddlewaretoken": token}
        ).encode()
        login = urllib.request.Request(
            url,
            data=body,
            headers={
                **proxied,
                "Origin": origin,
                "Referer": f"{origin}/director/login/",
                "Cookie": f"csrftoken={token}",
            },
        )
        answer = _open(opener, login)
        assert answer.status == 302, answer.read()[:500]
        session = next(
            c for c in answer.headers.get_all("Set-Cookie") if c.startswith("sessionid=")
        )
        assert "; Secure" in session and "; HttpOnly" in session
    assert "Traceback" not in server.output, server.output
