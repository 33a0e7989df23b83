"""The clock: the firing lag of «Конец тура!» and what a clock poll costs.

1. 100 short rounds with a real Celery worker on Redis: prints p50 / p99 / max of
   (fired_at − ends_at). Target: p99 ≤ 1 s on this machine.
2. The polls hundreds of phones and the hall screen make (the hall's clock.json, a phone's
   clock.json and its seat fragment), at 20 and 100 tables, with session 1 at round 2 and
   session 2 already seated (the director prepares the next session during a round): the
   queries, the cache round trips and the ms of the first poll after a change and of the
   polls after it (the phones' steady state), and what each shows. The counts must not
   grow with the tables; the ms are noise on these machines (compare them with ``healthz``).

Uses a throwaway PostgreSQL database (preference_bench_clock), created and dropped here.
"""

import logging
import os
import re
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.benchdb import throwaway_database  # noqa: E402

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
DB_NAME = "preference_bench_clock"
ROOMS = 20  # 20 rooms × 5 rounds = 100 rounds
ROUND_SECONDS = 2
POLL_TABLES = (20, 100)  # 3 players a table
POLL_REPEATS = 20


def main():
    """Both parts; ``polls`` as the argument: the poll costs alone."""
    queue = f"bench-{uuid.uuid4().hex[:6]}"
    with throwaway_database(DB_NAME, REDIS_URL=REDIS_URL, CELERY_TASK_DEFAULT_QUEUE=queue):
        from django.contrib.auth import get_user_model

        director = get_user_model().objects.create_user("bench", password="bench-pass-1")
        if "polls" not in sys.argv[1:]:
            firing_lag(queue)
        poll_costs(director, queue)


def firing_lag(queue: str) -> None:
    from django.contrib.auth import get_user_model

    from events import rounds, services
    from events.models import Announcement, Round
    from movements import planner
    from movements.services import session_create

    director = get_user_model().objects.get(username="bench")
    option = next(
        o
        for o in planner.plan(15).as_dict()["options"]
        if o["rooms"][0]["kind"] == "prime" and o["rooms"][0]["seats"] == 3
    )
    sessions = []
    for i in range(ROOMS):
        event = services.event_create(
            owner=director, name=f"Bench {i}", date="2026-12-01", warning_minutes=0
        )
        for p in range(15):
            services.entry_create(event, last_name=f"P{p}", first_name="X")
        services.draw_make(event, seed="bench")
        sessions.append(session_create(event, option))

    log = open(ROOT / "var" / "bench-clock-worker.log", "w")  # noqa: SIM115
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "threads",
            "--concurrency",
            "4",
            "--queues",
            queue,
            "--beat",
            "--schedule",
            str(ROOT / "var" / f"bench-beat-{queue}"),
            "--loglevel",
            "WARNING",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        from events.tasks import ping

        deadline = time.monotonic() + 30
        while True:
            try:
                ping.apply_async(args=["x"], queue=queue).get(timeout=2)
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
        for number in range(1, 6):
            for i, session in enumerate(sessions):
                rnd = Round.objects.get(room__session=session, number=number)
                rounds.round_start(rnd, length_seconds=ROUND_SECONDS)
                time.sleep(0.05 if i % 4 else 0.0)
            deadline = time.monotonic() + ROUND_SECONDS + 10
            while time.monotonic() < deadline:
                if Announcement.objects.filter(kind="end", round__number=number).count() == ROOMS:
                    break
                time.sleep(0.1)
        ends = list(Announcement.objects.filter(kind="end").values_list("fired_at", "due_at"))
        lags = sorted((fired - due).total_seconds() for fired, due in ends)
        fired = len(lags)
        p50 = statistics.median(lags)
        p99 = lags[max(0, int(round(0.99 * fired)) - 1)]
        print(
            f"clock: {fired}/{ROOMS * 5} rounds fired exactly once each; firing lag "
            f"p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {lags[-1] * 1000:.0f} ms "
            f"(target p99 ≤ 1000 ms)"
        )
        duplicates = (
            Announcement.objects.filter(kind="end").count()
            - Round.objects.filter(state="finished").count()
        )
        print(f"clock: duplicate «Конец тура!» announcements: {duplicates}")
    finally:
        worker.terminate()
        worker.wait(timeout=20)


