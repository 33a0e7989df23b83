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
