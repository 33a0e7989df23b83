"""Quiet logs: a hall of phones polling and a sweep every second write nothing; what acts,
fails or is slow is logged."""

import logging
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from gunicorn.config import Config

from config.gunicorn import QuietAccessLogger
from events import rounds, tasks
from events.models import Round

pytestmark = pytest.mark.django_db


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def _access_lines(method: str, status: str, seconds: float) -> list[str]:
    config = Config()
    config.set("accesslog", "-")
    log = QuietAccessLogger(config)
    collect = _Collect()
    log.access_log.handlers = [collect]
    request = SimpleNamespace(
        method=method, path="/e/x/clock.json", query="", version=(1, 1), headers=[]
    )
    response = SimpleNamespace(status=status, sent=10, headers=[])
    environ = {
        "REMOTE_ADDR": "127.0.0.1",
        "RAW_URI": "/e/x/clock.json",
        "REQUEST_METHOD": method,
        "SERVER_PROTOCOL": "HTTP/1.1",
    }
    log.access(response, request, environ, timedelta(seconds=seconds))
    return collect.lines


def test_a_poll_that_answers_quickly_writes_no_access_line():
    assert _access_lines("GET", "200 OK", 0.01) == []
    assert _access_lines("GET", "304 Not Modified", 0.01) == []


def test_writes_failures_and_slow_requests_are_logged():
    assert len(_access_lines("POST", "302 Found", 0.05)) == 1
    assert len(_access_lines("GET", "500 Internal Server Error", 0.01)) == 1
    assert len(_access_lines("GET", "404 Not Found", 0.01)) == 1
    assert len(_access_lines("GET", "200 OK", 1.5)) == 1


def test_celery_does_not_log_every_task_and_every_beat():
    loggers = settings.LOGGING["loggers"]
    for name in ("celery.app.trace", "celery.worker.strategy", "celery.beat"):
        assert loggers[name]["level"] == "WARNING"


def test_the_sweep_logs_only_when_it_acts(session15, caplog):
    caplog.set_level(logging.INFO, logger="events.clock")
    tasks.clock_sweep()
    assert caplog.records == []
    rnd = Round.objects.get(room__session=session15, number=1)
    rnd = rounds.round_start(rnd, length_seconds=60)
    Round.objects.filter(pk=rnd.pk).update(ends_at=rnd.ends_at - timedelta(minutes=5))
    tasks.clock_sweep()
    assert [r.getMessage() for r in caplog.records] == ["clock sweep fired end: 1"]


# --- keys never reach a log ------------------------------------------------------------------

KEY = "Xy3_k-9QzPq2LmN8rT5vWa"  # the shape of every private key: secrets.token_urlsafe(16)
OTHER = "b7Hc-Qd_e2Ff9Gg1Hh0iJj"


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        (f"GET /t/{KEY}/deals/3/?me={OTHER} HTTP/1.1", "GET /t/***/deals/3/?me=*** HTTP/1.1"),
        (f"/p/{KEY}/", "/p/***/"),
        (f"/p/{KEY}/clock.json", "/p/***/clock.json"),
        (f"https://hall.example/t/{KEY}/?as=E", "https://hall.example/t/***/?as=E"),
        (f"/p/{KEY}x/", "/p/***/"),  # mistyped, one character more: still the key
        ("/t/short/", "/t/***/"),
        (f"me={KEY}&as=N", "me=***&as=N"),
        ("me=ab12&as=N", "me=***&as=N"),
        (f"/director/login/?next=%2Fp%2F{KEY}%2F", "/director/login/?next=%2Fp%***%2F"),
        (f"/whatever/{KEY}/", "/whatever/***/"),
        ("/e/4f2a9c1b/results/?since=12", "/e/4f2a9c1b/results/?since=12"),
        ("/static/css/scoring.3f2a9c1b7e4d.css", "/static/css/scoring.3f2a9c1b7e4d.css"),
        ("clock sweep fired end: 1", "clock sweep fired end: 1"),
        ("", ""),
    ],
)
def test_mask_hides_every_key_and_keeps_the_rest(text, masked):
    from config.logmask import mask

    assert mask(text) == masked


def test_the_access_log_masks_keys_in_the_request_line_and_the_referrer():
    config = Config()
    config.set("accesslog", "-")
    config.set("access_log_format", '%(h)s "%(r)s" %(s)s "%(f)s" %(U)s %(q)s')
    log = QuietAccessLogger(config)
    collect = _Collect()
    log.access_log.handlers = [collect]
    uri = f"/t/{KEY}/deals/3/?me={OTHER}"
    request = SimpleNamespace(
        method="POST", path=f"/t/{KEY}/deals/3/", query=f"me={OTHER}", version=(1, 1), headers=[]
    )
    environ = {
        "REMOTE_ADDR": "127.0.0.1",
        "RAW_URI": uri,
        "PATH_INFO": f"/t/{KEY}/deals/3/",
        "QUERY_STRING": f"me={OTHER}",
        "REQUEST_METHOD": "POST",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": f"http://hall.example/p/{OTHER}/",
    }
    response = SimpleNamespace(status="400 Bad Request", sent=10, headers=[])
    log.access(response, request, environ, timedelta(seconds=0.01))
    assert collect.lines == [
        '127.0.0.1 "POST /t/***/deals/3/?me=*** HTTP/1.1" 400 "http://hall.example/p/***/" '
        "/t/***/deals/3/ me=***"
    ]


def _root_console():
    console = [h for h in logging.getLogger().handlers if h.get_name() == "console"]
    assert len(console) == 1
    return console[0]


def test_djangos_own_lines_are_masked_as_the_handler_prints_them(client):
    """«Not Found: /p/<key>/» (django.request) and a runserver line (django.server) as the
    configured handler writes them: no key."""
    import io

    console = _root_console()
    written = io.StringIO()
    before = console.setStream(written)
    try:
        assert client.get(f"/p/{KEY}/").status_code == 404
        assert client.get(f"/t/{KEY}/deals/3/?me={OTHER}").status_code == 404
        logging.getLogger("django.server").info(
            '"%s" %s %s', f"GET /t/{KEY}/?me={OTHER} HTTP/1.1", 404, 10
        )
        try:
            raise ValueError(f"no table with key {KEY}")
        except ValueError:
            logging.getLogger("django.request").exception("Internal error at /p/%s/", KEY)
    finally:
        console.setStream(before)
    lines = written.getvalue()
    assert KEY not in lines and OTHER not in lines
    assert "WARNING django.request: Not Found: /p/***/" in lines
    assert "WARNING django.request: Not Found: /t/***/deals/3/" in lines
    assert 'django.server: "GET /t/***/?me=*** HTTP/1.1" 404 10' in lines
    assert "ValueError: no table with key ***" in lines
    # The frames keep their names, however long: only the exception's lines may hold a key.
    assert "in test_djangos_own_lines_are_masked_as_the_handler_prints_them" in lines


def test_django_prints_through_the_masked_handler_only():
    """Django's defaults would give «django» a console of its own (with DEBUG) and runserver
    one too: the settings leave them none, so every line goes through the root's."""
    for name in ("django", "django.request", "django.server", "django.security"):
        logger = logging.getLogger(name)
        assert logger.handlers == [] and logger.propagate
    assert any(type(f).__name__ == "MaskKeys" for f in _root_console().filters)
