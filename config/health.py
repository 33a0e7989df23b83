"""GET /healthz: the state of the database, the broker and a Celery worker.

Anyone may ask (a load balancer, a monitor), so the answer is cheap and says little:

- it is computed at most once per ``HEALTH_CACHE_SECONDS`` per process, by one request at a
  time; meanwhile the others get the last answer at once (32 monitors asking while the broker
  is down hold no thread for seconds);
- every check has a short timeout (the worker's: ``HEALTH_WORKER_TIMEOUT_MS``);
- a failing part is named with a plain reason, never a host, a port or a traceback (those go
  to the server's log).
"""

import logging
import secrets
import threading
import time

from celery.exceptions import TimeoutError as CeleryTimeout
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import app as celery_app
from events.tasks import ping

logger = logging.getLogger("config.health")

_lock = threading.Lock()
_last: dict = {}  # {"at": monotonic, "body": dict}


def forget() -> None:
    """Drop the kept answer (the tests change what the checks meet)."""
    _last.clear()


def _database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return {"ok": True, "engine": connection.vendor}
    except Exception:  # any failure of the database is what we report
        logger.warning("healthz: the database check failed", exc_info=True)
        return {"ok": False, "error": "the database does not answer"}


def _broker() -> dict:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=1)
            transport = conn.transport.driver_type
        return {"ok": True, "transport": str(transport)}
    except Exception:
        logger.warning("healthz: the broker check failed", exc_info=True)
        return {"ok": False, "error": "the broker does not answer"}


def _worker() -> dict:
    token = secrets.token_hex(8)
    timeout = settings.HEALTH_WORKER_TIMEOUT
    try:
        result = ping.apply_async(args=[token], expires=timeout + 5, retry=False)
        answer = result.get(timeout=timeout, propagate=True)
        result.forget()
    except CeleryTimeout:
        return {"ok": False, "error": f"no worker answered within {timeout:.1f} s"}
    except Exception:
        logger.warning("healthz: the worker check failed", exc_info=True)
        return {"ok": False, "error": "the worker check failed"}
    if answer != token:
        return {"ok": False, "error": "a worker answered with the wrong token"}
    return {"ok": True}


def _checks() -> dict:
    checks = {"database": _database(), "broker": _broker()}
    checks["worker"] = (
        _worker() if checks["broker"]["ok"] else {"ok": False, "error": "broker down"}
    )
    failing = [name for name, check in checks.items() if not check["ok"]]
    return {"status": "ok" if not failing else "fail", "failing": failing, **checks}


def _answer() -> dict:
    fresh_for = settings.HEALTH_CACHE_SECONDS
    last = _last.get("body")
    if last is not None and time.monotonic() - _last["at"] < fresh_for:
        return last
    if not _lock.acquire(blocking=last is None):
        return last  # another request is checking now: the last answer meanwhile
    try:
        last = _last.get("body")
        if last is not None and time.monotonic() - _last["at"] < fresh_for:
            return last  # computed while this one waited for the first answer
        body = _checks()
        _last.update(at=time.monotonic(), body=body)
        return body
    finally:
        _lock.release()


@never_cache
def healthz(request):
    body = _answer()
    return JsonResponse(body, status=200 if not body["failing"] else 503)
