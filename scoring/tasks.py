"""Thin, idempotent Celery tasks of the scoring side: they take ids and call a service.

The writes (``scoring.sheets.services``) queue them by name after commit, so a save returns without
doing their work; nothing is lost when one never runs (a broker down, a worker late): a
reader recomputes whatever deal is still stale (``scoring.standings``).
"""

from celery import shared_task

from events.models import Session
from scoring import standings
from scoring.hands import analysis
from scoring.ladder import services as ladders
from scoring.player import page as player_page


@shared_task(name="scoring.deals_recompute", ignore_result=True)
def deals_recompute(deal_ids: list[int], session_id: int | None = None) -> None:
    """The comparison of these deals and the totals they move (only the still stale ones)."""
    session = Session.objects.select_related("event").filter(pk=session_id).first()
    standings.deals_recompute(deal_ids, session=session)


@shared_task(name="scoring.table_changed", ignore_result=True)
def table_changed(deal_ids: list[int], session_id: int | None, entry_ids: list[int]) -> None:
    """A table's sheet or adjustment changed: the comparison of its deals (the still stale
    ones), then its players' seat fragments, built ahead of their phones' next poll."""
    if deal_ids:
        deals_recompute(deal_ids, session_id)
    player_page.fragments_build(entry_ids)


@shared_task(name="scoring.room_fragments_build", ignore_result=True)
def room_fragments_build(room_id: int) -> None:
    """A room's clock changed: its session's players' seat fragments, built ahead of their
    phones' fetch (``scoring.player.page.room_fragments_build``)."""
    player_page.room_fragments_build(room_id)


@shared_task(
    name="scoring.deals_analyse", ignore_result=True, soft_time_limit=3600, time_limit=3700
)
def deals_analyse(session_id: int, deal_ids: list[int] | None = None) -> None:
    """The double-dummy table of the session's deals with known cards, one deal at a time
    (``scoring.hands.analysis``); a deal already analysed is skipped unless named."""
    analysis.session_analyse(session_id, deal_ids)


@shared_task(name="scoring.ladder_recompute", ignore_result=True)
def ladder_recompute(ladder_id: int) -> None:
    """The club ladder replayed from scratch and its rows written (``scoring.ladder.services``): a
    replay that finds a later one's rows already written does nothing."""
    ladders.ladder_recompute(ladder_id)
