"""The suite leaves no process behind: a worker started with its beat and then killed takes
the beat with it, and the run's end finds (and would fail on) any Celery process of its own."""

import time

import pytest

from tests.conftest import _processes_of_this_run

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("celery"), pytest.mark.slow]


def _mine(worker) -> list[int]:
    import os

    group = worker.process.pid
    found = []
    for pid, _cmd in _processes_of_this_run():
        try:
            if os.getpgid(pid) == group:
                found.append(pid)
        except ProcessLookupError:
            continue
    return found


def test_a_killed_worker_leaves_neither_itself_nor_its_beat(worker_factory):
    worker = worker_factory(beat=True)
    deadline = time.monotonic() + 10
    while len(_mine(worker)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)  # the worker and the beat it forks
    assert len(_mine(worker)) >= 2, "the run's worker and beat are found by its run id"
    worker.stop(kill=True)  # SIGKILL, as a crash would
    deadline = time.monotonic() + 10
    while _mine(worker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _mine(worker) == []
