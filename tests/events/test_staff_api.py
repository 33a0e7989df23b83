"""The team in the API (issue 34): every operation on an event asks the role of the
account (session or token) for the operation's action (events.access.API_ACTIONS); the
staff endpoints /api/v1/events/{id}/staff/ exactly as the issue says. A refusal is a 403
``{"detail": …}`` in the request's language; an event not seen stays a 404."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from events import access
from events.models import EventStaff, Round
from tests.events.test_staff_door import ROLES

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(team_world):
    clients = {}
    for role, user in team_world["users"].items():
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        clients[role] = client
    return clients


def _ev(team_world, path=""):
    return f"/api/v1/events/{team_world['event'].pk}/{path}"


# --- The table covers every operation on an event -----------------------------------------


def _api_routes(patterns, prefix=""):
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _api_routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield pattern.name, route


def test_every_api_operation_on_an_event_is_in_the_table():
    routes = dict(_api_routes(get_resolver().url_patterns))
    on_event = {
        name
        for name, route in routes.items()
        if route.startswith("api/")
        and ("events/<int:event_pk>" in route or "events/(?P<pk>" in route or "sessions/" in route)
        and "format" not in route
    }
    assert len(on_event) > 30
    missing = sorted(on_event - set(access.API_ACTIONS))
    assert not missing, f"operations missing from events.access.API_ACTIONS: {missing}"


# --- The staff endpoints ------------------------------------------------------------------


def test_everyone_of_the_team_reads_it_owner_first(team_world, api):
    expected = [
        {"login": team_world["users"]["chief"].username, "role": "chief", "rooms": []},
        {"login": "deputy", "role": "director", "rooms": []},
        {"login": "roomie", "role": "room", "rooms": [2]},
        {"login": "scribe", "role": "secretary", "rooms": []},
    ]
    for role in ROLES[:-1]:
        answer = api[role].get(_ev(team_world, "staff/"))
        assert answer.status_code == 200 and answer.json() == expected, role
    assert api["stranger"].get(_ev(team_world, "staff/")).status_code == 404


def test_the_chief_adds_changes_and_removes(team_world, api):
    chief = api["chief"]
    answer = chief.post(
        _ev(team_world, "staff/"),
        {"login": "newbie", "role": "room", "rooms": [3, 1], "password": "Tr1cky-pass-77"},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json() == {"login": "newbie", "role": "room", "rooms": [1, 3]}
    assert get_user_model().objects.get(username="newbie").check_password("Tr1cky-pass-77")
    answer = chief.post(
        _ev(team_world, "staff/"), {"login": "newbie", "role": "secretary"}, format="json"
    )
    assert answer.status_code == 201 and answer.json()["role"] == "secretary"
    assert chief.delete(_ev(team_world, "staff/newbie/")).status_code == 204
    assert not EventStaff.objects.filter(user__username="newbie").exists()


def test_an_unknown_login_without_password_is_a_400_naming_login(team_world, api):
    answer = api["chief"].post(
        _ev(team_world, "staff/"), {"login": "nobody", "role": "director"}, format="json"
    )
    assert answer.status_code == 400 and "login" in answer.json()
    answer = api["chief"].post(
        _ev(team_world, "staff/"),
        {"login": "nobody", "role": "director"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "No account has the login «nobody»" in answer.json()["login"][0]


def test_removing_one_not_on_the_team_or_the_owner_is_a_400(team_world, api):
    assert api["chief"].delete(_ev(team_world, "staff/nobody/")).status_code == 400
    owner = team_world["users"]["chief"].username
    assert api["chief"].delete(_ev(team_world, f"staff/{owner}/")).status_code == 400


@pytest.mark.parametrize("role", ["director", "room", "secretary"])
def test_only_the_chief_changes_the_team_in_the_requests_language(team_world, api, role):
    client = api[role]
    answer = client.post(
        _ev(team_world, "staff/"), {"login": "scribe", "role": "director"}, format="json"
    )
    assert answer.status_code == 403
    assert "судейской бригадой" in answer.json()["detail"]
    answer = client.delete(_ev(team_world, "staff/deputy/"), HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 403
    assert "does not allow you to manage the event's staff" in answer.json()["detail"]
    assert EventStaff.objects.filter(user__username="deputy").exists()


def test_a_stranger_gets_404_on_the_team(team_world, api):
    assert api["stranger"].post(_ev(team_world, "staff/"), {}, format="json").status_code == 404
    assert api["stranger"].delete(_ev(team_world, "staff/deputy/")).status_code == 404


def test_removing_a_member_ends_his_token_at_once(team_world, api):
    assert api["director"].get(_ev(team_world)).status_code == 200
    assert api["chief"].delete(_ev(team_world, "staff/deputy/")).status_code == 204
    assert api["director"].get(_ev(team_world)).status_code == 404
    assert api["director"].get(_ev(team_world, "staff/")).status_code == 404


def test_a_session_of_the_browser_works_too(team_world):
    client = APIClient()
    client.force_login(team_world["users"]["secretary"])
    assert client.get(_ev(team_world, "staff/")).status_code == 200
    assert client.post(_ev(team_world, "results-public/"), {"public": True}).status_code == 403


# --- Each action in the API ---------------------------------------------------------------


def test_everyone_of_the_team_reads_the_event_a_stranger_gets_404(team_world, api):
    for path in ("", "entries/", "rounds/", "rooms/", "plays/", "sheets/", "adjustments/", "plan/"):
        for role in ROLES[:-1]:
            assert api[role].get(_ev(team_world, path)).status_code == 200, (role, path)
        assert api["stranger"].get(_ev(team_world, path)).status_code == 404, path
    session = f"/api/v1/sessions/{team_world['session'].pk}/"
    assert api["secretary"].get(session).status_code == 200
    assert api["stranger"].get(session).status_code == 404


@pytest.mark.parametrize(
    "method,path,body,words",
    [
        ("patch", "", {"venue": "Клуб"}, "менять настройки турнира"),
        ("post", "entries/", {"last_name": "Новиков", "first_name": "Иван"}, "список игроков"),
        ("post", "draws/", {}, "список игроков"),
        ("post", "results-public/", {"public": True}, "публиковать результаты"),
        ("post", "sessions/", {}, "рассаживать игроков"),
        ("post", "sessions/1/rounds/start/", {}, None),
    ],
)
@pytest.mark.parametrize("role", ["room", "secretary"])
def test_a_room_director_and_a_secretary_are_refused_what_is_not_theirs(
    team_world,
    api,
    role,
    method,
    path,
    body,
    words,
):
    answer = getattr(api[role], method)(_ev(team_world, path), body, format="json")
    assert answer.status_code == 403, (answer.status_code, answer.content)
    if words:
        assert words in answer.json()["detail"]


@pytest.mark.parametrize("role", ["chief", "director"])
def test_the_chief_and_a_director_may_everything_of_the_event(team_world, api, role):
    client = api[role]
    assert client.patch(_ev(team_world), {"venue": "Клуб"}, format="json").status_code == 200
    assert (
        client.post(
            _ev(team_world, "results-public/"), {"public": False}, format="json"
        ).status_code
        == 200
    )
    answer = client.post(
        _ev(team_world, f"rounds/{team_world['round'][1].pk}/start/"), {}, format="json"
    )
    assert answer.status_code == 200
    assert client.get(_ev(team_world, "staff/")).status_code == 200


def test_a_room_director_runs_only_his_rooms_clock_over_the_api(team_world, api):
    roomie = api["room"]
    answer = roomie.post(
        _ev(team_world, f"rounds/{team_world['round'][2].pk}/start/"), {}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    answer = roomie.post(
        _ev(team_world, f"rounds/{team_world['round'][1].pk}/start/"),
        {},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 403
    assert "room 1 is not among them" in answer.json()["detail"]
    assert Round.objects.get(pk=team_world["round"][1].pk).state != "running"


def test_a_secretary_has_no_clock_and_no_adjustments_over_the_api(team_world, api):
    scribe = api["secretary"]
    answer = scribe.post(
        _ev(team_world, f"rounds/{team_world['round'][2].pk}/pause/"), {}, format="json"
    )
    assert answer.status_code == 403 and "управлять часами тура" in answer.json()["detail"]
    adjustment = team_world["adjustment"][2].pk
    answer = scribe.delete(_ev(team_world, f"adjustments/{adjustment}/"))
    assert answer.status_code == 403 and "корректировки" in answer.json()["detail"]


def test_a_room_director_is_refused_adjustments_of_another_room_over_the_api(team_world, api):
    answer = api["room"].delete(_ev(team_world, f"adjustments/{team_world['adjustment'][1].pk}/"))
    assert answer.status_code == 403 and "комнаты 1" in answer.json()["detail"]
    play = team_world["play"][1].pk
    answer = api["room"].post(
        _ev(team_world, "adjustments/"),
        {"play": play, "entry": 1, "kind": "penalty", "penalty": "1", "reason": "x"},
        format="json",
    )
    assert answer.status_code == 403 and "комнаты 1" in answer.json()["detail"]
