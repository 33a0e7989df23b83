"""/healthz with a real Celery worker on the suite's broker (Redis, or the filesystem).

It names every part that fails; it answers 503 only when the database does, since the app
works from the database alone (a dead cache, broker or worker: 200, «degraded»)."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import backend
from tests.serving import ROOT

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("celery")]

DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def test_healthz_is_200_when_database_cache_broker_and_worker_answer(client, celery_worker_process):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok" and body["failing"] == []
    assert body["database"] == {"ok": True, "engine": backend()}
    assert body["cache"] == {"ok": True}
    assert body["broker"]["ok"] and body["worker"] == {"ok": True}


def test_healthz_is_200_naming_the_cache_when_its_redis_is_down(
    client, settings, celery_worker_process
):
    settings.CACHES = {"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": DEAD_REDIS}}
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "degraded" and body["failing"] == ["cache"]
    assert body["cache"] == {"ok": False, "error": "the cache does not answer"}
    assert "127.0.0.1" not in response.content.decode()


def test_healthz_is_503_naming_everything_when_the_database_is_down_too(tmp_path):
    """A server whose database and Redis are both unreachable: the one 503."""
    env = dict(
        os.environ,
        DATABASE_URL="postgres://postgres@127.0.0.1:1/nothing",
        REDIS_URL=DEAD_REDIS,
        VAR_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    code = (
        "import django, json; django.setup()\n"
        "from django.test import RequestFactory\n"
        "from config.health import healthz\n"
        "answer = healthz(RequestFactory().get('/healthz'))\n"
        "print(json.dumps([answer.status_code, json.loads(answer.content)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    status, body = json.loads(done.stdout.strip().splitlines()[-1])
    assert status == 503
    assert body["status"] == "fail"
    assert body["failing"] == ["database", "cache", "broker", "worker"]
    assert body["database"] == {"ok": False, "error": "the database does not answer"}


def test_healthz_is_200_naming_the_worker_when_none_listens(
    client, settings, celery_worker_process
):
    from config.celery import app

    settings.HEALTH_WORKER_TIMEOUT = 0.5
    queue = app.conf.task_default_queue
    app.conf.task_default_queue = "nobody-listens-here"
    try:
        response = client.get("/healthz")
    finally:
        app.conf.task_default_queue = queue
    body = response.json()
    assert response.status_code == 200
    assert body["status"] == "degraded" and body["failing"] == ["worker"]
    assert "no worker answered" in body["worker"]["error"]
    assert body["database"]["ok"] and body["broker"]["ok"]


def test_healthz_names_a_dead_broker_without_its_address_and_answers_quickly(
    client, settings, celery_worker_process
):
    """With the broker unreachable, /healthz says «broker» and nothing of where it is; the
    answer is kept a few seconds, so a crowd of monitors does not hold the server."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from config import health
    from config.celery import app

    settings.HEALTH_CACHE_SECONDS = 30
    previous = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    try:
        health.forget()
        began = time.monotonic()
        first = client.get("/healthz")
        first_took = time.monotonic() - began
        began = time.monotonic()
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda _: health._answer(), range(32)))
        crowd_took = time.monotonic() - began
    finally:
        app.conf.broker_url = previous
        health.forget()
    body = first.json()
    assert first.status_code == 200
    assert body["status"] == "degraded" and body["failing"] == ["broker", "worker"]
    assert body["broker"] == {"ok": False, "error": "the broker does not answer"}
    text = first.content.decode()
    assert "127.0.0.1" not in text and ":1" not in text and "Traceback" not in text
    assert first_took < 5
    assert all(a["failing"] == ["broker", "worker"] for a in answers)
    assert crowd_took < 1  # the kept answer, not 32 checks
