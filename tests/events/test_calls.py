"""«Позвать судью» (issue 34): a table calls the director from its phone or a player's own
page, the room's console shows it and a director of the room answers «Иду», then
«Решено» (events.calls, scoring.console.calls, scoring.sheets.table_calls,
scoring.player.calls, events.api_calls)."""

import threading

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events import actionlog, calls
from events.models import ActionLog, Round, TableCall
from tests.console_board import board_doc
from tests.factories import entry_at, play_of, round_link, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(staffed):
    """``staffed`` with the first round of each room on the clock and its first table-round."""
    session, rooms = staffed["session"], staffed["rooms"]
    for n in (1, 2):
        start(Round.objects.get(room=rooms[n], number=1))
    return {**staffed, "play": {n: play_of(session, 1, 1, room_number=n) for n in (1, 2)}}


# --- the service --------------------------------------------------------------------------


def test_a_call_is_one_per_table_and_logged_without_an_author(session15):
    play = play_of(session15, 1, 2)
    start(play.round)
    north = entry_at(play, "N")
    call = calls.call_open(play.table, reason="dispute", position="N", entry=north)
    assert call.created and call.state == "open" and call.round_id == play.round_id
    again = calls.call_open(play.table, reason="box", position="E")
    assert not again.created and again.pk == call.pk and again.reason == "dispute"
    assert TableCall.objects.filter(table=play.table).count() == 1
    line = ActionLog.objects.get(kind="call.open")
    assert line.user is None and line.login == "" and (line.room, line.table) == (1, 2)
    assert line.after == {
        "reason": "dispute",
        "seat": "N",
        "state": "open",
        "round": 1,
        "player": north.full_name,
    }
    # Another table calls on its own.
    other = calls.call_open(play_of(session15, 1, 3).table, reason="other")
    assert other.created and other.pk != call.pk


def test_the_same_client_id_is_the_same_call_even_once_resolved(session15, director):
    play = play_of(session15, 1, 1)
    start(play.round)
    call = calls.call_open(play.table, reason="sheet", client_id="abc123")
    calls.call_close(call, by=director)
    again = calls.call_open(play.table, reason="sheet", client_id="abc123")
    assert not again.created and again.pk == call.pk and again.state == "closed"
    fresh = calls.call_open(play.table, reason="sheet", client_id="def456")
    assert fresh.created and fresh.pk != call.pk
    assert ActionLog.objects.filter(kind="call.open").count() == 2


def test_an_unknown_reason_or_seat_is_refused_naming_its_field(session15):
    play = play_of(session15, 1, 1)
    start(play.round)
    with pytest.raises(ValidationError) as refused:
        calls.call_open(play.table, reason="boredom")
    assert "reason" in refused.value.message_dict
    assert "Выберите, зачем вы зовёте судью" in refused.value.message_dict["reason"][0]
    with pytest.raises(ValidationError) as refused:
        calls.call_open(play.table, reason="dispute", position="W")  # three seats: N E S
    assert "position" in refused.value.message_dict
    assert "Места «W» сейчас нет за столом 1" in refused.value.message_dict["position"][0]
    elsewhere = entry_at(play_of(session15, 1, 2), "N")
    with pytest.raises(ValidationError):
        calls.call_open(play.table, reason="dispute", position="N", entry=elsewhere)
    assert not TableCall.objects.exists() and not ActionLog.objects.filter(kind="call.open")


@pytest.mark.django_db(transaction=True)
def test_phones_calling_at_the_same_instant_make_one_call(session15):
    if connection.vendor != "postgresql":
        pytest.skip("threads writing at once: PostgreSQL (SQLite locks the whole file)")
    play = play_of(session15, 1, 4)
    start(play.round)
    table = play.table
    barrier = threading.Barrier(6)
    made, errors = [], []

    def press(i):
        try:
            barrier.wait()
            made.append(calls.call_open(table, reason="dispute", client_id=f"phone{i}"))
        except Exception as error:  # noqa: BLE001 - the test reports any
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=press, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len({c.pk for c in made}) == 1 and sum(c.created for c in made) == 1
    assert TableCall.objects.filter(table=table).count() == 1
    assert ActionLog.objects.filter(kind="call.open").count() == 1


