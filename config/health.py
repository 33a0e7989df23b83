"""GET /healthz: the state of the database, the broker and a Celery worker."""

import secrets

from celery.exceptions import TimeoutError as CeleryTimeout
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import app as celery_app


def _database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return {"ok": True, "engine": connection.vendor}
    except Exception as error:  # any failure of the database is what we report
        return {"ok": False, "error": str(error).strip()[:200]}


def _broker() -> dict:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            transport = conn.transport_cls
        return {"ok": True, "transport": str(transport)}
    except Exception as error:
        return {"ok": False, "error": str(error).strip()[:200]}


def _worker() -> dict:
    from events.tasks import ping

    token = secrets.token_hex(8)
    try:
        result = ping.apply_async(args=[token], expires=settings.HEALTH_WORKER_TIMEOUT + 5)
        answer = result.get(timeout=settings.HEALTH_WORKER_TIMEOUT, propagate=True)
        result.forget()
    except CeleryTimeout:
        return {
            "ok": False,
            "error": f"no worker answered within {settings.HEALTH_WORKER_TIMEOUT:.1f} s",
        }
    except Exception as error:
        return {"ok": False, "error": str(error).strip()[:200]}
    if answer != token:
        return {"ok": False, "error": "a worker answered with the wrong token"}
    return {"ok": True}


@never_cache
def healthz(request):
    checks = {"database": _database(), "broker": _broker()}
    checks["worker"] = (
        _worker() if checks["broker"]["ok"] else {"ok": False, "error": "broker down"}
    )
    failing = [name for name, check in checks.items() if not check["ok"]]
    body = {"status": "ok" if not failing else "fail", "failing": failing, **checks}
    return JsonResponse(body, status=200 if not failing else 503)
