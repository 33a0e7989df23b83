"""The movements API: plan options, choosing one, seating by round and by participant."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from events.models import Seat
from movements import engine
from movements.services import scheme_create
from tests.movements.conftest import add_players, option_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("en")]


@pytest.fixture
def api(director):
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(director)
    return client


@pytest.fixture
def other_api(other_director):
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(other_director)
    return client


def plan_url(event):
    return f"/api/v1/events/{event.pk}/plan/"


def sessions_url(event):
    return f"/api/v1/events/{event.pk}/sessions/"


def _seats(event):
    return sorted(
        Seat.objects.filter(round__room__session__event=event).values_list(
            "round_id", "participant", "entry_id", "table_id", "position"
        )
    )


@pytest.fixture
def seated(api, event):
    by_number = add_players(event, 20)
    response = api.post(sessions_url(event), {"option": 0}, format="json")
    assert response.status_code == 201, response.content
    return response.json(), by_number


def test_the_plan_lists_the_options_for_20_with_prime_5_by_4_first(api, event):
    add_players(event, 20)
    response = api.get(plan_url(event))
    assert response.status_code == 200
    doc = response.json()
    assert doc["participants"] == 20 and doc["nearest"] == [] and doc["next_session"] == 1
    first = doc["options"][0]
    assert first["index"] == 0
    assert [(r["kind"], r["tables"], r["seats"], r["rounds"]) for r in first["rooms"]] == [
        ("prime", 5, 4, 5)
    ]
    assert first["metrics"]["every_deal_compared"] is True
    assert first["metrics"]["pair_meetings"] == {"0": 40, "1": 150}


def test_the_plan_for_an_impossible_count_gives_the_nearest(api, event):
    add_players(event, 11)
    doc = api.get(plan_url(event)).json()
    assert doc["options"] == [] and doc["nearest"] == [9, 12]


def test_choosing_an_option_by_index_returns_the_session_and_seats_it(api, event, seated):
    body, by_number = seated
    assert body["number"] == 1 and body["participants"] == 20 and body["event"] == event.pk
    (room,) = body["rooms"]
    assert (room["kind"], room["tables"], room["seats"], room["rounds_planned"]) == (
        "prime",
        5,
        4,
        5,
    )
    want = engine.prime_schedule(5, 4).round(3).tables[1].seats["S"]
    seat = Seat.objects.get(round__number=3, table__number=2, position="S")
    assert (seat.participant, seat.entry) == (want, by_number[want])
    assert api.get(f"/api/v1/sessions/{body['id']}/").json()["number"] == 1
    assert [s["number"] for s in api.get(sessions_url(event)).json()] == [1]


def test_choosing_an_option_object_with_fewer_rounds(api, event):
    add_players(event, 15)
    option = option_for(15, kind="prime", seats=3)
    option["metrics"] = {"coverage": 1.0}  # figures from the caller are not trusted
    response = api.post(sessions_url(event), {"option": option, "rounds": 2}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["plan"]["rounds"] == 2 and body["plan"]["metrics"]["coverage"] < 1
    assert body["rooms"][0]["rounds_planned"] == 2


def test_a_second_session_must_be_asked_for(api, event, seated):
    before = _seats(event)
    response = api.post(sessions_url(event), {"option": 0}, format="json")
    assert response.status_code == 400
    assert "create session 2" in response.json()["another"][0]
    assert _seats(event) == before and event.sessions.count() == 1
    again = api.post(sessions_url(event), {"option": 0, "another": True}, format="json")
    assert again.status_code == 201 and again.json()["number"] == 2


@pytest.mark.parametrize(
    "payload, field, message",
    [
        ({"option": 99}, "option", "There is no option 99: choose 0–"),
        ({"option": -1}, "option", "There is no option -1"),
        ({"option": True}, "option", "Give an option's index or an option object"),
        ({"option": "abc"}, "option", "Give an option's index"),
        ({"option": [1]}, "option", "Give an option's index"),
        ({}, "option", "required"),
        ({"option": 0, "rounds": 6}, "rounds", "Choose 1–5 rounds for this option"),
        ({"option": 0, "rounds": 0}, "rounds", "greater than or equal to 1"),
        ({"option": 0, "rounds": "many"}, "rounds", "valid integer"),
        ({"option": {"rooms": []}}, "option", "The option has no rooms."),
        ({"option": {"rooms": "x"}}, "option", "An option is a list of 1–8 rooms."),
        ({"option": {"rooms": [1]}}, "option", "Room 1: a room must be an object"),
        ({"option": {"rooms": [{"kind": "magic"}]}}, "option", "unknown kind of movement"),
        (
            {"option": {"rooms": [{"kind": "prime", "tables": "five", "seats": 4}]}},
            "option",
            "give the kind and the tables and seats",
        ),
        (
            {"option": {"rooms": [{"kind": "prime", "tables": 10, "seats": 2}]}},
            "option",
            "Room 1: 2 seats",
        ),
        (
            {"option": {"rooms": [{"kind": "prime", "tables": 5, "seats": 3}]}},
            "non_field_errors",
            "This movement seats 15 participants but 20 players are playing.",
        ),
        (
            {"option": {"rooms": [{"kind": "prime", "tables": 10, "seats": 2}]}},
            "option",
            "Preference table seats 3 or 4",
        ),
        (
            {"option": {"rooms": [{"kind": "scheme", "participants": 20}]}},
            "option",
            "no special scheme for 20 participants",
        ),
        (
            {"option": {"rooms": [{"kind": "scheme", "scheme_id": 10**6, "participants": 20}]}},
            "option",
            "unknown movement scheme",
        ),
    ],
)
def test_bad_choices_are_a_400_naming_the_field_and_nothing_is_saved(
    api, event, payload, field, message
):
    add_players(event, 20)
    response = api.post(sessions_url(event), payload, format="json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert field in body, body
    assert message in " ".join(map(str, body[field])), body
    assert not event.sessions.exists() and not Seat.objects.exists()


def test_unnumbered_players_are_a_400(api, event):
    add_players(event, 20, draw=False)
    response = api.post(sessions_url(event), {"option": 0}, format="json")
    assert response.status_code == 400
    assert "numbered 1–20 without gaps" in response.json()["non_field_errors"][0]
    assert not event.sessions.exists()


def test_choosing_with_no_option_for_the_count_says_so(api, event):
    add_players(event, 11)
    response = api.post(sessions_url(event), {"option": 0}, format="json")
    assert response.status_code == 400
    assert "nearest: 9, 12" in response.json()["option"][0]


def test_another_directors_scheme_cannot_be_used(api, event, other_director):
    add_players(event, 8)
    theirs = scheme_create(
        other_director,
        name="Чужая",
        data={
            "groups": [{"route": ["1S", "1W", "2W", "1E", "2N", "2S", "2E"], "fixed": {"8": "1N"}}],
            "set_groups": [[1, 2]],
        },
    )
    option = {"rooms": [{"kind": "scheme", "scheme_id": theirs.pk, "participants": 8}]}
    response = api.post(sessions_url(event), {"option": option}, format="json")
    assert response.status_code == 400 and "unknown movement scheme" in response.json()["option"][0]
    assert not event.sessions.exists()


def test_the_seating_of_a_round(api, event, seated):
    body, by_number = seated
    response = api.get(f"/api/v1/sessions/{body['id']}/rounds/2/")
    assert response.status_code == 200
    doc = response.json()
    assert doc["round"] == 2 and doc["number"] == 1
    (room,) = doc["rooms"]
    tables = {t["table"]: t for t in room["tables"]}
    assert set(tables) == {1, 2, 3, 4, 5}
    plan = engine.prime_schedule(5, 4).round(2)
    for tp in plan.tables:
        got = tables[tp.table]
        assert got["set"] == str(tp.set)
        assert {p: s["participant"] for p, s in got["seats"].items()} == dict(tp.seats)
    one = tables[1]["seats"]["N"]
    assert one["name"] == by_number[1].full_name and one["entry"] == by_number[1].pk
    assert tables[3]["set_goes_to"] == [2] and tables[1]["set_goes_to"] == [5]
    last = api.get(f"/api/v1/sessions/{body['id']}/rounds/5/").json()
    assert all(t["set_goes_to"] == [] for t in last["rooms"][0]["tables"])
    assert api.get(f"/api/v1/sessions/{body['id']}/rounds/6/").status_code == 404


def test_the_seating_of_a_participant(api, event, seated):
    body, by_number = seated
    doc = api.get(f"/api/v1/sessions/{body['id']}/participants/7/").json()
    assert doc["participant"] == 7 and doc["names"] == [by_number[7].full_name]
    assert [(r["round"], r["table"], r["position"], r["set"]) for r in doc["rounds"]] == [
        (1, 2, "E", "2"),
        (2, 3, "E", "4"),
        (3, 4, "E", "1"),
        (4, 5, "E", "3"),
        (5, 1, "E", "5"),
    ]
    assert not any(r["pause"] for r in doc["rounds"])
    assert api.get(f"/api/v1/sessions/{body['id']}/participants/21/").status_code == 404


def test_a_pause_shows_in_the_participant_seating(api, event):
    add_players(event, 9)
    body = api.post(sessions_url(event), {"option": 0}, format="json").json()
    doc = api.get(f"/api/v1/sessions/{body['id']}/participants/1/").json()
    pauses = [r for r in doc["rounds"] if r["pause"]]
    assert len(pauses) == 1 and pauses[0]["table"] is None and pauses[0]["position"] is None


def test_another_director_gets_404_everywhere_and_changes_nothing(other_api, event, seated):
    body, _ = seated
    before = _seats(event)
    for url in [
        plan_url(event),
        sessions_url(event),
        f"/api/v1/sessions/{body['id']}/",
        f"/api/v1/sessions/{body['id']}/rounds/1/",
        f"/api/v1/sessions/{body['id']}/participants/1/",
    ]:
        assert other_api.get(url).status_code == 404, url
    response = other_api.post(sessions_url(event), {"option": 0, "another": True}, format="json")
    assert response.status_code == 404
    assert event.sessions.count() == 1 and _seats(event) == before


def test_an_anonymous_client_is_refused_and_changes_nothing(event, seated):
    body, _ = seated
    client = APIClient()
    for url in [
        plan_url(event),
        sessions_url(event),
        f"/api/v1/sessions/{body['id']}/rounds/1/",
        f"/api/v1/sessions/{body['id']}/participants/1/",
    ]:
        assert client.get(url).status_code in (401, 403), url
    response = client.post(sessions_url(event), {"option": 0, "another": True}, format="json")
    assert response.status_code in (401, 403)
    assert event.sessions.count() == 1


def test_token_auth_reads_the_plan_and_creates_a_session(director, event):
    add_players(event, 20)
    token = Token.objects.create(user=director)
    client = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(plan_url(event)).status_code == 200
    response = client.post(sessions_url(event), {"option": "0"})  # form-encoded
    assert response.status_code == 201, response.content
    assert event.sessions.get().created_by == director


@pytest.mark.parametrize(
    "payload",
    [
        "not json",
        {"option": {"rooms": [{"kind": "skip", "tables": 10**9, "seats": 4}]}},
        {"option": {"rooms": [{"kind": "scheme", "scheme_id": "x"}]}},
        {"option": {"rooms": [{"kind": "scheme", "participants": None}]}},
        {"option": {"rooms": [{"kind": "prime", "tables": None, "seats": None}]}},
        {"option": {"rooms": [{}] * 20}},
        {"option": 0, "another": "maybe"},
        {"option": 10**30},
    ],
)
def test_junk_is_a_400_never_a_500(api, event, payload):
    add_players(event, 20)
    if isinstance(payload, str):
        response = api.post(sessions_url(event), payload, content_type="application/json")
    else:
        response = api.post(sessions_url(event), payload, format="json")
    assert response.status_code == 400, response.content
    assert not event.sessions.exists()
