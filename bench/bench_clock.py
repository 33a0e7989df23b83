"""Firing lag of «Конец тура!»: 100 short rounds with a real Celery worker on Redis.

Prints p50 / p99 / max of (fired_at − ends_at). Target: p99 ≤ 1 s on this machine.
Uses a throwaway PostgreSQL database (preference_bench_clock), created and dropped here.
"""

import os
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


def main():
    queue = f"bench-{uuid.uuid4().hex[:6]}"
    with throwaway_database(DB_NAME, REDIS_URL=REDIS_URL, CELERY_TASK_DEFAULT_QUEUE=queue):
        from django.contrib.auth import get_user_model

        from events import rounds, services
        from events.models import Announcement, Round
        from movements import planner
        from movements.services import session_create

        director = get_user_model().objects.create_user("bench", password="bench-pass-1")
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
                    if (
                        Announcement.objects.filter(kind="end", round__number=number).count()
                        == ROOMS
                    ):
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


if __name__ == "__main__":
    main()
