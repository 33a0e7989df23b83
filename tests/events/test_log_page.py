"""The «Журнал» page, its CSV and its API (issue 34): newest first, filtered by person, room,
kind and sheet; the file holds the page's rows; the API's items keep the issue's shape; the
director's pages write their actions with their author; nothing here writes the log."""

import csv
import io

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from events import rounds
from events import services as event_services
from events.models import ActionLog, Round
from events.views_log import PER_PAGE
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, play_of, seat_players, sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_rooms(event, director, django_user_model):
    """A session of two rooms, with lines by two people in each."""
    session = seat_players(event, 30)
    assert session.rooms.count() == 2
    # A second person who may direct the event (a superuser until the staff's roles reach
    # the sheets' services).
    helper = django_user_model.objects.create_superuser(username="helper", password="x-pass-1234")
    for number in (1, 2):
        rnd = Round.objects.get(room__session=session, room__number=number, number=1)
        rounds.round_start(rnd, by_user=director if number == 1 else helper)
    play = play_of(session, 1, 2, room_number=2)
    made = services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    services.sheet_record(
        play, deal_of(play, 1), sheet(declarer="E", contract="one"), by_user=helper
    )
    event_services.event_set_results_public(event, True, by_user=director)
    return session, made.sheet


def _page(client, event, **query):
    response = client.get(reverse("director:event_log", args=[event.pk]), query)
    assert response.status_code == 200
    return response


def _rows(response):
    return response.context["rows"]


def test_the_page_lists_every_line_newest_first_with_its_words(director_client, event, two_rooms):
    rows = _rows(_page(director_client, event))
    assert [r["line"].pk for r in rows] == sorted((r["line"].pk for r in rows), reverse=True)
    assert rows[0]["kind"] == "publish" and rows[0]["kind_name"] == "публикация"
    assert rows[0]["after"] == "результаты открыты: да"
    correction = next(r for r in rows if r["kind"] == "sheet.correct")
    assert (correction["login"], correction["room"], correction["table"]) == ("helper", 2, 2)
    assert "версия: 1" in correction["before"] and "версия: 2" in correction["after"]
    text = _page(director_client, event).content.decode()
    assert "Журнал" in text and "протокол исправлен" in text and "helper" in text


def test_the_filters_person_room_kind_and_sheet(director_client, event, two_rooms):
    _session, the_sheet = two_rooms
    rows = _rows(_page(director_client, event, login="helper"))
    assert {r["login"] for r in rows} == {"helper"}
    assert {r["kind"] for r in rows} == {"round.start", "sheet.correct"}
    rows = _rows(_page(director_client, event, room=2))
    assert {r["room"] for r in rows} == {2} and len(rows) == 3
    rows = _rows(_page(director_client, event, kind="round.start"))
    assert [(r["room"], r["login"]) for r in rows] == [(2, "helper"), (1, "judge")]
    rows = _rows(_page(director_client, event, sheet=the_sheet.pk))
    assert [r["kind"] for r in rows] == ["sheet.correct", "sheet.record"]
    rows = _rows(_page(director_client, event, sheet=the_sheet.pk, version=2))
    assert [r["kind"] for r in rows] == ["sheet.correct"]
    rows = _rows(_page(director_client, event, kind="no.such"))  # ignored, not an error
    assert len(rows) == ActionLog.objects.filter(event=event).count()
    response = director_client.get(reverse("director:event_log", args=[event.pk]), {"room": "x"})
    assert response.status_code == 400


def test_the_csv_holds_the_pages_rows(director_client, event, two_rooms):
    for query in ({}, {"room": "2"}, {"login": "judge", "kind": "round.start"}):
        rows = _rows(_page(director_client, event, **query))
        response = director_client.get(reverse("director:event_log_csv", args=[event.pk]), query)
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/csv")
        table = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
        assert table[0] == [
            "Когда",
            "Кто",
            "Действие",
            "Комната",
            "Стол",
            "Пояснение",
            "Было",
            "Стало",
        ]
        assert [
            [
                r["at"].strftime("%d.%m.%Y %H:%M:%S"),
                r["login"],
                str(r["kind_name"]),
                str(r["room"] or ""),
                str(r["table"] or ""),
                r["summary"],
                r["before"],
                r["after"],
            ]
            for r in rows
        ] == table[1:]


def test_the_page_is_paginated(director_client, event, director):
    # With the event's creation, its first line: PER_PAGE + 5 lines in all.
    for n in range(PER_PAGE + 4):
        event_services.event_set_results_public(event, n % 2 == 0, by_user=director)
    first = _page(director_client, event)
    assert len(_rows(first)) == PER_PAGE and first.context["page"].has_next()
    second = _page(director_client, event, page=2)
    assert len(_rows(second)) == 5
    assert _rows(second)[0]["line"].pk < _rows(first)[-1]["line"].pk


