"""/healthz with a real Celery worker on the suite's broker (Redis, or the filesystem)."""

import pytest

from tests.conftest import backend

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("celery")]


def test_healthz_is_200_when_database_broker_and_worker_answer(client, celery_worker_process):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok" and body["failing"] == []
    assert body["database"] == {"ok": True, "engine": backend()}
    assert body["broker"]["ok"] and body["worker"] == {"ok": True}


def test_healthz_is_503_naming_the_worker_when_none_listens(
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
    assert response.status_code == 503
    assert body["failing"] == ["worker"]
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
    assert first.status_code == 503
    assert body["failing"] == ["broker", "worker"]
    assert body["broker"] == {"ok": False, "error": "the broker does not answer"}
    text = first.content.decode()
    assert "127.0.0.1" not in text and ":1" not in text and "Traceback" not in text
    assert first_took < 5
    assert all(a["failing"] == ["broker", "worker"] for a in answers)
    assert crowd_took < 1  # the kept answer, not 32 checks