def test_directors_answer_in_their_rooms_only(world):
    users, plays = world["users"], world["play"]
    one = calls.call_open(plays[1].table, reason="dispute")
    two = calls.call_open(plays[2].table, reason="box", position="N")
    # The room director of room 2 answers room 2's call, not room 1's.
    with pytest.raises(PermissionDenied):
        calls.call_going(one, by=users["room"])
    with pytest.raises(PermissionDenied):
        calls.call_going(two, by=users["secretary"])
    going = calls.call_going(two, by=users["room"])
    assert going.state == "going" and going.going_by == users["room"]
    assert calls.call_going(two, by=users["chief"]).going_by == users["room"]  # no-op
    closed = calls.call_close(two, by=users["room"])
    assert closed.state == "closed" and closed.closed_by == users["room"]
    assert calls.call_close(two, by=users["director"]).closed_by == users["room"]  # no-op
    with pytest.raises(ValidationError) as refused:
        calls.call_going(two, by=users["chief"])
    assert "state" in refused.value.message_dict
    lines = list(ActionLog.objects.filter(kind__startswith="call.").order_by("id"))
    assert [(ln.kind, ln.login, ln.room, ln.table) for ln in lines] == [
        ("call.open", "", 1, 1),
        ("call.open", "", 2, 1),
        ("call.going", "roomie", 2, 1),
        ("call.close", "roomie", 2, 1),
    ]
    assert lines[2].before["state"] == "open" and lines[2].after["state"] == "going"
    assert lines[3].after == {"reason": "box", "seat": "N", "state": "closed", "round": 1}
    # The «Журнал» reads them in the reader's language.
    row = actionlog.line_row(lines[2])
    assert row["kind_name"] == "судья идёт"
    # (jsonb keeps its keys in an order of its own: compared as a set)
    assert set(row["before"].split("; ")) == {
        "причина: Коробка",
        "место: N",
        "состояние: ждёт",
        "тур: 1",
    }
    assert "состояние: судья идёт" in row["after"].split("; ")
    assert calls.open_calls(world["rooms"][1]) == [one]
    assert calls.open_calls(world["rooms"][2]) == []


# --- the table's page ---------------------------------------------------------------------


def test_the_table_calls_from_its_round_page_and_sees_the_director_coming(
    client, session15, director
):
    play = play_of(session15, 1, 2)
    start(play.round)
    page = client.get(round_link(play)).content.decode()
    assert "Позвать судью" in page and 'data-call-state=""' in page
    assert "Спор" in page and "Ошибка в протоколе" in page and "Коробка" in page
    sent = client.post(round_link(play, "call/"), {"reason": "sheet", "as": "E", "client_id": "x1"})
    assert sent.status_code == 302 and sent["Location"] == round_link(play)
    call = TableCall.objects.get()
    assert (call.reason, call.position, call.entry, call.client_id) == ("sheet", "E", None, "x1")
    page = client.get(round_link(play)).content.decode()
    assert "Судья вызван." in page and "Судья вызван (ошибка в протоколе)" in page
    assert 'data-call-state="open"' in page
    doc = client.get(round_link(play, "call.json")).json()
    assert doc["state"] == "open" and doc["reason_name"] == "ошибка в протоколе"
    # The outbox sends it again (a lost answer): the same call, said so.
    again = client.post(round_link(play, "call/"), {"reason": "sheet", "client_id": "x2"})
    assert again.status_code == 302 and TableCall.objects.count() == 1
    assert "Судья уже вызван." in client.get(round_link(play)).content.decode()
    calls.call_going(call, by=director)
    assert client.get(round_link(play, "call.json")).json()["state"] == "going"
    assert "Судья идёт" in client.get(round_link(play)).content.decode()
    calls.call_close(call, by=director)
    assert client.get(round_link(play, "call.json")).json()["state"] == ""
    assert 'data-call-state=""' in client.get(round_link(play)).content.decode()


