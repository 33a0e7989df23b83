"""The evening's backups (issue 35; docs/director-guide.md «Перенести вечер на другой ноутбук»).

On the embedded default (SQLite under ``var/``) a backup is a consistent copy of the whole
database made by SQLite's online backup API (``sqlite3.Connection.backup``: one read
transaction, so a copy taken while sheets are saved is one moment of the evening — never a
file copy of a live database), written under ``var/backups/`` with the time in its name.
The worker makes one after every round ends and every 10 minutes while a round runs
(:func:`backup_sweep`); ``manage.py backup`` makes one by hand. The last
:data:`KEEP` are kept, and the last one of each session besides.

On PostgreSQL the same command runs ``pg_dump`` (custom format) when it is installed, or says
what to run. ``manage.py restore FILE`` puts a backup in place of the embedded database —
refused while ``make run`` serves it (:func:`server_running`)."""

from __future__ import annotations

import logging
import os
import re
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.utils import timezone

logger = logging.getLogger("events.backups")

#: How many of the newest backups are kept (besides the last one of each session).
KEEP = 12
#: While a round runs, a backup at least this often.
EVERY = timedelta(minutes=10)
#: backup-20261204T223015.123456Z[-s<session id>].sqlite3 (or .dump, PostgreSQL's)
NAME = re.compile(r"^backup-(\d{8}T\d{6}\.\d{6})Z(?:-s(\d+))?\.(sqlite3|dump)$")
#: The file ``manage.py serve`` holds a shared lock on while it runs (:func:`serve_lock_hold`).
SERVE_LOCK = "serve.lock"


class BackupError(Exception):
    """The backup or the restore cannot be made; the words say why and what to do."""


@dataclass(frozen=True)
class Backup:
    path: Path
    made_at: datetime
    session_id: int | None

    @property
    def size(self) -> int:
        return self.path.stat().st_size


def backups_dir() -> Path:
    return Path(settings.VAR_DIR) / "backups"


def embedded() -> bool:
    return connections["default"].vendor == "sqlite"


def database_path() -> Path:
    return Path(connections["default"].settings_dict["NAME"])


def _parse(path: Path) -> Backup | None:
    found = NAME.match(path.name)
    if found is None:
        return None
    made = datetime.strptime(found[1], "%Y%m%dT%H%M%S.%f").replace(tzinfo=UTC)
    return Backup(path, made, int(found[2]) if found[2] else None)


def backups_list(folder: Path | None = None) -> list[Backup]:
    """The backups in ``folder`` (default ``var/backups/``), oldest first."""
    folder = folder or backups_dir()
    if not folder.is_dir():
        return []
    found = [b for b in map(_parse, folder.iterdir()) if b is not None]
    return sorted(found, key=lambda b: b.made_at)


def backup_latest() -> Backup | None:
    found = backups_list()
    return found[-1] if found else None


def _name(now: datetime, session_id: int | None, suffix: str) -> str:
    tag = f"-s{session_id}" if session_id is not None else ""
    return f"backup-{now.astimezone(UTC):%Y%m%dT%H%M%S.%f}Z{tag}.{suffix}"


def sqlite_copy(source: Path, target: Path) -> None:
    """``source`` copied to ``target`` by SQLite's online backup (all pages in one step);
    written beside it first, so that ``target`` is never half a database."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
            # One self-contained file (the live database's WAL mode would make any reader
            # of the copy write -wal and -shm files beside it).
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
    finally:
        src.close()
    os.replace(partial, target)


def backup_make(folder: Path | None = None, *, session_id: int | None = None) -> Backup:
    """A backup of the database now, into ``folder`` (default ``var/backups/``, rotated)."""
    into = Path(folder) if folder else backups_dir()
    into.mkdir(parents=True, exist_ok=True)
    now = timezone.now()
    if embedded():
        target = into / _name(now, session_id, "sqlite3")
        sqlite_copy(database_path(), target)
    else:
        target = into / _name(now, session_id, "dump")
        _pg_dump(target)
    if folder is None:
        backups_rotate(into)
    return _parse(target)


def _pg_dump(target: Path) -> None:
    db = connections["default"].settings_dict
    command = [
        "pg_dump",
        "--format=custom",
        f"--file={target}",
        f"--host={db['HOST'] or '127.0.0.1'}",
        f"--port={db['PORT'] or 5432}",
        f"--username={db['USER'] or 'postgres'}",
        db["NAME"],
    ]
    if shutil.which("pg_dump") is None:
        raise BackupError(
            "pg_dump is not installed here (the PostgreSQL client). Install it "
            "(apt install postgresql-client) or run on the database's server:\n  "
            + " ".join(command)
        )
    env = {**os.environ, "PGPASSWORD": db["PASSWORD"] or ""}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        target.unlink(missing_ok=True)
        raise BackupError(f"pg_dump failed: {done.stderr.strip()}")


def backups_rotate(folder: Path | None = None) -> list[Path]:
    """Delete all but the :data:`KEEP` newest backups and the newest of each session;
    return what was deleted."""
    found = backups_list(folder)
    keep = {b.path for b in found[-KEEP:]}
    newest_of_session = {}
    for b in found:
        if b.session_id is not None:
            newest_of_session[b.session_id] = b.path
    keep |= set(newest_of_session.values())
    gone = [b.path for b in found if b.path not in keep]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


# --- automatic: after a round ends, and every 10 minutes while one runs --------------------


def backup_after_round(session_id: int) -> Backup | None:
    """The worker's backup once a round of ``session_id`` has ended (embedded only)."""
    if not embedded():
        return None
    return backup_make(session_id=session_id)


