"""The console's clock controls: the next round in every room at once, «Add minutes» with no
prefilled value, a confirmation before a round is ended, and the «Late by» column explained."""

import pytest
from django.urls import reverse

from events import rounds
from events.models import Announcement, Round
from tests.factories import seat_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_rooms(event):
    """30 players: two prime rooms of 5 tables × 3 seats in one session."""
    return seat_players(event, 30, seats=3)


def _round(session, room_number, number):
    return Round.objects.select_related("room__session__event").get(
        room__session=session, room__number=room_number, number=number
    )


def _room_url(session, room_number=1, **query):
    room = session.rooms.get(number=room_number)
    url = reverse("director:room_detail", args=[session.event.pk, room.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def _start_all_url(session):
    return reverse("director:session_rounds_start", args=[session.event.pk, session.number])


def test_every_room_starts_its_next_round_at_once(two_rooms):
    done = rounds.session_start_rounds(two_rooms)
    assert [(d.room.number, d.outcome, d.round) for d in done] == [
        (1, "started", 1),
        (2, "started", 1),
    ]
    assert Round.objects.filter(room__session=two_rooms, state="running").count() == 2
    assert Announcement.objects.filter(kind=Announcement.Kind.START).count() == 2


def test_a_room_already_on_the_clock_is_reported_not_an_error(two_rooms):
    rounds.round_start(_round(two_rooms, 2, 1))
    done = rounds.session_start_rounds(two_rooms)
    assert [(d.outcome, d.round) for d in done] == [("started", 1), ("running", 1)]
    again = rounds.session_start_rounds(two_rooms)
    assert [d.outcome for d in again] == ["running", "running"]
    assert Announcement.objects.filter(kind=Announcement.Kind.START).count() == 2


def test_a_room_that_played_every_round_says_so(two_rooms):
    for rnd in Round.objects.filter(room__session=two_rooms, room__number=1).order_by("number"):
        rounds.round_start(rnd)
        rounds.round_end_now(rnd)
    done = rounds.session_start_rounds(two_rooms)
    assert [(d.outcome, d.round) for d in done] == [("done", None), ("started", 1)]


def test_the_button_starts_every_room_and_tells_each_rooms_result(director_client, two_rooms):
    rounds.round_start(_round(two_rooms, 2, 1))
    response = director_client.post(
        _start_all_url(two_rooms), {"next": _room_url(two_rooms)}, follow=True
    )
    assert response.redirect_chain[-1][0] == _room_url(two_rooms)
    body = response.content.decode()
    assert "Комната 1: тур 1 начат." in body
    assert "Комната 2: тур 1 уже идёт; оставлен как есть." in body


def test_the_room_list_and_the_room_page_offer_the_button(director_client, two_rooms):
    listing = director_client.get(reverse("director:room_list", args=[two_rooms.event.pk]))
    assert listing.content.decode().count("Начать тур во всех комнатах") == 1
    page = director_client.get(_room_url(two_rooms)).content.decode()
    assert "Начать тур во всех комнатах" in page


def test_a_single_room_has_no_all_rooms_button(director_client, session15):
    page = director_client.get(_room_url(session15)).content.decode()
    assert "Начать тур во всех комнатах" not in page


def test_starting_every_room_belongs_to_the_events_director(client, other_client, two_rooms):
    url = _start_all_url(two_rooms)
    assert client.post(url).status_code == 302  # to the login page
    assert other_client.post(url).status_code == 404
    assert not Round.objects.exclude(state="pending").exists()


def test_add_minutes_has_no_prefilled_value_and_empty_is_refused_on_its_field(
    director_client, session15
):
    rnd = _round(session15, 1, 1)
    rounds.round_start(rnd)
    page = director_client.get(_room_url(session15)).content.decode()
    assert 'id="adjust-minutes" name="minutes" type="number" step="1" required value=""' in page
    ends_at = Round.objects.get(pk=rnd.pk).ends_at
    url = reverse("director:round_action", args=[session15.event.pk, rnd.pk, "adjust"])
    response = director_client.post(url, {"minutes": ""})
    assert response.status_code == 400
    body = response.content.decode()
    assert 'id="adjust-minutes-error"' in body and "«Добавить минут»: укажите" in body
    assert Round.objects.get(pk=rnd.pk).ends_at == ends_at
    typed = director_client.post(url, {"minutes": "abc"})
    assert typed.status_code == 400 and 'value="abc"' in typed.content.decode()
    assert director_client.post(url, {"minutes": "3"}).status_code == 302
    assert Round.objects.get(pk=rnd.pk).ends_at > ends_at


def test_ending_a_round_asks_first(director_client, session15):
    rnd = _round(session15, 1, 1)
    rounds.round_start(rnd)
    asked = director_client.get(_room_url(session15, confirm="end")).content.decode()
    assert 'id="confirm-end"' in asked and "Да, завершить тур 1 сейчас" in asked
    url = reverse("director:round_action", args=[session15.event.pk, rnd.pk, "end"])
    unconfirmed = director_client.post(url)
    assert unconfirmed.status_code == 200 and 'id="confirm-end"' in unconfirmed.content.decode()
    assert Round.objects.get(pk=rnd.pk).state == "running"
    assert director_client.post(url, {"confirm": "yes"}).status_code == 302
    assert Round.objects.get(pk=rnd.pk).state == "finished"


def test_the_late_by_column_is_explained(director_client, session15):
    rnd = _round(session15, 1, 1)
    rounds.round_start(rnd)
    rounds.round_end_now(rnd)
    page = director_client.get(_room_url(session15)).content.decode()
    assert 'id="lag-help"' in page
    assert "через сколько секунд после назначенного момента" in page
    assert "Опоздание, с</abbr>" in page


# --- the API ------------------------------------------------------------------------------


def _api_url(session):
    return f"/api/v1/events/{session.event.pk}/sessions/{session.number}/rounds/start/"


def test_the_api_starts_every_room_and_answers_per_room(director_client, two_rooms):
    rounds.round_start(_round(two_rooms, 1, 1))
    response = director_client.post(_api_url(two_rooms), {}, content_type="application/json")
    assert response.status_code == 200, response.content
    rooms = response.json()["rooms"]
    assert [(r["room"], r["outcome"], r["round"]) for r in rooms] == [
        (1, "running", 1),
        (2, "started", 1),
    ]


def test_the_api_takes_a_length_and_refuses_a_bad_one_naming_it(director_client, two_rooms):
    bad = director_client.post(_api_url(two_rooms), {"minutes": 0}, content_type="application/json")
    assert bad.status_code == 400 and "minutes" in bad.json()
    assert not Round.objects.exclude(state="pending").exists()
    good = director_client.post(
        _api_url(two_rooms), {"minutes": 12}, content_type="application/json"
    )
    assert good.status_code == 200
    assert set(Round.objects.filter(state="running").values_list("length_seconds", flat=True)) == {
        720
    }


def test_the_api_belongs_to_the_events_director(client, other_client, two_rooms):
    assert client.post(_api_url(two_rooms)).status_code in (401, 403)
    assert other_client.post(_api_url(two_rooms)).status_code == 404
    assert not Round.objects.exclude(state="pending").exists()
