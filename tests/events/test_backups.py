"""The evening's backups (issue 35, events/backups.py): made by SQLite's online backup after
every round and by ``manage.py backup``, rotated, shown on the director's event page; and
``manage.py restore``, which puts one back — or refuses with nothing changed."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.conftest import backend
from tests.factories import wait_until

ROOT = Path(__file__).resolve().parents[2]
embedded_only = pytest.mark.skipif(
    backend() != "sqlite", reason="the evening's SQLite backups are the embedded default's"
)


@pytest.fixture
def own_var(settings, tmp_path):
    """This test's own var/ for its backups and serve lock (the database stays the suite's)."""
    settings.VAR_DIR = tmp_path / "var"
    settings.VAR_DIR.mkdir()
    return settings.VAR_DIR


# --- rotation ------------------------------------------------------------------------------


def _touch(folder: Path, when: datetime, session: int | None = None) -> Path:
    from events.backups import _name

    path = folder / _name(when, session, "sqlite3")
    path.write_bytes(b"")
    return path


def test_rotation_keeps_the_last_twelve_and_the_last_of_each_session(tmp_path):
    from events.backups import backups_list, backups_rotate

    start = datetime(2026, 12, 4, 18, 0, tzinfo=UTC)
    made = []
    for i in range(30):
        session = 1 if i < 10 else 2 if i < 20 else 3
        made.append(_touch(tmp_path, start + timedelta(minutes=10 * i), session))
    manual = _touch(tmp_path, start + timedelta(minutes=1))
    (tmp_path / "notes.txt").write_text("not a backup")
    gone = backups_rotate(tmp_path)
    kept = {b.path for b in backups_list(tmp_path)}
    assert kept == {*made[-12:], made[9], made[19]}
    assert manual in gone and (tmp_path / "notes.txt").exists()


# --- the command and what it copies --------------------------------------------------------


@embedded_only
@pytest.mark.django_db(transaction=True)
def test_the_backup_command_prints_the_path_of_a_whole_copy(event, capsys, own_var):
    from events.backups import backups_dir

    call_command("backup")
    path = Path(capsys.readouterr().out.strip())
    assert path.parent == backups_dir() and path.is_file()
    copy = sqlite3.connect(path)
    assert copy.execute("SELECT name FROM events_event").fetchall() == [(event.name,)]
    assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    copy.close()


@embedded_only
@pytest.mark.django_db(transaction=True)
def test_backup_to_a_folder_of_ones_choice(event, tmp_path, capsys):
    call_command("backup", "--to", str(tmp_path / "usb"))
    path = Path(capsys.readouterr().out.strip())
    assert path.parent == tmp_path / "usb" and path.stat().st_size > 0


@pytest.mark.skipif(backend() != "postgresql", reason="pg_dump backs PostgreSQL up")
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_the_backup_is_pg_dumps_custom_format(event, tmp_path, capsys):
    import shutil

    if shutil.which("pg_dump") is None:
        with pytest.raises(CommandError, match="pg_dump"):
            call_command("backup", "--to", str(tmp_path))
        return
    call_command("backup", "--to", str(tmp_path))
    path = Path(capsys.readouterr().out.strip())
    assert path.suffix == ".dump" and path.read_bytes()[:5] == b"PGDMP"


# --- after every round, by the worker ------------------------------------------------------


@embedded_only
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_worker_backs_up_once_a_round_ends(session15, celery_worker_process):
    from events import rounds
    from events.backups import backups_list

    before = {b.path for b in backups_list()}
    first = session15.rooms.get().rounds.get(number=1)
    rounds.round_start(first)
    rounds.round_end_now(first)

    def made():
        return [b for b in backups_list() if b.path not in before and b.session_id == session15.pk]

    found = wait_until(made, timeout=30)
    assert found, "no backup after the round ended"
    copy = sqlite3.connect(found[0].path)
    state = copy.execute("SELECT state FROM events_round WHERE id = ?", [first.pk]).fetchone()
    copy.close()
    assert state == ("finished",)


@embedded_only
@pytest.mark.django_db(transaction=True)
def test_the_sweep_backs_up_every_ten_minutes_while_a_round_runs(session15, own_var):
    from django.utils import timezone

    from events import rounds
    from events.backups import EVERY, backup_sweep

    assert backup_sweep() is None  # no round runs
    rounds.round_start(session15.rooms.get().rounds.get(number=1))
    first = backup_sweep()
    assert first is not None and first.session_id == session15.pk
    assert backup_sweep() is None  # not ten minutes yet
    later = backup_sweep(now=timezone.now() + EVERY)
    assert later is not None and later.path != first.path


# --- the director's page -------------------------------------------------------------------


@embedded_only
@pytest.mark.django_db(transaction=True)
def test_the_event_page_says_when_the_last_backup_was_made_and_offers_it(
    django_user_model, client, other_client, own_var
):
    from events.backups import backup_make
    from events.services import event_create

    boss = django_user_model.objects.create_superuser("boss", password="pass-pass-1")
    client.force_login(boss)
    event = event_create(owner=boss, name="Вечер", date="2026-12-04")
    made = backup_make()
    page = client.get(f"/director/events/{event.pk}/").content.decode()
    assert "Последняя резервная копия базы сервера" in page
    assert made.made_at.strftime("%S") in page
    link = f"/director/backups/?download={made.path.name}"
    assert link in page
    download = client.get(link)
    assert download.status_code == 200
    assert b"".join(download.streaming_content)[:16] == b"SQLite format 3\x00"
    listing = client.get("/director/backups/").content.decode()
    assert made.path.name in listing
    assert client.get("/director/backups/?download=../db.sqlite3").status_code == 404
    # Another director: the times, never the file (it holds every director's events).
    assert other_client.get(link).status_code == 403
    client.logout()
    assert client.get(link).status_code == 302  # to the login page


@embedded_only
@pytest.mark.django_db(transaction=True)
def test_a_director_who_is_not_the_servers_own_sees_the_time_but_cannot_take_the_file(
    director_client, event, own_var
):
    from events.backups import backup_make

    backup_make()
    page = director_client.get(f"/director/events/{event.pk}/").content.decode()
    assert "Последняя резервная копия базы сервера" in page
    assert "?download=" not in page
    listing = director_client.get("/director/backups/").content.decode()
    assert "Резервные копии базы сервера" in listing and "?download=" not in listing


# --- restore: refusals, nothing changed ----------------------------------------------------


def _db_fingerprint() -> bytes | None:
    """The suite's database, read through SQLite. Never with open() and close(): closing any
    other descriptor of a database file drops the POSIX locks this process's SQLite
    connections hold on it — the next connections of the run then failed with «disk I/O
    error» (SQLite's «How To Corrupt», 2.2)."""
    import hashlib

    from events.backups import database_path

    path = database_path()
    if not path.exists():
        return None
    db = sqlite3.connect(path)
    try:
        return hashlib.sha256("\n".join(db.iterdump()).encode()).digest()
    finally:
        db.close()


@pytest.fixture
def restore_refused():
    def check(file, match: str):
        before = _db_fingerprint()
        with pytest.raises(CommandError, match=match):
            call_command("restore", str(file))
        assert _db_fingerprint() == before

    return check


@embedded_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("own_var")
class TestRestoreRefuses:
    def test_a_missing_file(self, tmp_path, restore_refused):
        restore_refused(tmp_path / "nothing.sqlite3", "no such file")

    def test_a_file_that_is_not_sqlite(self, tmp_path, restore_refused):
        path = tmp_path / "event.zip"
        path.write_bytes(b"PK\x03\x04" + b"\x00" * 100)
        restore_refused(path, "not a SQLite database")

    def test_a_sqlite_database_of_another_app(self, tmp_path, restore_refused):
        path = tmp_path / "other.sqlite3"
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        db.commit()
        db.close()
        restore_refused(path, "not a database of this app")

    def test_a_database_of_a_newer_version_of_the_app(self, tmp_path, restore_refused):
        from events.backups import backup_make

        path = backup_make(tmp_path).path
        db = sqlite3.connect(path)
        db.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('events', '9999_from_the_future', '2027-01-01')"
        )
        db.commit()
        db.close()
        restore_refused(path, "events.9999_from_the_future is unknown")

    def test_while_the_server_runs(self, tmp_path, restore_refused):
        from events.backups import backup_make, serve_lock_path

        path = backup_make(tmp_path).path
        # A serve of another process holds the lock (as `make run` does while it runs).
        holder = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import fcntl, sys, time; f = open(sys.argv[1], 'a+'); "
                "fcntl.flock(f, fcntl.LOCK_SH); print('held', flush=True); time.sleep(60)",
                str(serve_lock_path()),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert holder.stdout.readline().strip() == "held"
            restore_refused(path, "The server is running")
        finally:
            holder.kill()
            holder.wait()


