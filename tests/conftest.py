"""Shared fixtures. The suite runs on real services: PostgreSQL + Redis, or the embedded
default (SQLite + the filesystem broker); it refuses a half-set or unreachable pair."""

import contextlib
import functools
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.factories import account, entry_at, seat_players, two_rooms

ROOT = Path(__file__).resolve().parent.parent


def _reachable(url: str, default_port: int) -> tuple[bool, str]:
    parsed = urlparse(url)
    host, port = parsed.hostname or "127.0.0.1", parsed.port or default_port
    try:
        with socket.create_connection((host, port), timeout=3):
            return True, f"{host}:{port}"
    except OSError as error:
        return False, f"{host}:{port} ({error})"


#: The two backends the suite runs on: PostgreSQL + Redis, and the embedded default of
#: ``make run`` (SQLite + the filesystem broker). ``make test`` runs the suite on each.
POSTGRES = ("postgres://", "postgresql://")


def backend() -> str:
    """«postgresql» or «sqlite»: which of the two the suite runs on now."""
    return "postgresql" if os.environ.get("DATABASE_URL", "").startswith(POSTGRES) else "sqlite"


def pytest_configure(config):
    # One run's test databases are its own, so two runs on one server (two developers, the
    # suite beside a bench) never drop each other's. xdist workers inherit the variable.
    os.environ.setdefault("PREFERENCE_TEST_RUN", uuid.uuid4().hex[:6])
    config.addinivalue_line(
        "markers", "postgresql_only(reason): needs what SQLite lacks (row locks); says why"
    )


def pytest_collection_modifyitems(config, items):
    if backend() == "postgresql":
        return
    for item in items:
        marker = item.get_closest_marker("postgresql_only")
        if marker is not None:
            why = marker.kwargs.get("reason") or (marker.args[0] if marker.args else "")
            item.add_marker(pytest.mark.skip(reason=f"PostgreSQL only: {why}"))


@pytest.fixture(autouse=True, scope="session")
def _quick_password_hashes():
    """Passwords hashed with MD5 in the tests: Django's PBKDF2 takes a third of a second a
    hash here (1,000,000 iterations), paid by every test that makes a user or logs one in —
    about a quarter of the suite's time. The production hashers stay listed after it, so a
    hash made by a server the tests start (its own settings) still checks."""
    from django.conf import global_settings
    from django.test.utils import override_settings

    hashers = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]
    with override_settings(PASSWORD_HASHERS=hashers):
        yield


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    from django.conf import settings

    run = os.environ["PREFERENCE_TEST_RUN"]
    for db in settings.DATABASES.values():
        test = db.setdefault("TEST", {})
        if db["ENGINE"] == "django.db.backends.sqlite3":
            # A file, not memory: the Celery workers and live servers of the tests are other
            # processes and threads that must see the same database.
            worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
            folder = Path(settings.VAR_DIR) / "test-db"
            folder.mkdir(parents=True, exist_ok=True)
            test["NAME"] = str(folder / f"test-{run}-{worker}.sqlite3")
        else:
            test["NAME"] = f"{test.get('NAME') or 'test_' + db['NAME']}_{run}"


def pytest_sessionstart(session):
    problems = []
    db_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if db_url and not db_url.startswith(POSTGRES):
        problems.append("DATABASE_URL must point at PostgreSQL, or be unset for SQLite.")
    if bool(db_url) != bool(redis_url):
        problems.append(
            "Set both DATABASE_URL (PostgreSQL) and REDIS_URL, or neither (the embedded "
            "SQLite + filesystem broker); run the suite with `make test`."
        )
    if db_url.startswith(POSTGRES):
        ok, where = _reachable(db_url, 5432)
        if not ok:
            problems.append(f"PostgreSQL is not reachable at {where}.")
    if redis_url:
        if not redis_url.startswith(("redis://", "rediss://")):
            problems.append("REDIS_URL must point at Redis.")
        else:
            ok, where = _reachable(redis_url, 6379)
            if not ok:
                problems.append(f"Redis is not reachable at {where}.")
    if problems:
        pytest.exit("The test suite needs real services:\n  " + "\n  ".join(problems), returncode=3)


def _processes_of_this_run() -> list[tuple[int, str]]:
    """Celery processes started by this run's tests (found by the run id they inherit)."""
    marker = f"PREFERENCE_TEST_RUN={os.environ.get('PREFERENCE_TEST_RUN', '')}".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ")
            if b"celery" not in cmdline:
                continue
            if marker not in Path(f"/proc/{name}/environ").read_bytes().split(b"\0"):
                continue
        except OSError:
            continue  # gone meanwhile, or not ours
        found.append((int(name), cmdline.decode(errors="replace").strip()[:120]))
    return found


def pytest_sessionfinish(session, exitstatus):
    """The suite leaves no process behind: once every test is done (in the controller, after
    its xdist workers), a Celery worker or beat of this run still alive fails the run, and is
    stopped with its process group."""
    if hasattr(session.config, "workerinput") or not Path("/proc").is_dir():
        return
    left = _processes_of_this_run()
    if not left:
        return
    for pid, _cmd in left:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(os.getpgid(pid), signal.SIGKILL)
    lines = "\n  ".join(f"{pid}: {cmd}" for pid, cmd in left)
    session.config.pluginmanager.get_plugin("terminalreporter").write_line(
        f"the suite left {len(left)} process(es) alive (now killed):\n  {lines}", red=True
    )
    session.exitstatus = 1


