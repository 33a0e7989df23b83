"""Gunicorn's access log without the polls: a hall of 400 phones polls the clock every few
seconds, and a line per poll buries what matters. A request is logged when it writes
(anything but GET/HEAD), fails (status ≥ 400) or is slow (≥ 1 s)."""

from gunicorn.glogging import Logger

SLOW_SECONDS = 1.0


class QuietAccessLogger(Logger):
    def access(self, resp, req, environ, request_time):
        status = int(str(resp.status).split(None, 1)[0]) if resp.status else 0
        routine = req.method in ("GET", "HEAD") and status < 400
        if routine and request_time.total_seconds() < SLOW_SECONDS:
            return
        super().access(resp, req, environ, request_time)