@pytest.mark.skipif(backend() != "postgresql", reason="what restore says on PostgreSQL")
@pytest.mark.django_db
def test_on_postgresql_restore_says_to_use_pg_restore(tmp_path):
    path = tmp_path / "x.dump"
    path.write_bytes(b"PGDMP")
    with pytest.raises(CommandError, match="pg_restore"):
        call_command("restore", str(path))


# --- two rounds played, the backup after round 1 restored on a fresh laptop -----------------

PLAY = """
import json, sys
from django.contrib.auth import get_user_model
from events import backups
from events.models import Round
from events.services import event_create
from scoring.sheets import services
from scoring.models import ScoreSheet, TablePlay
from tests.factories import finish, seat_players, varied_result

boss = get_user_model().objects.create_superuser("boss", password="pass-pass-1")
event = event_create(owner=boss, name="Вечер", date="2026-12-04")
session = seat_players(event, 15)
made = {}
for number in (1, 2):
    rnd = Round.objects.get(room__session=session, number=number)
    for play in TablePlay.objects.filter(round=rnd).select_related("table", "board_set"):
        for deal in play.board_set.deals.all():
            data = varied_result(play.table.number, number, deal.number, deal.first_hand)
            services.sheet_record(play, deal, data, by_user=boss)
    finish(rnd)
    # What the worker does once the round's end is committed (events.backup_tasks).
    made[number] = str(backups.backup_after_round(session.pk).path)
    made[f"sheets{number}"] = sorted(
        [s.play.table.number, s.deal.number, s.current.data]
        for s in ScoreSheet.objects.filter(play__round=rnd).select_related("current", "play__table", "deal")
    )
json.dump(made, open(sys.argv[-1], "w"))
"""

