"""Starting `manage.py serve` from a test, as a user runs it: its own session, its output
in a log file the test reads when something fails."""

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
