"""GET /healthz: the state of the database, the cache, the broker and a Celery worker.

The app works from the database alone: with Redis down (cache and broker) its pages are
built from the database (``config.cache``), the round ends on the first clock read after its
time (``events.clockdoc``), and the PINs' and logins' counters are rows. So the answer is 503
only when the database fails; a failing cache, broker or worker is named in ``failing`` with
200 and ``"status": "degraded"`` (slower; no timer tasks, no work in the background).

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
from django.core.cache import cache
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


def _cache() -> dict:
    """A key stored and read back: the cache answers misses when its Redis is down
    (``config.cache``), so a value that does not come back is a cache that is down."""
    key = f"healthz:{secrets.token_hex(8)}"
    try:
        cache.set(key, "ok", 10)
        found = cache.get(key)
        cache.delete(key)
    except Exception:
        logger.warning("healthz: the cache check failed", exc_info=True)
        found = None
    if found != "ok":
        return {"ok": False, "error": "the cache does not answer"}
    return {"ok": True}


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
    checks = {"database": _database(), "cache": _cache(), "broker": _broker()}
    checks["worker"] = (
        _worker() if checks["broker"]["ok"] else {"ok": False, "error": "broker down"}
    )
    failing = [name for name, check in checks.items() if not check["ok"]]
    status = "fail" if "database" in failing else "degraded" if failing else "ok"
    return {"status": status, "failing": failing, **checks}


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
    return JsonResponse(body, status=503 if "database" in body["failing"] else 200)
