"""A saved sheet survives the server's death: `make run`'s embedded server, killed with SIGKILL
in the middle of a round while sheets are being saved, comes back with every sheet whose save
it had acknowledged (docs/operations.md, «Durability»).

SIGKILL of the processes does not lose what the kernel holds in its buffers, so this proves
that an acknowledged save was committed before its answer left; that the commit is also on
the disk when the power goes (``synchronous=FULL``) is the embedded database's setting, which
the first test reads from the server's own start-up."""

import contextlib
import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.serving import ROOT, free_port, start_serve

# Always on the embedded default (they set it up themselves): once per `make test`.
pytestmark = [pytest.mark.slow, pytest.mark.embedded]

SETUP = """
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from events import rounds, services
from events.models import Round
from scoring.models import TablePlay
from tests.factories import seat_players
owner = get_user_model().objects.create_user("judge", password="s3cret-pass-1")
event = services.event_create(owner=owner, name="Свет погас", date="2026-12-05", venue="Клуб")
session = seat_players(event, 15)
rounds.round_start(Round.objects.get(room__session=session, number=1))
plays = TablePlay.objects.filter(round__room__session=session).order_by(
    "round__number", "table__number"
)
targets = [[p.pk, d.number] for p in plays for d in p.board_set.deals.order_by("number")]
print(json.dumps({"event": event.pk, "token": Token.objects.create(user=owner).key,
                  "targets": targets}))
"""

PRAGMAS = """
import json
from django.db import connection
with connection.cursor() as cursor:
    found = {p: cursor.execute(f"PRAGMA {p}").fetchone()[0]
             for p in ("journal_mode", "synchronous")}
print(json.dumps(found))
"""

#: What each table saves: N plays «три» in diamonds, E whists and takes 3 (N 70, E 30, S 0).
SHEET = {
    "declarer": "N",
    "contract": "three",
    "trump": "diamonds",
    "defenders": {"E": "whist", "S": "pass"},
    "tricks": {"N": 7, "E": 3},
}


@pytest.fixture
def embedded(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(VAR_DIR=str(tmp_path / "var"), PYTHONUNBUFFERED="1")
    manage = [sys.executable, "manage.py"]
    done = subprocess.run(
        manage + ["migrate", "--noinput"], cwd=ROOT, env=env, capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return env, manage


def _shell(manage, env, code: str) -> dict:
    done = subprocess.run(
        manage + ["shell", "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_embedded_database_commits_to_the_disk_before_it_answers(embedded):
    env, manage = embedded
    # synchronous=FULL (2): each commit syncs the WAL; NORMAL (1) only at checkpoints.
    assert _shell(manage, env, PRAGMAS) == {"journal_mode": "wal", "synchronous": 2}


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (serve's children run in process groups of their own)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _kill_everything(serve: subprocess.Popen) -> None:
    """SIGKILL to the command and every process it started, as a crash would leave them."""
    below = _descendants(serve.pid)
    os.kill(serve.pid, signal.SIGKILL)
    for pid in below:
        with contextlib.suppress(ProcessLookupError):  # gone with its parent already
            os.kill(pid, signal.SIGKILL)
    serve.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in below) and time.monotonic() < deadline:
        time.sleep(0.1)


def _api(port: int, token: str, path: str, body: dict | None = None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=15) as answer:
        return answer.status, json.load(answer)


def _wait_healthy(port: int, log, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    log.seek(0)
    raise AssertionError(log.read()[-3000:])


def _stop(serve: subprocess.Popen, log) -> str:
    serve.send_signal(signal.SIGINT)
    try:
        serve.wait(timeout=30)
    except subprocess.TimeoutExpired:
        _kill_everything(serve)
    log.seek(0)
    text = log.read()
    log.close()
    return text


def test_every_acknowledged_save_is_there_after_a_sigkill_mid_round(embedded, tmp_path):
    env, manage = embedded
    made = _shell(manage, env, SETUP)
    event, token, targets = made["event"], made["token"], made["targets"]
    path = f"events/{event}/sheets/"

    port = free_port()
    serve, log = start_serve(manage, env, port, tmp_path / "serve-1.log")
    acknowledged: list[tuple[int, int]] = []
    refused: list[tuple] = []
    lock = threading.Lock()
    queue = list(reversed(targets))

    def save_until_the_server_dies():
        while True:
            with lock:
                if not queue:
                    return
                play, deal = queue.pop()
            try:
                status, body = _api(port, token, path, {"play": play, "deal": deal} | SHEET)
            except urllib.error.HTTPError as error:  # an answer, but not «saved»
                refused.append((play, deal, error.code, error.read()[:300]))
                return
            except (OSError, http.client.HTTPException):
                return  # the server is gone: this save was never acknowledged
            with lock:
                if status == 201 and body["version"] == 1:
                    acknowledged.append((play, deal))
                else:
                    refused.append((play, deal, status, body))

    try:
        _wait_healthy(port, log)
        # Two phones at once, so that a save is in flight when the server dies.
        savers = [
            threading.Thread(target=save_until_the_server_dies, daemon=True) for _ in range(2)
        ]
        for saver in savers:
            saver.start()
        deadline = time.monotonic() + 120
        while len(acknowledged) < len(targets) // 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        _kill_everything(serve)
        for saver in savers:
            saver.join(timeout=30)
    finally:
        if serve.poll() is None:
            _kill_everything(serve)
        log.close()
    assert not refused, refused
    saved = set(acknowledged)
    assert len(targets) // 3 <= len(saved) < len(targets), "the kill came mid-way"

    port = free_port()
    serve, log = start_serve(manage, env, port, tmp_path / "serve-2.log")
    try:
        _wait_healthy(port, log)
        status, sheets = _api(port, token, path)
        assert status == 200
    finally:
        text = _stop(serve, log)
    found = {(s["play"], s["deal"]): s for s in sheets}
    missing = saved - set(found)
    assert not missing, f"{len(missing)} acknowledged saves lost: {sorted(missing)}"
    for key in saved:
        assert found[key]["result"]["scores"] == {"N": 70, "E": 30, "S": 0}, found[key]
    assert "Traceback" not in text, text[-3000:]
    integrity = subprocess.run(
        [sys.executable, "-c", _INTEGRITY, str(Path(env["VAR_DIR"]) / "db.sqlite3")],
        capture_output=True,
        text=True,
    )
    assert integrity.stdout.strip() == "ok", integrity.stderr


_INTEGRITY = """
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])
"""
