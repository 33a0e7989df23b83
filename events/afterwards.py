"""Work a write leaves for after its commit that no reader of the answer waits for — queueing
a Celery task whose work is optional (a reader does it itself when the task never runs) —
done once the request's response has gone out, so that the writer's answer does not wait
for the broker. Outside a request (a command, a task) it is done at once.

``AfterResponseMiddleware`` opens the request's list; Django's ``request_finished`` (sent
when the WSGI server closes the response, after its last byte) runs it. A failure is
logged, never turned into an error: the work is optional by definition."""

from __future__ import annotations

import logging
import threading

from django.core.signals import request_finished
from django.db import transaction

logger = logging.getLogger(__name__)

_local = threading.local()


def after_response(work) -> None:
    """Run ``work()`` once this thread's response has been sent (at once outside a request)."""
    pending = getattr(_local, "pending", None)
    if pending is None:
        _run([work])
    else:
        pending.append(work)


def after_commit_and_response(work) -> None:
    """Run ``work()`` after the current transaction commits and the response has been sent
    (dropped with a rolled-back transaction, as ``transaction.on_commit``)."""
    transaction.on_commit(lambda: after_response(work), robust=True)


def _run(works) -> None:
    for work in works:
        try:
            work()
        except Exception:
            logger.exception("work left for after the response failed")


def _flush(**kwargs) -> None:
    pending = getattr(_local, "pending", None)
    _local.pending = None
    if pending:
        _run(pending)


request_finished.connect(_flush, dispatch_uid="events.afterwards.flush")


class AfterResponseMiddleware:
    """Opens the list of work to do once the response of this request has been sent."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        _flush()  # a previous response never closed (should not happen): do its work now
        _local.pending = []
        return self.get_response(request)
