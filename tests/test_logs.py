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
