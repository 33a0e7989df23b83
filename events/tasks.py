"""Thin, idempotent Celery tasks: they take ids and call a service that decides by a
conditional update, so a late, duplicated or stale delivery does nothing."""

from celery import shared_task

from events import rounds


@shared_task(name="events.ping", acks_late=False)
def ping(token: str) -> str:
    """Answer the health check: proves a worker takes tasks from the broker right now."""
    return token


@shared_task(name="events.round_end_due", ignore_result=True)
def round_end_due(round_id: int) -> bool:
    return rounds.round_fire_end(round_id)


@shared_task(name="events.round_warning_due", ignore_result=True)
def round_warning_due(round_id: int) -> bool:
    return rounds.round_fire_warning(round_id)


@shared_task(name="events.round_start_due", ignore_result=True)
def round_start_due(round_id: int) -> bool:
    return rounds.round_fire_auto_start(round_id)


@shared_task(name="events.clock_sweep", ignore_result=True, expires=10)
def clock_sweep() -> dict:
    return rounds.clock_sweep()
