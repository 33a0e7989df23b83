"""Run the web server and a Celery worker together; one Ctrl-C stops both."""

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Start gunicorn on 127.0.0.1:PORT and a Celery worker; stop both on Ctrl-C."

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
        web += [
            "--workers",
            "2",
            "--threads",
            "8",
            "--worker-class",
            "gthread",
            "--timeout",
            "60",
            "--access-logfile",
            "-",
        ]
        # The worker runs the beat too: its clock sweep fires anything overdue.
        worker = [os.path.join(bindir, "celery"), "-A", "config", "worker", "--beat"]
        worker += ["--schedule", settings.CELERY_BEAT_SCHEDULE_FILENAME]
        worker += ["--hostname", f"worker-{port}@%h"]
        worker += ["--loglevel", "INFO", "--pool", "threads", "--concurrency", "4"]
        db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        self.stdout.write(
            f"Serving on http://{host}:{port}/ (database: {db}, broker: "
            f"{settings.CELERY_BROKER_URL.split('://')[0]}). Press Ctrl-C to stop."
        )
        procs = [subprocess.Popen(web), subprocess.Popen(worker)]
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
            for proc in procs:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 15
            for proc in procs:
                try:
                    proc.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    proc.kill()
        if code:
            raise CommandError("A process stopped unexpectedly.", returncode=code)
