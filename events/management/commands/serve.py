"""Run the web server and a Celery worker together, each restarted if it exits; one Ctrl-C
stops both. It says at which addresses phones in the hall reach it (``HOST=0.0.0.0``: this
computer's network addresses; the default 127.0.0.1: none, and how to open it to the hall)."""

import contextlib
import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from events import addresses, backups

#: Workers, threads and the quiet access log are sized and set in config/gunicorn.py.
WEB_OPTIONS = "-c python:config.gunicorn"
WORKER_OPTIONS = "--loglevel INFO --pool threads --concurrency 4"


class Command(BaseCommand):
    help = (
        "Start gunicorn on HOST:PORT (127.0.0.1:8000; HOST=0.0.0.0 for phones in the hall) and "
        "a Celery worker (with its beat), restarting either if it exits; Ctrl-C stops both."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--host", default=os.environ.get("HOST") or "127.0.0.1")
        parser.add_argument(
            "--addresses",
            action="store_true",
            dest="only_addresses",
            help="Only say at which addresses phones would reach it, and start nothing.",
        )

    def handle(self, *args, port, host, only_addresses=False, **options):
        if not 0 < port < 65536:
            raise CommandError(f"PORT must be between 1 and 65535, not {port}.")
        host = host.strip().strip("[]")
        if not addresses.is_ip_or_localhost(host):
            # A name would be looked up (DNS), and some shells export HOST as the computer's.
            raise CommandError(
                f"HOST must be an IP address (127.0.0.1, or 0.0.0.0 for phones in the hall), "
                f"not {host!r}."
            )
        phones = phone_addresses(host)
        if only_addresses:
            self.stdout.write("\n".join(hall_lines(host, port, phones)))
            return
        allow_phones(phones, os.environ)  # the children inherit it
        bindir = os.path.dirname(sys.executable)
        web = [
            os.path.join(bindir, "gunicorn"),
            "config.wsgi:application",
            "--bind",
            f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        ]
        web += WEB_OPTIONS.split()
        # The worker runs the beat too: its clock sweep fires anything overdue.
        worker = [os.path.join(bindir, "celery"), "-A", "config", "worker", "--beat"]
        worker += ["--schedule", settings.CELERY_BEAT_SCHEDULE_FILENAME]
        worker += ["--hostname", f"worker-{port}@%h", *WORKER_OPTIONS.split()]
        db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        broker = settings.CELERY_BROKER_URL.split("://")[0]
        self.stdout.write(
            f"Serving on {_where(host, port)} (database: {db}, broker: {broker}). "
            "Press Ctrl-C to stop."
        )
        self.stdout.write("\n".join(hall_lines(host, port, phones)))
        # Each child leads its own process group: one Ctrl-C reaches this command only,
        # which then stops both groups in order, and nothing is left behind.
        self.serving = backups.serve_lock_hold()  # restore refuses while it is held
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


def phone_addresses(host: str) -> list[str]:
    """The addresses phones could use for a server listening on ``host``: every network
    address of this computer for 0.0.0.0, the address itself when it is one, none for
    loopback."""
    if addresses.listens_everywhere(host):
        return addresses.lan_addresses()
    if addresses.is_loopback(host):
        return []
    return [host]


def allow_phones(phones: list[str], environ) -> None:
    """Let the web server's settings allow the addresses phones use (a phone's request names
    the one it opened): SERVE_HOSTS, read by config/settings.py unless ALLOWED_HOSTS is set,
    which then says alone what is allowed."""
    if phones and "ALLOWED_HOSTS" not in environ:
        environ["SERVE_HOSTS"] = ",".join(addresses.host_name(a) for a in phones)
    else:
        environ.pop("SERVE_HOSTS", None)


def _where(host: str, port: int) -> str:
    if addresses.listens_everywhere(host):
        return f"every interface, port {port} (on this computer http://127.0.0.1:{port}/)"
    return addresses.hall_url(host, port)


def hall_lines(host: str, port: int, phones: list[str]) -> list[str]:
    """What the director reads about the phones in the hall when it starts."""
    if addresses.is_loopback(host) and not addresses.listens_everywhere(host):
        return [
            f"Phones cannot reach {addresses.hall_url(host, port)}: it opens on this computer "
            "only, and QR codes printed from it lead nowhere on a phone. To open it to the "
            "hall: HOST=0.0.0.0 make run (docs/director-guide.md: «В зале: телефоны игроков»)."
        ]
    if not phones:
        return [
            "Phones cannot reach it yet: this computer has no network address. Connect it "
            "to the hall's Wi-Fi and start it again."
        ]
    lines = ["Phones on the same Wi-Fi open it at:"]
    lines += [f"  {addresses.hall_url(a, port)}" for a in phones]
    allowed = settings.ALLOWED_HOSTS
    refused = [a for a in phones if addresses.host_name(a) not in allowed and "*" not in allowed]
    if refused and "ALLOWED_HOSTS" in os.environ:
        lines.append(
            f"ALLOWED_HOSTS does not name {', '.join(refused)}: add it, or leave ALLOWED_HOSTS "
            "unset, or phones are answered «Bad Request (400)»."
        )
    suggested = addresses.hall_url(phones[0], port, "")
    if settings.SITE_URL:
        lines.append(f"The cards' QR codes lead to SITE_URL={settings.SITE_URL}.")
        if addresses.is_loopback(addresses.url_host(settings.SITE_URL)):
            lines.append(f"SITE_URL names this computer alone: set SITE_URL={suggested}.")
    else:
        lines.append(
            "Open the director's pages at that address too before printing: the cards' QR "
            f"codes carry the address the browser used (or set SITE_URL={suggested})."
        )
    lines.append(
        f"A phone that cannot open it: let port {port} through the firewall (Linux: sudo ufw "
        f"allow {port}/tcp; Windows: allow Python when Windows Defender asks)."
    )
    return lines


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
