"""Thin, idempotent Celery tasks: they take ids and call a service that decides by a
conditional update, so a late, duplicated or stale delivery does nothing."""

import logging

from celery import shared_task

from events import rounds

logger = logging.getLogger("events.clock")


@shared_task(name="events.ping", acks_late=False)
def ping(token: str) -> str:
    """Answer the health check: proves a worker takes tasks from the broker right now."""
    return token


@shared_task(name="events.round_end_due", ignore_result=True)
def round_end_due(round_id: int) -> bool:
    return _logged("end", round_id, rounds.round_fire_end(round_id))


@shared_task(name="events.round_warning_due", ignore_result=True)
def round_warning_due(round_id: int) -> bool:
    return _logged("warning", round_id, rounds.round_fire_warning(round_id))


@shared_task(name="events.round_start_due", ignore_result=True)
def round_start_due(round_id: int) -> bool:
    return _logged("start", round_id, rounds.round_fire_auto_start(round_id))


@shared_task(name="events.clock_sweep", ignore_result=True, expires=10)
def clock_sweep() -> dict:
    done = rounds.clock_sweep()
    if any(done.values()):  # a sweep that found nothing overdue says nothing
        logger.info("clock sweep fired %s", ", ".join(f"{k}: {v}" for k, v in done.items() if v))
    return done


def _logged(what: str, round_id: int, fired: bool) -> bool:
    if fired:
        logger.info("round %s: %s fired by its timer", round_id, what)
    return fired
