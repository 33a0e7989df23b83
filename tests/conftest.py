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
def other_client(other_director):
    """A separate browser session, so it can be used beside director_client in one test."""
    from django.test import Client

    other = Client()
    other.force_login(other_director)
    return other


@pytest.fixture
def event(director):
    from events.services import event_create

    return event_create(owner=director, name="Кубок Москвы", date="2026-12-05", venue="ЦДШ")


@pytest.fixture
def other_event(other_director):
    from events.services import event_create

    return event_create(owner=other_director, name="Чужой турнир", date="2026-12-06")


@pytest.fixture(scope="session", autouse=True)
def _close_stray_database_sessions(django_db_setup):
    """Before the test database is dropped, end the sessions that workers, live servers or
    browsers' requests left open, so the drop never fails on "being accessed by others"."""
    import psycopg2
    from django.db import connection

    db = dict(connection.settings_dict)
    yield
    admin = psycopg2.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"] or "postgres",
        password=db["PASSWORD"] or None,
        dbname="postgres",
    )
    admin.autocommit = True
    try:
        with admin.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND backend_type = 'client backend'",
                [db["NAME"]],
            )
    finally:
        admin.close()


def _test_database_url() -> str:
    from django.db import connection

    db = connection.settings_dict
    return f"postgres://{db['USER'] or ''}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class WorkerProcess:
    """A real Celery worker process on Redis, consuming its own queue, on the test database."""

    def __init__(self, queue: str, *, beat: bool, sweep_ms: int = 500):
        self.queue = queue
        env = dict(os.environ)
        env.update(
            DATABASE_URL=_test_database_url(),
            CELERY_TASK_DEFAULT_QUEUE=queue,
            CLOCK_SWEEP_MS=str(sweep_ms),
        )
        logs = ROOT / "var" / "test-workers"
        logs.mkdir(parents=True, exist_ok=True)
        self.log_path = logs / f"{queue}-{uuid.uuid4().hex[:4]}.log"
        self._log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        args = [
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
            f"{queue}-{uuid.uuid4().hex[:4]}@%h",
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
        ]
        if beat:
            args += ["--beat", "--schedule", str(logs / f"beat-{queue}-{uuid.uuid4().hex[:4]}")]
        self.process = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT
        )

    def wait_ready(self, timeout: float = 30) -> "WorkerProcess":
        _wait_for_worker(self.queue, timeout)
        return self

    def stop(self, *, kill: bool = False) -> None:
        if self.process.poll() is None:
            if kill:
                self.process.kill()
            else:
                self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self._log.close()


def _wait_for_worker(queue: str, timeout: float) -> None:
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
    """One worker shared by the tests that need one; without the beat, so that no sweep of
    its own touches the clock tests (they start their own workers)."""
    from config.celery import app

    queue = f"test-{uuid.uuid4().hex[:8]}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    worker = WorkerProcess(queue, beat=False)
    try:
        yield worker.wait_ready()
    finally:
        app.conf.task_default_queue = previous
        worker.stop()


@pytest.fixture
def worker_factory(django_db_setup):
    """Start and stop workers inside one test (a worker that dies mid-round…)."""
    from config.celery import app

    queue = f"test-{uuid.uuid4().hex[:8]}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    started: list[WorkerProcess] = []

    def start(*, beat: bool = True) -> WorkerProcess:
        worker = WorkerProcess(queue, beat=beat).wait_ready()
        started.append(worker)
        return worker

    try:
        yield start
    finally:
        app.conf.task_default_queue = previous
        for worker in started:
            worker.stop(kill=True)


@pytest.fixture
def en():
    """Run the test in English (messages are asserted in the interface's second language)."""
    from django.utils import translation

    with translation.override("en"):
        yield


def seat_players(event, count: int, *, kind: str = "prime", seats: int = 3, rounds=None):
    """Enter ``count`` players, draw their numbers and seat them by the planner's option."""
    from events import services as event_services
    from movements import planner
    from movements.services import session_create

    for i in range(count):
        event_services.entry_create(event, last_name=f"Игроков{i + 1:02d}", first_name="Игорь")
    event_services.draw_make(event, seed="tests")
    for option in planner.plan(count).as_dict()["options"]:
        if all(r["kind"] == kind and r["seats"] == seats for r in option["rooms"]):
            return session_create(event, option, rounds=rounds)
    raise AssertionError(f"no {kind} option with {seats} seats for {count} players")


@pytest.fixture
def session15(event):
    """15 players, one prime room of 5 tables × 3 seats, 5 rounds."""
    return seat_players(event, 15)
