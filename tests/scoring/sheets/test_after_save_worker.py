"""After a sheet is saved, the worker brings the deal's comparison and the players' totals up
to date before anyone asks (the save itself returns without that work)."""

import pytest

from scoring import standings
from scoring.models import DealScore, SessionTotal
from scoring.player import page as player_page
from scoring.sheets import services
from tests.factories import (
    THREE_DIAMONDS,
    deal_of,
    entry_at,
    play_of,
    seat_players,
    start,
    wait_until,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery"),
    pytest.mark.slow,
]


def test_the_worker_scores_the_saved_deal_before_anyone_reads_the_standings(
    celery_worker_process, event
):
    session = seat_players(event, 15)
    play = play_of(session, 1, 1)
    start(play.round)
    standings.session_standings(session)  # the totals exist: a save moves them deal by deal
    deal = deal_of(play, 1)
    north = entry_at(play, "N")

    services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=north)

    # Nobody reads the standings: the worker brings the cached figures up to date itself.
    assert wait_until(lambda: not type(deal).objects.get(pk=deal.pk).scores_stale), (
        celery_worker_process.log_path.read_text()[-3000:]
    )
    assert DealScore.objects.filter(deal=deal).count() == 3
    assert SessionTotal.objects.get(session=session, entry=north).deals == 1

    # And the phones of the table show it at their next fetch.
    entry = type(north).objects.select_related("event").get(pk=north.pk)
    assert ">70</td>" in player_page.places_html(entry)
