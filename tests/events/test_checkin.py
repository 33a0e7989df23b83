"""The players' check-in (issue 34): which check-in is asked, the player's own «Я на месте»
(his page, the table's gate with his PIN), the director's marks by hand on the room page
and over the API — each with its log line and the role's door — and a substitute seated
from a missing player's row in one step."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events import checkin
from events import services as event_services
from events.models import ActionLog, CheckIn, Entry, Room, Round, Seat, Substitution
from tests.factories import finish, seat_players, start

pytestmark = pytest.mark.django_db


def _room(session, number=1) -> Room:
    return Room.objects.select_related("session__event").get(session=session, number=number)


def _seat(session, round_number=1, table=1, position="N", room=1) -> Seat:
    return Seat.objects.select_related("entry", "table").get(
        round__room__session=session,
        round__room__number=room,
        round__number=round_number,
        table__number=table,
        position=position,
    )


def _round(session, number, room=1) -> Round:
    return Round.objects.get(room__session=session, room__number=room, number=number)


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- which check-in is asked ----------------------------------------------------------------


def test_before_the_session_until_its_first_round_starts(session15):
    room = _room(session15)
    assert checkin.room_asked_round(room) == 0
    start(_round(session15, 1))
    assert checkin.room_asked_round(room) is None
    finish(_round(session15, 1))
    assert checkin.room_asked_round(room) is None  # once per session


def test_before_each_round_the_next_one_not_started_while_none_is_on_the_clock(session15, director):
    checkin.session_set_checkin_each_round(session15, True, by=director)
    room = _room(session15)
    assert checkin.room_asked_round(room) == 1
    start(_round(session15, 1))
    assert checkin.room_asked_round(room) is None
    finish(_round(session15, 1))
    assert checkin.room_asked_round(room) == 2
    line = ActionLog.objects.filter(kind="checkin").get()
    assert line.before == {"session": 1, "each_round": False}
    assert line.after == {"session": 1, "each_round": True}
    # Set again: nothing changes, no second line.
    assert not checkin.session_set_checkin_each_round(session15, True, by=director)
    assert ActionLog.objects.filter(kind="checkin").count() == 1


# --- the service ------------------------------------------------------------------------------


def test_a_player_checks_in_once_whatever_the_taps(session15):
    seat = _seat(session15)
    first = checkin.checkin_mark(session15, seat.entry, round=0)
    again = checkin.checkin_mark(session15, seat.entry, round=0)
    assert first.pk == again.pk and first.by is None
    assert CheckIn.objects.count() == 1
    line = ActionLog.objects.get(kind="checkin")
    assert line.user is None and line.login == ""
    assert line.room == 1 and line.table == 1
    assert line.after["player"] == seat.entry.number
    assert line.after["name"] == seat.entry.full_name
    assert line.after["by_hand"] is False


def test_a_player_of_no_seat_is_refused_clearly(session15):
    reserve = event_services.entry_create(session15.event, last_name="Запасной", first_name="Иван")
    with pytest.raises(ValidationError) as refused:
        checkin.checkin_mark(session15, reserve, round=0)
    assert "Запасной Иван" in str(refused.value.message_dict["entry"])
    assert not CheckIn.objects.exists()


def test_the_player_himself_only_for_the_check_in_open_now(session15, director):
    seat = _seat(session15)
    with pytest.raises(ValidationError) as refused:
        checkin.checkin_mark(session15, seat.entry, round=2)
    assert "round" in refused.value.message_dict
    start(_round(session15, 1))
    with pytest.raises(ValidationError):
        checkin.checkin_mark(session15, seat.entry, round=0)
    # The director still marks him by hand, the session begun.
    row = checkin.checkin_mark(session15, seat.entry, round=0, by=director)
    assert row.by == director
    with pytest.raises(ValidationError):
        checkin.checkin_mark(session15, seat.entry, round=99, by=director)


def test_the_director_takes_a_mistaken_mark_back(session15, director):
    seat = _seat(session15)
    checkin.checkin_mark(session15, seat.entry, round=0, by=director)
    assert checkin.checkin_unmark(session15, seat.entry, round=0, by=director)
    assert not CheckIn.objects.exists()
    assert not checkin.checkin_unmark(session15, seat.entry, round=0, by=director)
    lines = list(ActionLog.objects.filter(kind="checkin").order_by("pk"))
    assert [bool(line.after) for line in lines] == [True, False]
    assert lines[1].before["player"] == seat.entry.number and lines[1].login == director.username


def test_a_check_in_bumps_the_rooms_console_and_the_players_phone(session15):
    from events import clockdoc

    room = _room(session15)
    seat = _seat(session15)
    keys = [clockdoc.console_key(room.pk), clockdoc.entry_key(seat.entry.pk)]
    before = clockdoc.tokens(keys)
    checkin.checkin_mark(session15, seat.entry, round=0)
    after = clockdoc.tokens(keys)
    assert all(before[k] != after[k] for k in keys)


def test_the_room_reader_reads_three_queries_whatever_the_room(event, other_director, director):
    small = seat_players(event, 15)
    big_event = event_services.event_create(owner=other_director, name="Б", date="2026-12-07")
    big = seat_players(big_event, 33)
    counts = []
    for session in (small, big):
        room = _room(session)
        for position in "NE":
            checkin.checkin_mark(session, _seat(session, position=position).entry, round=0)
        with CaptureQueriesContext(connection) as queries:
            state = checkin.room_checkins(room)
        counts.append(len(queries))
        assert state.present == 2 and state.total == session.participants
        assert state.round == 0 and state.asked and state.substitute_from == 1
        table1 = state.tables[0]
        assert table1.table == 1 and [s.present for s in table1.seats] == [True, True, False]
    assert counts[0] == counts[1] == 3


# --- the roles ------------------------------------------------------------------------------


@pytest.fixture
def team(staffed):
    users = staffed["users"]
    return {
        "session": staffed["session"],
        "room": users["room"],
        "secretary": users["secretary"],
        "director": users["director"],
    }


def test_a_room_director_marks_his_rooms_players_only_a_secretary_none(team):
    session = team["session"]
    in_room1, in_room2 = _seat(session, room=1).entry, _seat(session, room=2).entry
    checkin.checkin_mark(session, in_room2, round=0, by=team["room"])
    with pytest.raises(PermissionDenied):
        checkin.checkin_mark(session, in_room1, round=0, by=team["room"])
    with pytest.raises(PermissionDenied):
        checkin.checkin_mark(session, in_room1, round=0, by=team["secretary"])
    with pytest.raises(PermissionDenied):
        checkin.session_set_checkin_each_round(session, True, by=team["room"])
    checkin.checkin_mark(session, in_room1, round=0, by=team["director"])
    assert set(CheckIn.objects.values_list("entry_id", flat=True)) == {in_room1.pk, in_room2.pk}
    assert ActionLog.objects.get(kind="checkin", room=2).login == "roomie"


def test_the_room_pages_door_for_the_room_director(team, event):
    session = team["session"]
    rooms = {r.number: r for r in Room.objects.filter(session=session)}
    client = _client(team["room"])
    entry2, entry1 = _seat(session, room=2).entry, _seat(session, room=1).entry
    mark = "director:room_checkin_mark"
    ok = client.post(reverse(mark, args=[event.pk, rooms[2].pk]), {"entry": entry2.pk, "round": 0})
    assert ok.status_code == 302
    refused = client.post(
        reverse(mark, args=[event.pk, rooms[1].pk]), {"entry": entry1.pk, "round": 0}
    )
    assert refused.status_code == 403
    # Through his own room's address, a player of room 1 is still refused by the service.
    client.post(reverse(mark, args=[event.pk, rooms[2].pk]), {"entry": entry1.pk, "round": 0})
    assert not CheckIn.objects.filter(entry=entry1).exists()
    # The substitute and the switch are the seating's: refused to him.
    url = reverse("director:room_checkin_substitute", args=[event.pk, rooms[2].pk])
    assert client.post(url, {"leaving": entry2.pk, "arriving": entry1.pk}).status_code == 403
    url = reverse("director:room_checkin_each_round", args=[event.pk, rooms[2].pk])
    assert client.post(url, {"each_round": "1"}).status_code == 403
    # His room page shows the check-in and the mark button, no substitute.
    page = client.get(reverse("director:room_detail", args=[event.pk, rooms[2].pk]))
    text = page.content.decode()
    assert 'id="checkin"' in text and "Отметить" in text and "Посадить замену" not in text
    assert "Отметка перед каждым туром" not in text
    secretary = _client(team["secretary"])
    page = secretary.get(reverse("director:room_detail", args=[event.pk, rooms[2].pk]))
    assert "Явка" in page.content.decode() and "Отметить" not in page.content.decode()
    refused = secretary.post(
        reverse(mark, args=[event.pk, rooms[2].pk]), {"entry": entry2.pk, "round": 0}
    )
    assert refused.status_code == 403


# --- the player's own page ------------------------------------------------------------------


def test_the_player_taps_i_am_here_on_his_page(client, session15):
    entry = _seat(session15).entry
    page = client.get(f"/p/{entry.key}/")
    assert "Я на месте" in page.content.decode()
    fragment = client.get(f"/p/{entry.key}/places").content.decode()
    assert "Я на месте" in fragment
    answer = client.post(f"/p/{entry.key}/checkin/", {"session": 1, "round": 0})
    assert answer.status_code == 302 and answer["Location"] == f"/p/{entry.key}/"
    row = CheckIn.objects.get(entry=entry)
    assert row.by is None and row.round == 0
    page = client.get(f"/p/{entry.key}/").content.decode()
    assert "Вы отметились в" in page and "Я на месте" not in page
    # The fragment the phone polls is built again (his token changed).
    assert "Вы отметились в" in client.get(f"/p/{entry.key}/places").content.decode()


def test_a_late_tap_is_refused_with_the_reason_and_csrf_is_asked(session15):
    entry = _seat(session15).entry
    start(_round(session15, 1))
    client = Client()
    answer = client.post(f"/p/{entry.key}/checkin/", {"session": 1, "round": 0})
    assert answer.status_code == 400
    assert "сообщите судье" in answer.content.decode()
    assert not CheckIn.objects.exists()
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(f"/p/{entry.key}/checkin/", {"session": 1, "round": 0}).status_code == 403


# --- the table's gate -----------------------------------------------------------------------


def test_the_gate_checks_in_with_the_seat_and_pin(client, session15):
    seat = _seat(session15)
    url = f"/t/{seat.table.key}/"
    page = client.get(url).content.decode()
    assert 'id="checkin"' in page and "Я на месте" in page
    assert seat.entry.full_name not in page  # no names on the gate
    wrong = "0000" if seat.entry.pin != "0000" else "1111"
    answer = client.post(url, {"checkin": "1", "as": "N", "pin": wrong})
    assert answer.status_code == 400
    assert "Это не ПИН-код" in answer.content.decode()
    assert not CheckIn.objects.exists()
    answer = client.post(url, {"checkin": "1", "as": "N", "pin": seat.entry.pin})
    assert answer.status_code == 302
    assert CheckIn.objects.get().entry == seat.entry
    page = client.get(url).content.decode()
    assert 'data-position="N"' in page and "на месте" in page


def test_the_gate_checks_in_by_his_own_link_without_pin(client, session15):
    seat = _seat(session15, position="E")
    url = f"/t/{seat.table.key}/"
    page = client.get(url, {"me": seat.entry.key})
    assert page.status_code == 200 and "Я на месте" in page.content.decode()
    answer = client.post(f"{url}?me={seat.entry.key}", {"checkin": "1", "me": seat.entry.key})
    assert answer.status_code == 302
    assert CheckIn.objects.get().entry == seat.entry
    assert "Вы отметились" in client.get(url, {"me": seat.entry.key}).content.decode()


def test_the_gate_shows_no_check_in_once_the_round_runs(client, session15):
    seat = _seat(session15)
    start(_round(session15, 1))
    assert 'id="checkin"' not in client.get(f"/t/{seat.table.key}/").content.decode()


# --- the director's room page ---------------------------------------------------------------


def test_the_room_page_shows_the_counts_and_marks_by_hand(director_client, session15, event):
    room = _room(session15)
    for position in "NES":
        checkin.checkin_mark(session15, _seat(session15, table=1, position=position).entry, round=0)
    url = reverse("director:room_detail", args=[event.pk, room.pk])
    text = director_client.get(url).content.decode()
    assert "Явка" in text and "Отметились 3 из 15" in text
    missing = _seat(session15, table=2, position="N").entry
    answer = director_client.post(
        reverse("director:room_checkin_mark", args=[event.pk, room.pk]),
        {"entry": missing.pk, "round": 0},
    )
    assert answer.status_code == 302 and answer["Location"].endswith("#checkin")
    row = CheckIn.objects.get(entry=missing)
    assert row.by is not None
    text = director_client.get(url).content.decode()
    assert "Отметились 4 из 15" in text and "судьёй" in text
    director_client.post(
        reverse("director:room_checkin_mark", args=[event.pk, room.pk]),
        {"entry": missing.pk, "round": 0, "undo": "1"},
    )
    assert not CheckIn.objects.filter(entry=missing).exists()


def test_the_room_page_reads_as_many_queries_for_a_big_room(
    client, director, other_director, event
):
    small = seat_players(event, 15)
    big_event = event_services.event_create(owner=other_director, name="Б", date="2026-12-07")
    big = seat_players(big_event, 33)
    event_services.entry_create(event, last_name="Запасной", first_name="Иван")
    event_services.entry_create(big_event, last_name="Запасной", first_name="Иван")
    counts = []
    for session, owner in ((small, director), (big, other_director)):
        client.force_login(owner)
        room = _room(session)
        url = reverse("director:room_detail", args=[session.event.pk, room.pk])
        client.get(url)  # the console's rows drawn and kept
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_substitute_from_the_missing_players_row_in_one_step(director_client, session15, event):
    room = _room(session15)
    leaving = _seat(session15, table=2, position="E").entry
    reserve = event_services.entry_create(event, last_name="Запасной", first_name="Иван")
    url = reverse("director:room_detail", args=[event.pk, room.pk])
    text = director_client.get(url).content.decode()
    assert "Посадить замену" in text and "Запасной Иван" in text
    answer = director_client.post(
        reverse("director:room_checkin_substitute", args=[event.pk, room.pk]),
        {"leaving": leaving.pk, "arriving": reserve.pk},
    )
    assert answer.status_code == 302
    assert Seat.objects.filter(round__room=room, entry=reserve).count() == 5
    assert not Seat.objects.filter(round__room=room, entry=leaving).exists()
    sub = Substitution.objects.get()
    assert (sub.leaving, sub.arriving, sub.from_round) == (leaving, reserve, 1)
    assert Entry.objects.get(pk=leaving.pk).status == Entry.Status.REPLACED
    assert ActionLog.objects.filter(kind="substitution").count() == 1
    # He is in the hall: checked in with his seat.
    assert CheckIn.objects.get(entry=reserve).round == 0
    page = director_client.get(url)
    assert "Запасной Иван" in page.content.decode()


def test_a_replaced_players_row_offers_no_second_substitute(director_client, session15, event):
    """Round 1 under way: the list is still its seats, so the player replaced from round 2
    stays on it — said «заменён», with no substitute form to refuse; the message of the
    substitution stands in the section the page comes back to."""
    room = _room(session15)
    start(_round(session15, 1))
    leaving = _seat(session15, table=2, position="E").entry
    event_services.entry_create(event, last_name="Запасной", first_name="Иван")
    reserve = event_services.entry_create(event, last_name="Резервов", first_name="Пётр")
    url = reverse("director:room_detail", args=[event.pk, room.pk])
    page = director_client.get(url).content.decode()
    action = reverse("director:room_checkin_substitute", args=[event.pk, room.pk])
    assert f'action="{action}#checkin-{leaving.pk}"' in page  # a refusal comes back to the row
    answer = director_client.post(
        action, {"leaving": leaving.pk, "arriving": reserve.pk}, follow=True
    )
    assert Substitution.objects.get().from_round == 2
    text = answer.content.decode()
    section = text[text.index('id="checkin"') :]
    assert "Резервов Пётр" in section.split("</ul>")[0]  # the message, inside the section
    row = section[section.index(f'id="checkin-{leaving.pk}"') :].split("</tr>")[0]
    assert "заменён" in row and 'name="leaving"' not in row


def test_a_refused_substitute_shows_next_to_the_row_keeping_the_choice(
    director_client, session15, event
):
    room = _room(session15)
    leaving = _seat(session15, table=2, position="E").entry
    other = _seat(session15, table=3, position="E").entry  # seated: refused by the service
    event_services.entry_create(event, last_name="Запасной", first_name="Иван")
    answer = director_client.post(
        reverse("director:room_checkin_substitute", args=[event.pk, room.pk]),
        {"leaving": leaving.pk, "arriving": other.pk},
    )
    assert answer.status_code == 400
    text = answer.content.decode()
    assert f'id="substitute-error-{leaving.pk}"' in text
    assert "уже" in text  # «… already has a seat in this session …»
    assert not Substitution.objects.exists()


def test_the_substitute_service_seats_from_the_next_round_and_checks_him_in_together(
    session15, event, director
):
    """``movements.services.seat_substitute_present``: from the room's next round not started,
    checked in for the check-in asked; the director's message is the session page's."""
    from movements.services import seat_substitute_present, substitution_text

    room = _room(session15)
    finish(_round(session15, 2))  # rounds 1–2 played: round 3 is the next
    leaving = _seat(session15, round_number=3, table=2, position="E").entry
    reserve = event_services.entry_create(event, last_name="Запасной", first_name="Иван")
    checkin.session_set_checkin_each_round(session15, True, by=director)
    room = _room(session15)
    state = checkin.room_checkins(room)
    assert state.round == 3 and state.substitute_from == 3
    done = seat_substitute_present(
        room, leaving=leaving, arriving=reserve, checkin_round=state.round, by=director
    )
    assert (done.from_round, done.changed) == (3, 3)
    assert done.arriving.number == leaving.number
    assert CheckIn.objects.get(entry=reserve).round == 3
    assert not Seat.objects.filter(round__room=room, entry=reserve, round__number__lt=3).exists()
    text = substitution_text(
        arriving=done.arriving, leaving=leaving, from_round=done.from_round, changed=done.changed
    )
    assert "Запасной Иван" in text and "3" in text


def test_no_substitute_once_every_round_of_the_room_has_started(session15, event, director):
    from movements.services import seat_substitute_present

    room = _room(session15)
    start(_round(session15, 5))
    leaving = _seat(session15, round_number=5, table=2, position="E").entry
    reserve = event_services.entry_create(event, last_name="Запасной", first_name="Иван")
    with pytest.raises(ValidationError):
        seat_substitute_present(
            room, leaving=leaving, arriving=reserve, checkin_round=None, by=director
        )
    assert not Substitution.objects.exists() and not CheckIn.objects.exists()
    assert not ActionLog.objects.filter(kind="substitution").exists()


def test_the_each_round_switch_on_the_room_page(director_client, session15, event):
    room = _room(session15)
    answer = director_client.post(
        reverse("director:room_checkin_each_round", args=[event.pk, room.pk]),
        {"each_round": "1"},
    )
    assert answer.status_code == 302
    session15.refresh_from_db()
    assert session15.checkin_each_round
    text = director_client.get(reverse("director:room_detail", args=[event.pk, room.pk]))
    assert "Перед туром 1" in text.content.decode()


# --- the API --------------------------------------------------------------------------------


def test_the_api_lists_marks_and_unmarks(director_client, session15, event):
    seat = _seat(session15)
    url = f"/api/v1/events/{event.pk}/checkin/"
    answer = director_client.post(
        url, {"entry": seat.entry.pk, "round": 0}, content_type="application/json"
    )
    assert answer.status_code == 200 and answer.json()["by_director"] is True
    listed = director_client.get(url, {"session": 1, "room": 1}).json()
    assert listed["session"] == 1
    room = listed["rooms"][0]
    assert room["present"] == 1 and room["total"] == 15 and room["open"] is True
    first = room["tables"][0]["seats"]
    assert [s["checked_in"] for s in first] == [True, False, False]  # N E S: N is in
    gone = director_client.delete(f"{url}{seat.entry.pk}/?round=0")
    assert gone.status_code == 204
    assert not CheckIn.objects.exists()
    bad = director_client.post(
        url, {"entry": seat.entry.pk, "round": 9}, content_type="application/json"
    )
    assert bad.status_code == 400 and "round" in bad.json()
    reserve = event_services.entry_create(event, last_name="Запасной", first_name="Иван")
    bad = director_client.post(
        url, {"entry": reserve.pk, "round": 0}, content_type="application/json"
    )
    assert bad.status_code == 400 and "entry" in bad.json()
    assert director_client.delete(f"{url}{seat.entry.pk}/").status_code == 400


def test_the_api_asks_the_role_in_the_players_room(team, event):
    session = team["session"]
    url = f"/api/v1/events/{event.pk}/checkin/"
    room_client = _client(team["room"])
    mine, other = _seat(session, room=2).entry, _seat(session, room=1).entry
    ok = room_client.post(url, {"entry": mine.pk, "round": 0}, content_type="application/json")
    assert ok.status_code == 200
    refused = room_client.post(
        url, {"entry": other.pk, "round": 0}, content_type="application/json"
    )
    assert refused.status_code == 403 and "2" in refused.json()["detail"]
    secretary = _client(team["secretary"])
    assert secretary.get(url).status_code == 200
    refused = secretary.post(url, {"entry": mine.pk, "round": 0}, content_type="application/json")
    assert refused.status_code == 403
    assert secretary.delete(f"{url}{mine.pk}/?round=0").status_code == 403
    assert CheckIn.objects.filter(entry=mine).exists()


def test_before_each_round_the_phone_asks_the_next_round(client, session15, director):
    entry = _seat(session15).entry
    assert "перед сессией" in client.get(f"/p/{entry.key}/places").content.decode()
    checkin.session_set_checkin_each_round(session15, True, by=director)
    fragment = client.get(f"/p/{entry.key}/places").content.decode()
    assert "Отметка явки перед туром 1" in fragment  # the switch reached the cached fragment
    assert client.post(f"/p/{entry.key}/checkin/", {"session": 1, "round": 1}).status_code == 302
    finish(_round(session15, 1))
    fragment = client.get(f"/p/{entry.key}/places").content.decode()
    assert "Отметка явки перед туром 2" in fragment and "Я на месте" in fragment
    assert client.post(f"/p/{entry.key}/checkin/", {"session": 1, "round": 2}).status_code == 302
    assert list(CheckIn.objects.order_by("round").values_list("round", flat=True)) == [1, 2]
    start(_round(session15, 2))
    assert "Я на месте" not in client.get(f"/p/{entry.key}/places").content.decode()
