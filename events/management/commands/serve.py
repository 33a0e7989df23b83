"""Run the web server and a Celery worker together; one Ctrl-C stops both."""

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
        "Start gunicorn on 127.0.0.1:PORT and a Celery worker (with its beat); Ctrl-C stops both."
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
        procs = [subprocess.Popen(cmd, start_new_session=True) for cmd in (web, worker)]
        stopping = False

        def stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        code = 0
        try:
            while not stopping:
                for proc in procs:
                    if proc.poll() is not None:
                        self.stderr.write(
                            f"{proc.args[0]} exited with {proc.returncode}; stopping."
                        )
                        code = proc.returncode or 1
                        stopping = True
                time.sleep(0.3)
        finally:
            self.stdout.write("Stopping the web server and the worker…")
            for proc in procs:
                _signal_group(proc, signal.SIGTERM)
            deadline = time.monotonic() + 15
            for proc in procs:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=max(0.1, deadline - time.monotonic()))
                _signal_group(proc, signal.SIGKILL)  # stragglers of the group, if any
        if code:
            raise CommandError("A process stopped unexpectedly.", returncode=code)


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)
