"""A player's private page: where to sit now and next, from the seating and the clock."""

import pytest

from events import rounds
from events.models import Entry, Round, Seat

pytestmark = pytest.mark.django_db


def _entry(session, number):
    return Entry.objects.get(event=session.event, number=number)


def test_before_the_first_round_the_page_says_where_to_go(client, session15):
    entry = _entry(session15, 7)  # round 1: table 2, E; round 2: table 3, set 4 (sets move −1)
    body = client.get(f"/p/{entry.key}/").content.decode()
    assert "Следующий тур 1: идите" in body
    assert '<dd class="seat-big">2</dd>' in body and '<dd class="seat-big">E</dd>' in body
    assert "Затем — тур 2" in body and "стол 3, позиция E, комплект 4" in body
    # Nothing played yet: a sentence, not an empty table.
    assert "Сыгранных сдач пока нет" in body and 'id="my-results"' not in body


def test_during_a_round_n_is_told_where_to_take_the_set(client, session15):
    rounds.round_start(Round.objects.get(room__session=session15, number=1))
    entry = _entry(session15, 1)  # N at table 1: the set goes to table 5
    body = client.get(f"/p/{entry.key}/").content.decode()
    assert "Сейчас — тур 1" in body
    assert "По команде «Конец тура!» отнесите комплект на стол 5." in body


def test_the_phone_clock_holds_only_the_players_room(client, session15):
    rounds.round_start(Round.objects.get(room__session=session15, number=1), length_seconds=120)
    entry = _entry(session15, 3)
    doc = client.get(f"/p/{entry.key}/clock.json").json()
    assert [r["room"] for r in doc["rooms"]] == [1]
    assert doc["rooms"][0]["state"] == "running"


def test_a_substitute_sees_the_seat_he_took(client, session15):
    from events.services import entry_create
    from movements.services import seat_substitute

    late = entry_create(session15.event, last_name="Поздний", first_name="П")
    seat_substitute(session15, leaving=_entry(session15, 7), arriving=late, from_round=1)
    body = client.get(f"/p/{late.key}/").content.decode()
    assert '<dd class="seat-big">E</dd>' in body
    assert Seat.objects.filter(entry=late).count() == 5


def test_an_unknown_key_is_a_404_and_the_qr_is_an_svg(client, session15):
    assert client.get("/p/not-a-key/").status_code == 404
    entry = _entry(session15, 1)
    qr = client.get(f"/p/{entry.key}/qr.svg")
    assert qr["Content-Type"] == "image/svg+xml" and qr.content.startswith(b"<svg")


def test_a_player_not_yet_seated_is_told_so(client, event):
    from events.services import entry_create

    entry = entry_create(event, last_name="Иванов", first_name="Иван")
    assert "судья ещё не рассадил" in client.get(f"/p/{entry.key}/").content.decode()


def test_name_cards_and_a_big_qr_are_the_directors_own(director_client, other_client, session15):
    event = session15.event
    entry = _entry(session15, 2)
    cards = director_client.get(f"/director/events/{event.pk}/cards/names/")
    body = cards.content.decode()
    assert cards.status_code == 200 and body.count('class="name-card"') == 15
    assert body.count("<svg") >= 15 and "Игроков" in body
    big = director_client.get(f"/director/events/{event.pk}/players/{entry.pk}/qr/")
    assert big.status_code == 200 and f"/p/{entry.key}/" in big.content.decode()
    assert other_client.get(f"/director/events/{event.pk}/cards/names/").status_code == 404
    assert (
        other_client.get(f"/director/events/{event.pk}/players/{entry.pk}/qr/").status_code == 404
    )


def test_the_phone_shows_own_points_and_percentages_once_published(client, session15, director):
    from scoring.sheets import services
    from tests.factories import THREE_DIAMONDS, play_of, play_out

    rounds.round_start(Round.objects.get(room__session=session15, number=1))
    play = play_of(session15, 1, 1)
    services.sheet_record(
        play, play.board_set.deals.get(number=1), THREE_DIAMONDS, by_user=director
    )
    entry = Seat.objects.get(round=play.round, table=play.table, position="N").entry
    body = client.get(f"/p/{entry.key}/").content.decode()
    assert "Мои результаты" in body and ">70</td>" in body
    assert "когда судья опубликует результаты" in body and "Место 1" not in body
    event = session15.event
    event.results_public = True
    event.save()
    # The deal is still to be played at other tables: no figure (it compares him with
    # them) and no place — the public standing counts the deals played out only.
    body = client.get(f"/p/{entry.key}/").content.decode()
    assert ">70</td>" in body and "50.00" not in body and "Место " not in body
    play_out(session15)
    body = client.get(f"/p/{entry.key}/").content.decode()
    assert "50.00" in body  # the only result of its pocket: Neuberg keeps it at 50 %
    assert "Место " in body


# --- wrong or old private links -------------------------------------------------------------


@pytest.mark.parametrize("path", ["/p/not-a-key/", "/p/not-a-key/places", "/t/not-a-key/"])
def test_a_wrong_link_is_a_phone_page_in_russian_that_sends_to_the_director(client, path):
    response = client.get(path)
    assert response.status_code == 404
    body = response.content.decode()
    assert "судь" in body  # ask the director
    assert "No Entry matches" not in body and "/director/" not in body
    assert "Table" not in body and "Player" not in body  # no English on a Russian page


def test_a_wrong_link_speaks_the_browsers_language(client):
    body = client.get("/p/not-a-key/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "This player link is not valid" in body and "ask the director" in body
    assert "/director/" not in body and "Log in" not in body


def test_the_phones_json_of_a_wrong_link_is_a_json_404(client):
    response = client.get("/p/not-a-key/clock.json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"
    assert "ask the director" in response.json()["detail"]


def test_a_wrong_director_address_still_gets_the_directors_404(client, director_client):
    body = director_client.get("/director/events/999999/").content.decode()
    assert "link is not valid" not in body
