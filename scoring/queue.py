"""Queueing the worker's tasks from a write, by name (writers do not import tasks)."""

import logging

from celery import current_app

from events import afterwards

logger = logging.getLogger("scoring")


def queue_after_commit(task: str, args: list, *, otherwise=None) -> None:
    """Queue ``task`` once the write is committed and its answer sent
    (``events.afterwards``: the writer does not wait for the broker). The write is done by
    then: a broker that cannot take the task is logged, not turned into an error page, and
    ``otherwise`` (if given) does the work here instead. Nothing a reader needs waits for
    it: readers recompute whatever is still stale."""

    def send():
        try:
            current_app.send_task(task, args=args)
        except Exception:
            logger.warning("could not queue %s; %s", task, "done here" if otherwise else "left")
            if otherwise is not None:
                otherwise()

    afterwards.after_commit_and_response(send)
