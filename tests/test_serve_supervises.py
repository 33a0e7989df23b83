"""`manage.py serve` supervises its children: a worker killed mid-round (its whole group, the
beat with it) is started again while the web server keeps answering, and «Конец тура!» comes
exactly once, within seconds of its time; a web server that cannot start at all (its port in
use) stops the command with an error instead of a restart loop."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from tests.serving import ROOT, free_port, start_serve

# Always on the embedded default (they set it up themselves): once per `make test`.
pytestmark = [pytest.mark.slow, pytest.mark.embedded]

ROUND = """
from django.contrib.auth import get_user_model
from events import rounds, services
from events.models import Round
from movements import planner
from movements.services import session_create
owner = get_user_model().objects.create_user("serve_judge", password="x")
event = services.event_create(owner=owner, name="Надзор", date="2026-12-05", venue="Зал")
for i in range(15):
    services.entry_create(event, last_name=f"Игроков{i + 1:02d}", first_name="Игорь")
services.draw_make(event, seed="serve")
option = next(o for o in planner.plan(15).as_dict()["options"] if len(o["rooms"]) == 1)
session = session_create(event, option)
rounds.round_start(Round.objects.get(room__session=session, number=1), length_seconds=6)
print(event.slug)
"""

ENDS = """
from events.models import Announcement, Round
rnd = Round.objects.get(number=1, room__session__event__slug="{slug}")
print(rnd.state, Announcement.objects.filter(round=rnd, kind="end").count())
"""


def _get(port: int, path: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def _worker_pids(port: int) -> set[int]:
    found = subprocess.run(["pgrep", "-f", f"worker-{port}@"], capture_output=True, text=True)
    return {int(p) for p in found.stdout.split()}


def _wait(what, seconds: float, every: float = 0.3):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = what()
        if value:
            return value
        time.sleep(every)
    return what()


@pytest.fixture
def embedded(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(VAR_DIR=str(tmp_path), PYTHONUNBUFFERED="1", CLOCK_SWEEP_MS="500")
    manage = [sys.executable, "manage.py"]
    done = subprocess.run(
        manage + ["migrate", "--noinput"], cwd=ROOT, env=env, capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return env, manage


def test_a_killed_worker_comes_back_the_web_stays_up_and_the_round_ends_once(embedded, tmp_path):
    env, manage = embedded
    port = free_port()
    serve, log = start_serve(manage, env, port, tmp_path / "serve.log")
    try:
        healthy = _wait(lambda: _all_ok(port), 60, 0.5)
        log.seek(0)
        assert healthy, log.read()[-2000:]
        made = subprocess.run(
            manage + ["shell", "-c", ROUND], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert made.returncode == 0, made.stderr
        slug = made.stdout.strip().splitlines()[-1]
        before = _worker_pids(port)
        assert before
        # The worker and its beat, mid-round: the whole group at once, as the OOM killer might.
        os.killpg(os.getpgid(min(before)), signal.SIGKILL)
        for _ in range(10):  # the web server answers all along
            try:
                status, _body = _get(port, f"/e/{slug}/clock.json")
            except OSError as error:
                log.seek(0)
                raise AssertionError(log.read()[-3000:]) from error
            assert status == 200
            time.sleep(0.3)
        again = _wait(lambda: _worker_pids(port) - before, 20)
        assert again, "the worker was not started again"
        assert not (_worker_pids(port) & before), "a process of the killed worker survived"
        # Six seconds after the start the round ends — once, by the worker's timer or sweep
        # or the clock's first read, whichever comes first.
        time.sleep(7)
        _get(port, f"/e/{slug}/clock.json")
        ended = _wait(lambda: _state(manage, env, slug) == "finished 1", 10, 1)
        assert ended, _state(manage, env, slug)
        assert _wait(lambda: _all_ok(port), 30, 0.5)  # the new worker answers too
    finally:
        serve.send_signal(signal.SIGINT)
        try:
            code = serve.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
            raise
        log.seek(0)
        text = log.read()
        log.close()
    assert code == 0, text[-2000:]
    assert "exited with" in text and "starting it again" in text
    assert _worker_pids(port) == set()


def test_a_web_server_that_cannot_start_stops_the_command_with_an_error(embedded):
    env, manage = embedded
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            manage + ["serve", "--port", str(port)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode != 0
    assert "The web server stopped at once" in done.stderr
    assert _worker_pids(port) == set()


def _all_ok(port: int) -> bool:
    """Whether /healthz says every part answers, the worker too (it answers 200 as soon as
    the database does, naming what else fails)."""
    try:
        status, body = _get(port, "/healthz")
    except OSError:
        return False
    return status == 200 and body.get("status") == "ok"


def _state(manage, env, slug) -> str:
    done = subprocess.run(
        manage + ["shell", "-c", ENDS.format(slug=slug)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else done.stderr[-500:]
