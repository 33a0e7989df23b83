"""What a durable commit costs the embedded default (``make run``: SQLite in WAL mode).

``synchronous=FULL`` (config/settings.py) syncs the WAL file at every commit, so a sheet
whose save was answered «сохранено» is on the disk before the answer leaves; ``NORMAL``
syncs only at checkpoints and may lose the last commits in a power cut. Printed: sheets saved
per second through the service (``scoring.sheets.services.sheet_record``, the director's write, with
everything a save does: the versions, the standings' marks, the tasks queued on the
filesystem broker) one after another, and the median and p95 ms of one save, with FULL and
with NORMAL, on a throwaway database under var/ (the disk ``make run`` writes to); then the
median ms of a bare commit of one row with each, the sync alone. Rounds alternate between
the two settings, so that the machine's other work weighs on both alike.

The embedded default always: DATABASE_URL and REDIS_URL are ignored here.
"""

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
(ROOT / "var").mkdir(exist_ok=True)
FOLDER = tempfile.mkdtemp(prefix="bench-durability-", dir=ROOT / "var")
for name in ("DATABASE_URL", "REDIS_URL"):
    os.environ.pop(name, None)
os.environ.update(VAR_DIR=FOLDER, DJANGO_SETTINGS_MODULE="config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

SAVES = 150  # per setting and round
ROUNDS = 3

#: Two results of one deal (N plays «три» in diamonds and takes 7 or 6), alternated so that
#: every save writes a new version.
RESULTS = [
    {
        "declarer": "N",
        "contract": "three",
        "trump": "diamonds",
        "defenders": {"E": "whist", "S": "pass"},
        "tricks": {"N": n, "E": 10 - n},
    }
    for n in (7, 6)
]


def setup():
    """A 15-player event, its first round running; the targets: every table-round's deals."""
    from events import rounds, services
    from events.models import Round
    from movements import planner
    from movements.services import session_create
    from scoring.models import TablePlay

    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user("bench_judge", password="bench-pass-1")
    event = services.event_create(owner=owner, name="Замер", date="2026-12-05", venue="Зал")
    for i in range(15):
        services.entry_create(event, last_name=f"Игроков{i + 1:02d}", first_name="Игорь")
    services.draw_make(event, seed="bench")
    option = next(o for o in planner.plan(15).as_dict()["options"] if len(o["rooms"]) == 1)
    session = session_create(event, option)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    plays = TablePlay.objects.filter(round__room__session=session).select_related(
        "round__room__session__event", "table", "board_set"
    )
    targets = [(p, d) for p in plays for d in p.board_set.deals.order_by("number")]
    return owner, targets


def synchronous(mode: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA synchronous={mode}")
        found = cursor.execute("PRAGMA synchronous").fetchone()[0]
    assert found == {"FULL": 2, "NORMAL": 1}[mode], found


def run(owner, targets, turn: int) -> list[float]:
    """``SAVES`` saves one after another: the ms of each."""
    from scoring.sheets import services

    times = []
    for i in range(SAVES):
        play, deal = targets[i % len(targets)]
        data = RESULTS[(i // len(targets) + turn) % 2]
        started = time.perf_counter()
        services.sheet_record(play, deal, data, by_user=owner)
        times.append((time.perf_counter() - started) * 1000)
    return times


def bare_commits(mode: str, count: int = 300) -> float:
    """The median ms of a commit of one small row and nothing else: the sync alone."""
    synchronous(mode)
    times = []
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS bench_commit (n INTEGER)")
        for n in range(count):
            started = time.perf_counter()
            cursor.execute("BEGIN IMMEDIATE")
            cursor.execute("INSERT INTO bench_commit VALUES (%s)", [n])
            cursor.execute("COMMIT")
            times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    owner, targets = setup()
    with connection.cursor() as cursor:
        journal = cursor.execute("PRAGMA journal_mode").fetchone()[0]
    print(f"SQLite {journal}, {SAVES} saves × {ROUNDS} rounds per setting, {FOLDER}")
    measured = {"FULL": [], "NORMAL": []}
    seconds = {"FULL": 0.0, "NORMAL": 0.0}
    run(owner, targets, 0)  # the first saves of a process: caches, compiled code
    for turn in range(ROUNDS):
        for mode in ("FULL", "NORMAL") if turn % 2 == 0 else ("NORMAL", "FULL"):
            synchronous(mode)
            started = time.perf_counter()
            measured[mode] += run(owner, targets, turn + 1)
            seconds[mode] += time.perf_counter() - started
    print(f"{'synchronous':<12} {'saves/s':>8} {'median ms':>10} {'p95 ms':>8}")
    for mode, times in measured.items():
        p95 = statistics.quantiles(times, n=20)[-1]
        rate = len(times) / seconds[mode]
        print(f"{mode:<12} {rate:>8.1f} {statistics.median(times):>10.2f} {p95:>8.2f}")
    full, normal = measured["FULL"], measured["NORMAL"]
    extra = statistics.median(full) - statistics.median(normal)
    print(f"FULL − NORMAL: {extra:+.2f} ms a save at the median")
    commits = {mode: bare_commits(mode) for mode in ("FULL", "NORMAL")}
    print(
        f"a bare commit of one row (the sync alone): FULL {commits['FULL']:.3f} ms, "
        f"NORMAL {commits['NORMAL']:.3f} ms (median of 300)"
    )


if __name__ == "__main__":
    try:
        main()
    finally:
        connection.close()
        shutil.rmtree(FOLDER, ignore_errors=True)
