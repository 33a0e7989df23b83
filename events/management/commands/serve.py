"""Run the web server and a Celery worker together, each restarted if it exits; one Ctrl-C
stops both."""

import contextlib
import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

#: Workers, threads and the quiet access log are sized and set in config/gunicorn.py.
WEB_OPTIONS = "-c python:config.gunicorn"
WORKER_OPTIONS = "--loglevel INFO --pool threads --concurrency 4"


class Command(BaseCommand):
    help = (
        "Start gunicorn on 127.0.0.1:PORT and a Celery worker (with its beat), restarting either "
        "if it exits; Ctrl-C stops both."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))

    def handle(self, *args, port, host, **options):
        if not 0 < port < 65536:
            raise CommandError(f"PORT must be between 1 and 65535, not {port}.")
        bindir = os.path.dirname(sys.executable)
        web = [
            os.path.join(bindir, "gunicorn"),
            "config.wsgi:application",
            "--bind",
            f"{host}:{port}",
        ]
        web += WEB_OPTIONS.split()
        # The worker runs the beat too: its clock sweep fires anything overdue.
        worker = [os.path.join(bindir, "celery"), "-A", "config", "worker", "--beat"]
        worker += ["--schedule", settings.CELERY_BEAT_SCHEDULE_FILENAME]
        worker += ["--hostname", f"worker-{port}@%h", *WORKER_OPTIONS.split()]
        db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        broker = settings.CELERY_BROKER_URL.split("://")[0]
        self.stdout.write(
            f"Serving on http://{host}:{port}/ (database: {db}, broker: {broker}). "
            "Press Ctrl-C to stop."
        )
        # Each child leads its own process group: one Ctrl-C reaches this command only,
        # which then stops both groups in order, and nothing is left behind.
        children = [Child("web server", web, self), Child("worker", worker, self)]
        for child in children:
            child.start()
        stopping = False

        def stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        failed = None
        try:
            while not stopping and failed is None:
                for child in children:
                    if not child.watch():
                        failed = child
                time.sleep(0.3)
        finally:
            self.stdout.write("Stopping the web server and the worker…")
            for child in children:
                child.signal(signal.SIGTERM)
            deadline = time.monotonic() + 15
            for child in children:
                child.wait(max(0.1, deadline - time.monotonic()))
                child.signal(signal.SIGKILL)  # stragglers of the group, if any
        if failed is not None:
            raise CommandError(
                f"The {failed.name} stopped at once (exit {failed.proc.returncode}): see its "
                "message above (a port in use, a setting).",
                returncode=failed.proc.returncode or 1,
            )


#: A child that exits by itself with an error this soon after its first start never came up
#: (a port in use, a bad setting): the command stops with its error instead of trying again.
STARTUP_S = 15.0
#: Back-off before restarting a child that exited: doubled each time it exits again soon,
#: back to the first once it has run this long.
RESTART_FIRST_S = 1.0
RESTART_MOST_S = 30.0
STEADY_S = 60.0


class Child:
    """One supervised child (the web server or the worker) in its own process group. When
    it exits without being asked, what is left of its group is killed (a worker's beat,
    gunicorn's workers) and it is started again after a back-off; the other child keeps
    running — a crashed worker never takes the web server down."""

    def __init__(self, name: str, cmd: list[str], command: BaseCommand):
        self.name, self.cmd, self.command = name, cmd, command
        self.proc: subprocess.Popen | None = None
        self.started_at = 0.0
        self.backoff = RESTART_FIRST_S
        self.restart_at: float | None = None
        self.starts = 0

    def start(self) -> None:
        self.proc = subprocess.Popen(self.cmd, start_new_session=True)
        self.started_at = time.monotonic()
        self.restart_at = None
        self.starts += 1

    def watch(self) -> bool:
        """Look after the child; False if it could not start at all."""
        now = time.monotonic()
        if self.restart_at is not None:
            if now >= self.restart_at:
                self.command.stderr.write(f"Starting the {self.name} again.")
                self.start()
            return True
        if self.proc is None or self.proc.poll() is None:
            return True
        code = self.proc.returncode
        _signal_group(self.proc, signal.SIGKILL)  # its children (the beat) go with it
        if self.starts == 1 and code > 0 and now - self.started_at < STARTUP_S:
            return False  # it gave up by itself at once (killed by a signal it is restarted)
        if now - self.started_at >= STEADY_S:
            self.backoff = RESTART_FIRST_S
        self.command.stderr.write(
            f"The {self.name} exited with {code}; starting it again in {self.backoff:.0f} s."
        )
        self.restart_at = now + self.backoff
        self.backoff = min(self.backoff * 2, RESTART_MOST_S)
        return True

    def signal(self, sig: int) -> None:
        if self.proc is not None:
            _signal_group(self.proc, sig)

    def wait(self, timeout: float) -> None:
        if self.proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=timeout)


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)
