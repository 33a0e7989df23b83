"""`make run`'s default: web server and worker on SQLite and a filesystem broker, no services."""

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


def _healthz(port: int) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_the_embedded_default_serves_healthz_with_a_live_worker(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(VAR_DIR=str(tmp_path), PYTHONUNBUFFERED="1")
    manage = [sys.executable, "manage.py"]
    setup = subprocess.run(
        manage + ["migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert setup.returncode == 0, setup.stderr
    assert (tmp_path / "db.sqlite3").exists()
    director = subprocess.run(
        manage + ["ensure_director"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert director.returncode == 0 and "Log in at /director/login/" in director.stdout

    port = free_port()
    proc, log = start_serve(manage, env, port, tmp_path / "serve.log")
    try:
        deadline = time.monotonic() + 60
        status, body = 0, {}
        while time.monotonic() < deadline:
            try:
                status, body = _healthz(port)
                if status == 200 and body["status"] == "ok":  # the worker answers too
                    break
            except OSError:
                pass
            time.sleep(0.5)
        log.seek(0)
        assert status == 200, (body, log.read()[-2000:])
        assert body["database"]["engine"] == "sqlite"
        assert "filesystem" in body["broker"]["transport"].lower()
        assert body["worker"] == {"ok": True}
    finally:
        proc.send_signal(signal.SIGINT)  # one Ctrl-C stops both
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise
        log.close()
    assert code == 0
    # Nothing is left listening, and no server or worker process of this run survives.
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    left = subprocess.run(
        ["pgrep", "-f", f"127.0.0.1:{port}|worker-{port}@"], capture_output=True, text=True
    )
    assert left.stdout == ""
