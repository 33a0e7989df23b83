"""A change of a sheet's current result or of an adjustment marks its deal's comparison stale; after commit the worker recomputes it, or here at once when no worker is wanted."""

from __future__ import annotations

from scoring import standings
from scoring.models import Deal, TablePlay

# --- recomputing ----------------------------------------------------------------------------


def _mark_stale(deal_ids, play: TablePlay | None):
    """Mark the deals' comparisons stale (sorted ids returned), and their session if ``play``
    came with it: the worker recomputes them once the write is committed (a reader
    recomputes whatever is still stale, so a change is in the standings at the next read all
    the same, and nothing is lost if the task never runs)."""
    ids = sorted(set(deal_ids))
    if ids:
        Deal.objects.filter(pk__in=ids).update(scores_stale=True)
    session = None
    if play is not None and "round" in play._state.fields_cache:
        room = play.round._state.fields_cache.get("room")
        if room is not None:
            session = room._state.fields_cache.get("session")
    return ids, session


def _recompute_here(ids: list[int], session):
    def recompute():
        standings.deals_recompute(ids, session=session)

    return recompute