def test_a_player_from_his_own_link_calls_as_his_seat_and_a_bad_form_is_a_400(client, session15):
    play = play_of(session15, 1, 1)
    start(play.round)
    south = entry_at(play, "S")
    page = client.get(round_link(play) + f"?me={south.key}").content.decode()
    assert "Вы зовёте судью как S" in page
    bad = client.post(round_link(play, "call/"), {"reason": "lunch", "me": south.key})
    assert bad.status_code == 400 and "Выберите, зачем вы зовёте судью" in bad.content.decode()
    assert not TableCall.objects.exists()
    sent = client.post(round_link(play, "call/"), {"reason": "box", "as": "N", "me": south.key})
    assert sent.status_code == 302 and sent["Location"] == round_link(play) + f"?me={south.key}"
    call = TableCall.objects.get()
    assert (call.position, call.entry) == ("S", south)  # his link proves him, not the form


def test_the_call_poll_costs_no_query_once_built(client, session15):
    play = play_of(session15, 1, 3)
    start(play.round)
    calls.call_open(play.table, reason="dispute")
    client.get(round_link(play, "call.json"))
    with CaptureQueriesContext(connection) as queries:
        doc = client.get(round_link(play, "call.json")).json()
    assert doc["state"] == "open" and len(queries) == 0


# --- the player's page --------------------------------------------------------------------


def test_a_seated_player_calls_from_his_own_page(client, session15, director):
    play = play_of(session15, 1, 3)
    home = reverse("player:home", args=[entry_at(play, "E").key])
    assert "Позвать судью" not in client.get(home).content.decode()  # no round started
    east = entry_at(play, "E")
    early = client.post(reverse("player:call", args=[east.key]), {"reason": "dispute"}, follow=True)
    assert "Сейчас вы не сидите за столом" in early.content.decode()
    assert not TableCall.objects.exists()
    start(play.round)
    page = client.get(home).content.decode()
    assert "Позвать судью" in page and "Вы зовёте судью как E" in page
    assert round_link(play, "call.json") in page
    sent = client.post(reverse("player:call", args=[east.key]), {"reason": "dispute"})
    assert sent.status_code == 302 and sent["Location"] == home
    call = TableCall.objects.get()
    assert (call.table_id, call.position, call.entry) == (play.table_id, "E", east)
    assert ActionLog.objects.get(kind="call.open").after["player"] == east.full_name
    page = client.get(home).content.decode()
    assert "Судья вызван (спор)" in page
    bad = client.post(reverse("player:call", args=[east.key]), {"reason": ""})
    assert bad.status_code == 400  # the reason refused; the call already open is kept
    assert TableCall.objects.count() == 1


# --- the console --------------------------------------------------------------------------


def _console(world, role, n):
    url = reverse("director:room_console", args=[world["event"].pk, world["rooms"][n].pk])
    return world["clients"][role].get(url)


def _room_page(world, role, n):
    url = reverse("director:room_detail", args=[world["event"].pk, world["rooms"][n].pk])
    return world["clients"][role].get(url).content.decode()


def test_the_console_shows_the_calls_live_with_buttons_for_who_may_answer(world):
    before = board_doc(_console(world, "chief", 2))["version"]
    call = calls.call_open(world["play"][2].table, reason="dispute", position="W")
    board = _console(world, "chief", 2)
    assert board["X-Console-Version"] != before
    html = board.content.decode()
    assert f'data-call-id="{call.pk}"' in html and "Стол 1" in html and "место W" in html
    assert ": спор" in html and ">Иду<" in html and ">Решено<" in html
    assert "csrfmiddlewaretoken" not in html  # one copy for every director: console.js adds it
    for role in ("room", "director"):
        assert ">Иду<" in _console(world, role, 2).content.decode(), role
    secretary = _console(world, "secretary", 2).content.decode()
    assert f'data-call-id="{call.pk}"' in secretary and ">Иду<" not in secretary
    # Room 1's console: not this call. The room director sees it there, without buttons.
    assert f'data-call-id="{call.pk}"' not in _console(world, "room", 1).content.decode()
    page = _room_page(world, "chief", 2)
    assert f'data-call-id="{call.pk}"' in page and "csrfmiddlewaretoken" in page
    # «Иду» and «Решено» by the buttons (POST, CSRF): going shows, resolved goes.
    going = reverse("director:call_going", args=[world["event"].pk, call.pk])
    close = reverse("director:call_close", args=[world["event"].pk, call.pk])
    answer = world["clients"]["room"].post(going)
    assert answer.status_code == 302
    assert (
        answer["Location"]
        == reverse("director:room_detail", args=[world["event"].pk, world["rooms"][2].pk])
        + "#calls"
    )
    html = _console(world, "chief", 2).content.decode()
    assert "Судья идёт (roomie)" in html and ">Иду<" not in html
    assert world["clients"]["chief"].post(close).status_code == 302
    assert f'data-call-id="{call.pk}"' not in _console(world, "chief", 2).content.decode()
    assert TableCall.objects.get().state == "closed"


