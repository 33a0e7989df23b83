"""Gunicorn's settings for `make run`, the Docker image and any deployment:
``gunicorn config.wsgi:application -c python:config.gunicorn``.

Sized from the machine: one process per core plus one (Python runs one thread at a time per
process, so more processes than cores only add switching), each with threads for the
requests that wait on the database. WEB_WORKERS / WEB_THREADS override both.

The access log leaves out the polls: a hall of 400 phones polls the clock every few seconds,
and a line per poll buries what matters. A request is logged when it writes (anything but
GET/HEAD), fails (status ≥ 400) or is slow (≥ 1 s). What it prints has the phones' keys
masked (``config.logmask``): the request line, path, query and referrer of a player's or a
table's page carry the key that is its only pass."""

import os

from gunicorn.glogging import Logger

from config.logmask import mask

SLOW_SECONDS = 1.0
SWITCH_MS = 1.0


def _positive(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
        raise SystemExit(f"{name} must be a whole number of at least 1, not {raw!r}")
    return int(raw)


def _positive_float(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not 0 < value <= 1000:
        raise SystemExit(f"{name} must be a number of milliseconds between 0 and 1000, not {raw!r}")
    return value


class QuietAccessLogger(Logger):
    def access(self, resp, req, environ, request_time):
        status = int(str(resp.status).split(None, 1)[0]) if resp.status else 0
        routine = req.method in ("GET", "HEAD") and status < 400
        if routine and request_time.total_seconds() < SLOW_SECONDS:
            return
        super().access(resp, req, environ, request_time)

    def atoms(self, resp, req, environ, request_time):
        """Every field a format may print (request line, path, query, referrer, any header
        or environ value) with the keys masked."""
        found = super().atoms(resp, req, environ, request_time)
        return {name: mask(v) if isinstance(v, str) else v for name, v in found.items()}


workers = _positive("WEB_WORKERS", (os.cpu_count() or 1) + 1)
threads = _positive("WEB_THREADS", 8)
worker_class = "gthread"
timeout = 60
graceful_timeout = 5
keepalive = 5
accesslog = "-"
logger_class = QuietAccessLogger


def post_fork(server, worker):
    """Each worker hands the interpreter lock over every millisecond instead of every five:
    a request whose database or cache answer has come back waits at most that long for a
    thread busy rendering another page (measured: the clock poll's p95 under 400 phones fell
    from 32 to 11 ms, a sheet save's from 317 to 120 ms). WEB_SWITCH_MS overrides it."""
    import sys

    sys.setswitchinterval(_positive_float("WEB_SWITCH_MS", SWITCH_MS) / 1000)
