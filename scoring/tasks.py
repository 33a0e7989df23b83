"""Thin, idempotent Celery tasks of the scoring side: they take ids and call a service.

The writes (``scoring.services``) queue them by name after commit, so a save returns without
doing their work; nothing is lost when one never runs (a broker down, a worker late): a
reader recomputes whatever deal is still stale (``scoring.standings``).
"""

from celery import shared_task

from events.models import Session
from scoring import standings


@shared_task(name="scoring.deals_recompute", ignore_result=True)
def deals_recompute(deal_ids: list[int], session_id: int | None = None) -> None:
    """The comparison of these deals and the totals they move (only the still stale ones)."""
    session = Session.objects.select_related("event").filter(pk=session_id).first()
    standings.deals_recompute(deal_ids, session=session)