def test_another_directors_event_log_is_not_found(other_client, other_director, event, two_rooms):
    assert other_client.get(reverse("director:event_log", args=[event.pk])).status_code == 404
    assert other_client.get(reverse("director:event_log_csv", args=[event.pk])).status_code == 404
    api = APIClient()
    api.force_login(other_director)
    assert api.get(f"/api/v1/events/{event.pk}/log/").status_code == 404


def test_the_log_page_writes_nothing(director_client, event, two_rooms):
    count = ActionLog.objects.count()
    url = reverse("director:event_log", args=[event.pk])
    assert director_client.post(url, {"kind": "publish"}).status_code == 405
    assert ActionLog.objects.count() == count


def test_the_pages_link_to_the_log(director_client, event, two_rooms):
    _session, the_sheet = two_rooms
    url = reverse("director:event_log", args=[event.pk])
    assert url in director_client.get(event.get_absolute_url()).content.decode()
    text = director_client.get(reverse("director:sheet", args=[event.pk, the_sheet.pk])).content
    text = text.decode()
    assert f"{url}?sheet={the_sheet.pk}" in text
    assert f"{url}?sheet={the_sheet.pk}&amp;version=2" in text


def test_the_directors_pages_write_their_actions_with_their_author(
    director_client, event, session15
):
    rnd = Round.objects.get(room__session=session15, number=1)
    url = reverse("director:round_action", args=[event.pk, rnd.pk, "start"])
    assert director_client.post(url).status_code == 302
    line = ActionLog.objects.filter(event=event).first()
    assert (line.kind, line.login, line.room) == ("round.start", "judge", 1)


# --- the API --------------------------------------------------------------------------------


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_login(director)
    return client


def test_the_api_lists_the_log_newest_first_in_the_issues_shape(api, event, two_rooms):
    response = api.get(f"/api/v1/events/{event.pk}/log/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == ActionLog.objects.filter(event=event).count()
    first = body["results"][0]
    assert set(first) == {"at", "login", "kind", "room", "table", "summary", "before", "after"}
    assert (first["kind"], first["login"], first["after"]) == ("publish", "judge", {"public": True})
    correction = next(item for item in body["results"] if item["kind"] == "sheet.correct")
    assert (correction["room"], correction["table"], correction["login"]) == (2, 2, "helper")
    assert correction["before"]["version"] == 1 and correction["after"]["version"] == 2


def test_the_api_filters_and_pages(api, event, two_rooms):
    url = f"/api/v1/events/{event.pk}/log/"
    items = api.get(url, {"login": "helper"}).json()["results"]
    assert {i["login"] for i in items} == {"helper"} and len(items) == 2
    items = api.get(url, {"room": 2}).json()["results"]
    assert {i["room"] for i in items} == {2} and len(items) == 3
    items = api.get(url, {"kind": "round.start", "room": 1}).json()["results"]
    assert [(i["kind"], i["room"]) for i in items] == [("round.start", 1)]
    page = api.get(url, {"limit": 1, "offset": 1}).json()
    assert len(page["results"]) == 1 and page["next"] and page["previous"] is not None
    assert api.get(url, {"kind": "no.such"}).status_code == 400
    assert "kind" in api.get(url, {"kind": "no.such"}).json()
    assert api.get(url, {"room": "x"}).status_code == 400
    assert api.get(f"/api/v1/events/{event.pk + 1000}/log/").status_code == 404
    assert api.post(url, {}).status_code == 405


def test_the_api_asks_for_an_account(event):
    assert APIClient().get(f"/api/v1/events/{event.pk}/log/").status_code in (401, 403)


def test_a_sheets_line_reads_in_its_games_words_not_as_stored(client, director, two_rooms):
    """«Было → Стало» of a correction: the contract, the defence and the tricks as the sheet's
    pages say them, no English field names on a Russian page."""
    event = two_rooms[1].play.round.room.session.event
    client.force_login(director)
    page = client.get(reverse("director:event_log", args=[event.pk]), {"kind": "sheet.correct"})
    text = page.content.decode()
    assert "N: три ♦ · E вист · S пас · взятки: N 7 · E 3" in text
    for word in ("diamonds", "whist", "tricks", "declarer", "defenders"):
        assert word not in text.split('id="log"')[1], word
    answer = client.get(
        reverse("director:event_log_csv", args=[event.pk]), {"kind": "sheet.correct"}
    )
    assert "N: три ♦" in answer.content.decode("utf-8-sig")