def test_the_buttons_refuse_who_may_not_answer_in_that_room(world):
    one = calls.call_open(world["play"][1].table, reason="other")
    two = calls.call_open(world["play"][2].table, reason="other")
    url = lambda name, call: reverse(f"director:{name}", args=[world["event"].pk, call.pk])  # noqa: E731
    roomie = world["clients"]["room"]
    refused = roomie.post(url("call_going", one))
    assert refused.status_code == 403 and "1" in refused.content.decode()
    assert world["clients"]["secretary"].post(url("call_close", two)).status_code == 403
    assert world["clients"]["stranger"].post(url("call_close", two)).status_code == 404
    assert roomie.get(url("call_going", two)).status_code == 405
    answered = roomie.post(url("call_going", two))
    assert answered.status_code == 302
    room_page = reverse("director:room_detail", args=[world["event"].pk, world["rooms"][2].pk])
    assert answered["Location"] == room_page + "#calls"  # back to the calls, not the clock
    assert TableCall.objects.get(pk=one.pk).state == "open"
    assert TableCall.objects.get(pk=two.pk).state == "going"


def test_the_consoles_queries_do_not_grow_with_the_calls(world):
    def queries():
        board_doc(_console(world, "room", 2))  # built and kept: read it fresh each time
        from events import clockdoc

        clockdoc.room_changed(world["rooms"][2].pk, clock=False)
        with CaptureQueriesContext(connection) as captured:
            board_doc(_console(world, "room", 2))
        return len(captured)

    calls.call_open(world["play"][2].table, reason="dispute")
    one = queries()
    second = play_of(world["session"], 1, 2, room_number=2)
    calls.call_open(second.table, reason="box", position="N")
    assert queries() == one


# --- the API ------------------------------------------------------------------------------


def _api(world, role):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(world["users"][role])
    return client


def test_the_api_lists_and_answers_calls(world):
    event = world["event"]
    one = calls.call_open(world["play"][1].table, reason="dispute", position="N")
    two = calls.call_open(world["play"][2].table, reason="box")
    base = f"/api/v1/events/{event.pk}/calls/"
    listed = _api(world, "secretary").get(base)
    assert listed.status_code == 200
    assert [c["id"] for c in listed.data["results"]] == [one.pk, two.pk]
    first = listed.data["results"][0]
    assert (first["room"], first["table"], first["seat"], first["state"]) == (1, 1, "N", "open")
    only = _api(world, "chief").get(base, {"room": 2}).data["results"]
    assert [c["id"] for c in only] == [two.pk]
    assert _api(world, "chief").get(base, {"state": "nonsense"}).status_code == 400
    # A room director answers his room's call and is refused the other room's.
    roomie = _api(world, "room")
    assert roomie.post(f"{base}{one.pk}/going/").status_code == 403
    going = roomie.post(f"{base}{two.pk}/going/")
    assert going.status_code == 200 and going.data["going_by"] == "roomie"
    assert _api(world, "secretary").post(f"{base}{two.pk}/close/").status_code == 403
    closed = roomie.post(f"{base}{two.pk}/close/")
    assert closed.status_code == 200 and closed.data["state"] == "closed"
    assert roomie.post(f"{base}{two.pk}/close/").status_code == 200  # a no-op
    late = roomie.post(f"{base}{two.pk}/going/")
    assert late.status_code == 400 and "state" in late.data
    assert _api(world, "chief").post(f"{base}987654/close/").status_code == 404
    states = _api(world, "chief").get(base, {"state": "closed"}).data["results"]
    assert [c["id"] for c in states] == [two.pk]
