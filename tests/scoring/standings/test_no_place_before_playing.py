"""A player's page gives no place in a session he has not played yet (issue 21, finding 14:
«Сессия 2: Место 1–33 — по 0 сдачам» before session 2 started)."""

import pytest

from events import services as event_services
from events.models import Seat
from movements import planner
from movements.services import session_create
from scoring import standings
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, play_of, play_out

pytestmark = pytest.mark.django_db


def test_a_player_has_no_place_in_a_session_he_has_not_played(client, session15, director):
    event = session15.event
    play = play_of(session15, 1, 1)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    play_out(session15)
    event_services.event_set_results_public(event, True)
    option = next(
        o
        for o in planner.plan(15).as_dict()["options"]
        if all(r["kind"] == "prime" and r["seats"] == 3 for r in o["rooms"])
    )
    second = session_create(event, option)
    entry = Seat.objects.filter(round=play.round, table=play.table).first().entry
    standings.session_refresh(second)
    standings.session_refresh(session15)
    assert standings.session_place(entry, second) is None
    assert standings.session_place(entry, session15) is not None
    page = client.get(f"/p/{entry.key}/").content.decode()
    assert "по 0 сдачам" not in page and "Сессия 2: Место" not in page
    assert "Сессия 1: " in page
    assert "Сессия 2: места пока нет" in page