def backup_sweep(now: datetime | None = None) -> Backup | None:
    """Every minute (the worker's beat): a backup if a round runs and the last backup is
    :data:`EVERY` old."""
    from events.models import Round

    if not embedded():
        return None
    running = Round.objects.running().select_related("room").order_by("-started_at").first()
    if running is None:
        return None
    last = backup_latest()
    now = now or timezone.now()
    if last is not None and now - last.made_at < EVERY:
        return None
    return backup_make(session_id=running.room.session_id)


def queue_after_round(sender, round, **kwargs) -> None:  # noqa: A002 (the signal's name)
    """Queued once the end is committed and its answer sent: never on the request's path."""
    if not embedded():
        return
    from celery import current_app

    from events import afterwards

    session_id = round.room.session_id

    def send():
        try:
            current_app.send_task("events.backup_after_round", args=[session_id])
        except Exception:  # the broker down: the sweep's next backup covers it
            logger.warning("could not queue the backup after round %s", round.pk)

    afterwards.after_commit_and_response(send)


# --- restore -------------------------------------------------------------------------------


def serve_lock_path() -> Path:
    return Path(settings.VAR_DIR) / SERVE_LOCK


def serve_lock_hold():
    """Taken by ``manage.py serve`` for as long as it runs: a shared lock on
    ``var/serve.lock``, which the system releases however the server ends (even by SIGKILL).
    The open file is returned: the lock lives as long as the caller keeps it."""
    import fcntl

    lock = open(serve_lock_path(), "a+")  # noqa: SIM115 (held for the process's life)
    fcntl.flock(lock, fcntl.LOCK_SH)
    return lock


def server_running() -> bool:
    """Whether a ``manage.py serve`` (``make run``) holds ``var/serve.lock`` now."""
    import fcntl

    path = serve_lock_path()
    if not path.exists():
        return False
    with open(path, "a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(lock, fcntl.LOCK_UN)
    return False


def _known_migrations() -> set[tuple[str, str]]:
    from django.db.migrations.loader import MigrationLoader

    return set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)


def backup_check(path: Path) -> int:
    """That ``path`` is a whole SQLite database of this app, with no migration this code does
    not know; its number of applied migrations. :class:`BackupError` otherwise."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"{path}: no such file (нет такого файла).")
    with open(path, "rb") as head:
        if head.read(16) != b"SQLite format 3\x00":
            raise BackupError(
                f"{path}: not a SQLite database (не база SQLite); "
                "a PostgreSQL dump is restored with pg_restore."
            )
    try:
        db = sqlite3.connect(f"file:{path.resolve()}?mode=ro&immutable=1", uri=True)
        try:
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise BackupError(f"{path}: the database is damaged (база повреждена).")
            applied = set(db.execute("SELECT app, name FROM django_migrations").fetchall())
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        raise BackupError(
            f"{path}: not a database of this app (не база этого приложения): {error}."
        ) from None
    unknown = sorted(applied - _known_migrations())
    if unknown:
        app, name = unknown[0]
        raise BackupError(
            f"{path}: made by a newer version of the app — migration {app}.{name} is unknown "
            f"here (база более новой версии приложения); update the app first."
        )
    if not applied:
        raise BackupError(f"{path}: an empty database (пустая база).")
    return len(applied)


def restore(path: Path) -> Backup | None:
    """Put the backup ``path`` in place of the embedded database; the current one is kept as
    a backup first (returned; None when there was none)."""
    if not embedded():
        db = connections["default"].settings_dict
        raise BackupError(
            "restore puts back the embedded SQLite database; a PostgreSQL dump is restored "
            f"with: pg_restore --clean --if-exists --dbname={db['NAME']} FILE"
        )
    if server_running():
        raise BackupError(
            f"The server is running ({serve_lock_path()} is held by `make run`): stop it "
            "first (Ctrl-C), then restore (сервер работает: остановите его)."
        )
    backup_check(path)
    current = database_path()
    kept = None
    connections["default"].close()
    if current.exists():
        kept = backup_make()
    current.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro&immutable=1", uri=True)
    try:
        dst = sqlite3.connect(current)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    return kept
