"""Starting `manage.py serve` from a test, as a user runs it: its own session, its output
in a log file the test reads when something fails."""

import contextlib
import socket
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_serve(manage: list[str], env: dict, port: int, log_path: Path):
    """The running command and its open log (the caller closes it)."""
    log = open(log_path, "w+")  # noqa: SIM115 - the caller closes it
    proc = subprocess.Popen(
        manage + ["serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    return proc, log


@contextlib.contextmanager
def gunicorn(tmp_path: Path, *, ready: str = "/director/login/", timeout: float = 60, **env):
    """gunicorn on the test database as the compose file runs it (``env``: the settings to
    set, e.g. ``REDIS_URL``, ``HTTPS``), once ``ready`` answers. Yields a server with
    ``base`` (its address) and ``log`` (its open log); when the block ends its process group
    is stopped and ``output`` holds everything it wrote, its shutdown too."""
    import os
    import signal
    import sys
    import time
    import urllib.error
    import urllib.request
    from types import SimpleNamespace

    from tests.conftest import _test_database_url

    port = free_port()
    full = {"DATABASE_URL": _test_database_url(), "WEB_WORKERS": "1", "WEB_THREADS": "2"}
    full = {**os.environ, **full, **env}
    log = open(tmp_path / "web.log", "w+")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application"]
        + ["-c", "python:config.gunicorn", "--bind", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=full,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    server = SimpleNamespace(base=base, log=log, output="")
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(base + ready, timeout=5).close()
                break
            except (urllib.error.URLError, ConnectionError):
                log.seek(0)
                assert proc.poll() is None and time.monotonic() < deadline, log.read()[-3000:]
                time.sleep(0.2)
        yield server
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:  # pragma: no cover - a server that will not stop
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        log.seek(0)
        server.output = log.read()
        log.close()
