"""Shared fixtures. The suite runs on real PostgreSQL and Redis and refuses to run without them."""

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _reachable(url: str, default_port: int) -> tuple[bool, str]:
    parsed = urlparse(url)
    host, port = parsed.hostname or "127.0.0.1", parsed.port or default_port
    try:
        with socket.create_connection((host, port), timeout=3):
            return True, f"{host}:{port}"
    except OSError as error:
        return False, f"{host}:{port} ({error})"


def pytest_sessionstart(session):
    problems = []
    db_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not db_url.startswith(("postgres://", "postgresql://")):
        problems.append("DATABASE_URL must point at PostgreSQL (run the suite with `make test`).")
    else:
        ok, where = _reachable(db_url, 5432)
        if not ok:
            problems.append(f"PostgreSQL is not reachable at {where}.")
    if not redis_url.startswith(("redis://", "rediss://")):
        problems.append("REDIS_URL must point at Redis (run the suite with `make test`).")
    else:
        ok, where = _reachable(redis_url, 6379)
        if not ok:
            problems.append(f"Redis is not reachable at {where}.")
    if problems:
        pytest.exit("The test suite needs real services:\n  " + "\n  ".join(problems), returncode=3)


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")


@pytest.fixture
def other_director(django_user_model):
    return django_user_model.objects.create_user(username="rival", password="s3cret-pass-2")


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser(username="root", password="s3cret-pass-3")


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def other_client(client, other_director):
    client.force_login(other_director)
    return client


@pytest.fixture
def event(director):
    from events.services import event_create

    return event_create(owner=director, name="Кубок Москвы", date="2026-12-05", venue="ЦДШ")


@pytest.fixture
def other_event(other_director):
    from events.services import event_create

    return event_create(owner=other_director, name="Чужой турнир", date="2026-12-06")


def _wait_for_worker(app, queue: str, timeout: float) -> None:
    from events.tasks import ping

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if ping.apply_async(args=["up"], queue=queue, expires=5).get(timeout=2) == "up":
                return
        except Exception:
            time.sleep(0.2)
    raise RuntimeError(f"the Celery worker did not answer on queue {queue} within {timeout} s")


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker):
    """A real Celery worker on Redis, consuming a queue of its own, on the test database."""
    from django.db import connection

    from config.celery import app

    queue = f"test-{uuid.uuid4().hex[:8]}"
    db = connection.settings_dict
    env = dict(os.environ)
    env["DATABASE_URL"] = (
        f"postgres://{db['USER'] or ''}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )
    env["CELERY_TASK_DEFAULT_QUEUE"] = queue
    log = open(ROOT / "var" / f"worker-{queue}.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "--queues",
            queue,
            "--hostname",
            f"{queue}@%h",
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    try:
        _wait_for_worker(app, queue, timeout=30)
        yield {"queue": queue, "process": proc}
    finally:
        app.conf.task_default_queue = previous
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture
def en():
    """Run the test in English (messages are asserted in the interface's second language)."""
    from django.utils import translation

    with translation.override("en"):
        yield
