"""The round clock in the API: start, pause, change the time, resume, end — the same services
and the same rule of who may as the room's page; every refusal a 400 naming the rule."""

import pytest
from rest_framework.test import APIClient

from events.models import Announcement, Round

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("en")]


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def _url(event, rnd=None, verb=""):
    base = f"/api/v1/events/{event.pk}/rounds/"
    if rnd is None:
        return base
    return f"{base}{rnd.pk}/{verb + '/' if verb else ''}"


def test_the_director_runs_the_clock_through_the_api(api, session15):
    event = session15.event
    listed = api.get(_url(event))
    assert listed.status_code == 200
    assert [r["number"] for r in listed.json()] == [1, 2, 3, 4, 5]
    first = Round.objects.get(room__session=session15, number=1)
    started = api.post(_url(event, first, "start"), {"minutes": 10}, format="json")
    assert started.status_code == 200, started.content
    body = started.json()
    assert body["state"] == "running" and 595 <= body["remaining_seconds"] <= 600
    assert body["timers_set"] is True
    paused = api.post(_url(event, first, "pause")).json()
    assert paused["state"] == "paused"
    adjusted = api.post(_url(event, first, "adjust"), {"minutes": 5}, format="json").json()
    assert 895 <= adjusted["remaining_seconds"] <= 900
    assert api.post(_url(event, first, "resume")).json()["state"] == "running"
    ended = api.post(_url(event, first, "end")).json()
    assert ended["state"] == "finished" and ended["remaining_seconds"] == 0
    assert Announcement.objects.filter(round=first, kind="end").count() == 1
    assert api.get(_url(event, first)).json()["state"] == "finished"


def test_refusals_are_400_naming_the_rule(api, session15):
    event = session15.event
    first, second = Round.objects.filter(room__session=session15).order_by("number")[:2]
    refused = api.post(_url(event, second, "start"))
    assert refused.status_code == 400
    # In the user's language (Russian first), naming the rule.
    assert "Предыдущие туры этой комнаты ещё не сыграны." in str(refused.json())
    assert api.post(_url(event, first, "end")).status_code == 400  # not on the clock
    api.post(_url(event, first, "start"))
    for bad in ({"minutes": 0}, {"minutes": "²"}, {"minutes": 100000}, {}):
        answer = api.post(_url(event, first, "adjust"), bad, format="json")
        assert answer.status_code == 400 and "minutes" in answer.json(), bad
    again = api.post(_url(event, first, "start"))
    assert again.status_code == 400 and "уже начат" in str(again.json())
    assert api.post(_url(event, first, "start"), {"minutes": -3}, format="json").status_code == 400


def test_only_the_events_director_may(session15, other_director, client):
    event = session15.event
    first = Round.objects.get(room__session=session15, number=1)
    other = APIClient()
    other.force_authenticate(other_director)
    assert other.get(_url(event)).status_code == 404
    assert other.post(_url(event, first, "start")).status_code == 404
    assert APIClient().post(_url(event, first, "start")).status_code in (401, 403)
    first.refresh_from_db()
    assert first.state == "pending"