@pytest.fixture(scope="session", autouse=True)
def _cache_of_this_run():
    """The shared cache (the room clock documents) under a prefix of this run and xdist
    worker, so that two workers, whose test databases hand out the same ids, never read
    each other's entries; the Celery workers the tests start inherit it."""
    from django.conf import settings
    from django.test import override_settings

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    prefix = f"test-{os.environ['PREFERENCE_TEST_RUN']}-{worker}"
    os.environ["CACHE_KEY_PREFIX"] = prefix
    caches = {"default": dict(settings.CACHES["default"], KEY_PREFIX=prefix)}
    if caches["default"]["BACKEND"] == "config.cache.FileCache":  # a folder of its own
        caches["default"]["LOCATION"] = str(Path(settings.VAR_DIR) / "cache" / prefix)
    with override_settings(CACHES=caches):
        yield prefix


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's language: a management command run in process
    (``call_command``) deactivates translations and would leave later tests in English."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _empty_cache(_cache_of_this_run):
    """Each test starts with an empty cache: ids repeat from test to test (rolled back)."""
    from django.core.cache import cache

    from config import health
    from events import clockdoc

    clockdoc.forget_local()
    health.forget()

    redis_url = os.environ.get("REDIS_URL")
    if redis_url:
        # Only this run's keys: the Celery broker shares the Redis database.
        import redis

        client = redis.Redis.from_url(redis_url)
        try:
            keys = list(client.scan_iter(match=f"{_cache_of_this_run}:*", count=1000))
            if keys:
                client.delete(*keys)
        finally:
            client.close()
    else:
        cache.clear()  # this prefix's own folder


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")


@pytest.fixture
def other_director(django_user_model):
    return django_user_model.objects.create_user(username="rival", password="s3cret-pass-2")


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser(username="root", password="s3cret-pass-3")


@functools.cache
def _server_hash(password: str) -> str:
    from django.contrib.auth.hashers import make_password

    return make_password(password, hasher="pbkdf2_sha256")


@pytest.fixture
def server_director(director):
    """The director, whose password a server the test starts in a process of its own (with
    the production hashers, not the suite's MD5) can check: hashed with PBKDF2 once a run."""
    director.password = _server_hash("s3cret-pass-1")
    director.save(update_fields=["password"])
    return director


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
    from django.db import connection

    db = dict(connection.settings_dict)
    yield
    if connection.vendor != "postgresql":
        return
    import psycopg2

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
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
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
        # Its own process group: a worker with --beat forks the beat, and a SIGKILL of the
        # worker alone would leave that child sweeping the broker for ever.
        self.process = subprocess.Popen(
            args,
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 30) -> "WorkerProcess":
        _wait_for_worker(self.queue, timeout)
        return self

    def stop(self, *, kill: bool = False) -> None:
        if self.process.poll() is None:
            self._signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self._signal(signal.SIGKILL)  # whatever the group still holds (the beat)
        self._log.close()

    def _signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, sig)


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


@pytest.fixture
def session15(event):
    """15 players, one prime room of 5 tables × 3 seats, 5 rounds."""
    return seat_players(event, 15)


@pytest.fixture
def staffed(event, director, other_director):
    """A team of directors (issue 34) on an event of two rooms (``two_rooms``): the chief
    (``director``), «deputy» a «Судья», «roomie» the room director of room 2, «scribe» a
    secretary, and a stranger (``other_director``) — each with a logged-in client."""
    from django.test import Client

    from events.models import Room
    from events.staff import staff_add

    session = two_rooms(event)
    users = {
        "chief": director,
        "director": account("deputy"),
        "room": account("roomie"),
        "secretary": account("scribe"),
        "stranger": other_director,
    }
    staff_add(event, "deputy", "director", by_user=director)
    staff_add(event, "roomie", "room", [2], by_user=director)
    staff_add(event, "scribe", "secretary", by_user=director)
    clients = {}
    for role, user in users.items():
        clients[role] = Client()
        clients[role].force_login(user)
    return {
        "event": event,
        "session": session,
        "users": users,
        "clients": clients,
        "rooms": {room.number: room for room in Room.objects.filter(session=session)},
    }


@pytest.fixture
def team_world(staffed, director):
    """``staffed`` with each room's first round and its first table-round, and a penalty given
    at each (the adjustments' pages have something to show)."""
    from events.models import Round
    from scoring.models import TablePlay
    from scoring.sheets import services

    rooms = staffed["rooms"]
    rnd = {n: Round.objects.get(room=rooms[n], number=1) for n in (1, 2)}
    play = {
        n: TablePlay.objects.filter(round=rnd[n]).order_by("table__number").first() for n in (1, 2)
    }
    adjustment = {
        n: services.adjustment_create(
            play[n],
            entry=entry_at(play[n], "E"),
            kind="penalty",
            by_user=director,
            penalty="1.5",
            reason="опоздание",
        )
        for n in (1, 2)
    }
    return {**staffed, "round": rnd, "play": play, "adjustment": adjustment}
