"""The round page's clock (issue 21, finding 4): ``/t/<round link>/clock.json`` is its own
round's room clock — keyed by the room, so the next session seated meanwhile changes
nothing on it — read from the cache like a player's; a table's key (the gate) and a wrong
key have none."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events import rounds
from events.models import Event, Round
from movements import planner
from movements.services import session_create
from tests.factories import play_of, round_link

pytestmark = pytest.mark.django_db


def test_the_round_page_polls_its_own_rooms_clock(client, running):
    doc = client.get(round_link(running, "clock.json")).json()
    (room,) = doc["rooms"]
    assert room["id"] == running.round.room_id
    assert room["round"] == 1 and room["state"] == "running"
    assert 0 < room["remaining_ms"] <= room["length_ms"]


def test_its_poll_reads_nothing_from_the_database_once_warm(client, running):
    url = round_link(running, "clock.json")
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    assert len(captured) == 0


def test_a_table_key_or_a_wrong_key_has_no_clock(client, running):
    assert client.get(f"/t/{running.table.key}/clock.json").status_code == 404
    assert client.get("/t/no-such-key/clock.json").status_code == 404


def test_the_next_session_seated_during_the_round_changes_nothing_on_it(client, event, running):
    url = round_link(running, "clock.json")
    before = client.get(url).json()["rooms"][0]
    # Session 2 for the same players, dealt by the app: its own room 1.
    session_create(
        Event.objects.get(pk=event.pk), planner.plan(15).as_dict()["options"][0], dealing="app"
    )
    after = client.get(url).json()["rooms"][0]
    assert (after["id"], after["session"], after["round"], after["state"]) == (
        before["id"],
        1,
        1,
        "running",
    )
    rounds.round_end_now(Round.objects.get(pk=running.round_id))
    ended = client.get(url).json()["rooms"][0]
    assert ended["id"] == before["id"] and ended["state"] == "finished"
    assert ended["announcement"]["kind"] == "end"


def test_a_later_rounds_link_shows_the_same_room(client, session15):
    rounds.round_start(Round.objects.get(room__session=session15, number=1))
    later = play_of(session15, 3, 1)
    (room,) = client.get(round_link(later, "clock.json")).json()["rooms"]
    assert room["round"] == 1 and room["id"] == later.round.room_id