READ = """
import json, sys
from events.models import Round
from scoring.models import ScoreSheet
rounds = {r.number: r.state for r in Round.objects.all()}
sheets = {
    n: sorted(
        [s.play.table.number, s.deal.number, s.current.data]
        for s in ScoreSheet.objects.filter(play__round__number=n).select_related("current", "play__table", "deal")
    )
    for n in (1, 2)
}
json.dump({"rounds": rounds, "sheets": sheets}, open(sys.argv[-1], "w"))
"""


def _manage(var: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["VAR_DIR"] = str(var)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _script(var: Path, code: str, out: Path) -> dict:
    script = var.parent / f"{out.stem}.py"
    script.write_text(
        "import os, sys, django\n"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings')\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "django.setup()\n" + code
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["VAR_DIR"] = str(var)
    done = subprocess.run(
        [sys.executable, str(script), str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(out.read_text())


@pytest.mark.slow
@pytest.mark.embedded
def test_the_backup_after_round_one_restored_on_a_fresh_laptop_holds_round_one_whole(
    tmp_path,
):
    evening, laptop = tmp_path / "evening", tmp_path / "laptop"
    evening.mkdir()
    laptop.mkdir()
    assert _manage(evening, "migrate", "--noinput", "-v0").returncode == 0
    played = _script(evening, PLAY, tmp_path / "played.json")
    assert played["sheets1"] and played["sheets2"]

    done = _manage(laptop, "restore", played["1"])
    assert done.returncode == 0, done.stdout + done.stderr
    found = _script(laptop, READ, tmp_path / "found.json")
    assert found["rounds"]["1"] == "finished"
    assert found["rounds"]["2"] == "pending"
    assert found["sheets"]["1"] == played["sheets1"]
    assert found["sheets"]["2"] == []

    # Restoring again keeps what the laptop had as a backup first.
    again = _manage(laptop, "restore", played["2"])
    assert again.returncode == 0 and "kept in" in again.stdout
    assert _script(laptop, READ, tmp_path / "again.json")["sheets"]["2"] == played["sheets2"]