class _CacheCalls:
    """Counts the calls to the shared cache (each one round trip to Redis)."""

    READS = ("get", "get_many", "has_key")
    WRITES = ("set", "set_many", "add", "delete", "delete_many", "touch", "incr")

    def __init__(self):
        from django.core.cache import caches

        self.backend = type(caches["default"])
        self.reads = self.writes = 0
        self._saved = {}

    def __enter__(self):
        for name in (*self.READS, *self.WRITES):
            original = getattr(self.backend, name)
            self._saved[name] = original
            setattr(self.backend, name, self._counted(name, original))
        return self

    def _counted(self, name, original):
        def call(backend, *args, **kwargs):
            if name in self.READS:
                self.reads += 1
            else:
                self.writes += 1
            return original(backend, *args, **kwargs)

        return call

    def __exit__(self, *exc):
        for name, original in self._saved.items():
            setattr(self.backend, name, original)


def _measure(client, url: str):
    """One GET of ``url``: (queries, cache reads, cache writes, ms, response)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries, _CacheCalls() as calls:
        began = time.perf_counter()
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
        took = (time.perf_counter() - began) * 1000
    # healthz: 503 here (no worker on this bench's queue), as cheap as its 200 all the same.
    assert response.status_code == 200 or url == "/healthz", (url, response.status_code)
    return len(queries), calls.reads, calls.writes, took, response


def _shown(what: str, response) -> str:
    """What the poll shows, in a few words: the clocks' session and round, or the seats'
    headings."""
    if what == "places":
        body = response.content.decode()
        return " | ".join(re.findall(r'<h2 id="(?:now|next)-title">([^<]*)</h2>', body))
    rooms = response.json()["rooms"]
    return ", ".join(
        f"session {r['session']} room {r['room']} round {r['round']} {r['state']}" for r in rooms
    )


def poll_costs(director, queue: str) -> None:
    from django.test import Client

    from config.celery import app
    from events import clockdoc, rounds, services
    from events.models import Round, Seat
    from movements import planner
    from movements.services import session_create

    logging.getLogger("django.request").setLevel(logging.CRITICAL)  # healthz's 503
    client = Client(HTTP_HOST="127.0.0.1")
    for tables in POLL_TABLES:
        players = tables * 3
        event = services.event_create(
            owner=director, name=f"Bench poll {tables}", date="2026-12-02", warning_minutes=0
        )
        for p in range(players):
            services.entry_create(event, last_name=f"P{p}", first_name="X")
        services.draw_make(event, seed="bench")
        option = next(
            o
            for o in planner.plan(players).as_dict()["options"]
            if all(r["seats"] == 3 for r in o["rooms"])
        )
        first = session_create(event, option)
        for room in first.rooms.all():
            rnd = Round.objects.get(room=room, number=1)
            rounds.round_end_now(rounds.round_start(rnd, length_seconds=3600))
            rounds.round_start(Round.objects.get(room=room, number=2), length_seconds=3600)
        session_create(event, option, dealing="app")  # the next session, seated meanwhile
        room = first.rooms.order_by("number").first()
        key = (
            Seat.objects.filter(round__room=room, round__number=2, position="N")
            .order_by("table__number")
            .values_list("entry__key", flat=True)
            .first()
        )
        urls = {
            "healthz": "/healthz",
            "hall clock.json": f"/e/{event.slug}/clock.json",
            "phone clock.json": f"/p/{key}/clock.json",
            "places": f"/p/{key}/places",
        }
        running = Round.objects.get(room=room, number=2)
        print(
            f"polls, {tables} tables ({first.rooms.count()} rooms a session), session 1 at "
            f"round 2, session 2 seated: queries / cache reads / cache writes / ms"
        )
        for what, url in urls.items():
            _measure(client, url)  # the hall's and the phone's setup found once
            rounds.round_pause(running)  # a change of his room's clock
            running = rounds.round_resume(running)
            clockdoc._polled.clear()  # a poll 1–2 s later reads the tokens again
            after = _measure(client, url)
            steady = []
            for _ in range(POLL_REPEATS):
                clockdoc._polled.clear()
                steady.append(_measure(client, url))
            ms = statistics.median(m[3] for m in steady)
            counts = {m[:3] for m in steady}
            shown = "" if what == "healthz" else f"; shows: {_shown(what, after[4])}"
            print(
                f"  {what:17} after a change {after[0]} / {after[1]} / {after[2]} / "
                f"{after[3]:.1f}; then {' or '.join(f'{q} / {r} / {w}' for q, r, w in counts)}"
                f" / {ms:.2f} (median of {POLL_REPEATS}){shown}"
            )
    with app.connection_for_write() as conn:  # the rounds' timers, queued for no worker
        conn.default_channel.queue_purge(queue)


if __name__ == "__main__":
    main()
