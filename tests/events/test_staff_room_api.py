"""A room director's adjustments over the API (issue 34): the room is found from the body —
``play``, or ``round`` (and ``table``) for a whole table — and one not his is refused; a
request that names no room is refused to him with a 403 saying so, never let through."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import Adjustment
from tests.factories import entry_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def roomie(team_world):
    client = APIClient()
    user = team_world["users"]["room"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def _url(team_world, path):
    return f"/api/v1/events/{team_world['event'].pk}/adjustments/{path}"


def test_whole_table_scores_in_another_room_are_refused_by_play_and_by_round(team_world, roomie):
    play = team_world["play"][1]
    for named in ({"play": play.pk}, {"round": play.round_id, "table": play.table.number}):
        answer = roomie.post(
            _url(team_world, "table/"), named | {"score": "A", "reason": "x"}, format="json"
        )
        assert answer.status_code == 403, named
        assert "комнаты 1" in answer.json()["detail"]
    assert not Adjustment.objects.filter(play=play, kind="artificial").exists()


def test_whole_table_scores_in_his_room_pass_by_play_and_by_round(team_world, roomie):
    play = team_world["play"][2]
    answer = roomie.post(
        _url(team_world, "table/"),
        {"round": play.round_id, "table": play.table.number, "score": "A", "reason": "x"},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["play"] == play.pk
    other = team_world["play"][2].round.plays.exclude(pk=play.pk).order_by("table__number").first()
    answer = roomie.post(
        _url(team_world, "table/"), {"play": other.pk, "score": "A+", "reason": "x"}, format="json"
    )
    assert answer.status_code == 201, answer.json()


@pytest.mark.parametrize("path", ["", "table/"])
def test_a_request_naming_no_room_is_refused_to_a_room_director(team_world, roomie, path):
    for body in ({"score": "A", "reason": "x"}, {"play": "abc", "score": "A", "reason": "x"}):
        answer = roomie.post(_url(team_world, path), body, format="json", HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 403
        assert "say which room" in answer.json()["detail"]
    # The chief is not asked for a room: his request is only incomplete (400).
    chief = APIClient()
    chief.force_authenticate(team_world["users"]["chief"])
    assert chief.post(_url(team_world, path), {"score": "A"}, format="json").status_code == 400


def _penalty(client, team_world, play):
    """A penalty of 1 for N of ``play``, over the API."""
    return client.post(
        _url(team_world, ""),
        {
            "play": play.pk,
            "entry": entry_at(play, "N").pk,
            "kind": "penalty",
            "penalty": "1",
            "reason": "x",
        },
        format="json",
    )


def test_a_single_adjustment_and_a_deletion_in_another_room_are_refused(team_world, roomie):
    play = team_world["play"][1]
    answer = _penalty(roomie, team_world, play)
    assert answer.status_code == 403 and "комнаты 1" in answer.json()["detail"]
    answer = roomie.delete(_url(team_world, f"{team_world['adjustment'][1].pk}/"))
    assert answer.status_code == 403
    assert Adjustment.objects.filter(pk=team_world["adjustment"][1].pk).exists()
    mine = team_world["play"][2]
    answer = _penalty(roomie, team_world, mine)
    assert answer.status_code == 201, answer.json()
