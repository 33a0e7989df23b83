"""One rule for substitutes: the substitute plays under the participant's number for the rest
of the session, the standing belongs to the number with both names, the replaced player is
out of later planning, and every page says the same."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from events import services as event_services
from events.models import Entry, Round, Seat, Substitution
from movements import seating
from movements.services import seat_substitute, session_create
from scoring import standings
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, play_of, start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("en")]

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _number(session, number):
    return Entry.objects.get(event=session.event, number=number, status="active")


def _record_at(session, round_number, entry, director):
    """A sheet at the table where ``entry`` sits in that round (deal 1)."""
    seat = Seat.objects.get(round__room__session=session, round__number=round_number, entry=entry)
    play = play_of(session, round_number, seat.table.number)
    services.sheet_record(
        play, play.board_set.deals.get(number=1), THREE_DIAMONDS, by_user=director
    )


@pytest.fixture
def substituted(session15, director):
    """Participant 7 plays rounds 1–2; «Поздний П» takes number 7 from round 3 on; one sheet
    at each one's table."""
    leaving = _number(session15, 7)
    _record_at(session15, 1, leaving, director)
    late = event_services.entry_create(session15.event, last_name="Поздний", first_name="П")
    seat_substitute(session15, leaving=leaving, arriving=late, from_round=3, by=director)
    _record_at(session15, 4, late, director)
    leaving.refresh_from_db()
    late.refresh_from_db()
    return session15, leaving, late


def test_the_substitute_takes_the_number_and_the_replaced_player_is_out(substituted):
    session, leaving, late = substituted
    assert (late.number, late.status) == (7, "active")
    assert (leaving.number, leaving.status) == (7, "replaced")
    assert set(Seat.objects.filter(entry=late).values_list("participant", flat=True)) == {7}
    assert list(Seat.objects.filter(entry=leaving).values_list("round__number", flat=True)) == [
        1,
        2,
    ]
    sub = Substitution.objects.get()
    assert (sub.number, sub.from_round, sub.leaving, sub.arriving) == (7, 3, leaving, late)
    # The planner of the next session counts 15, not 16.
    assert seating.playing_count(session.event) == 15


def test_the_standing_has_one_row_per_number_with_both_names(substituted):
    session, leaving, late = substituted
    rows = standings.session_standings(session)
    assert len(rows) == 15
    (row,) = [r for r in rows if r.number == 7]
    assert row.entry == late and set(row.entry_ids) == {leaving.pk, late.pk}
    assert row.name == f"{leaving.full_name} / Поздний П (substitute from round 3)"
    assert row.deals == 2  # one deal each, counted for the number
    assert all(r.number != 7 for r in rows if r is not row)


def test_every_page_shows_the_number_and_both_names(substituted, director_client, client):
    session, leaving, late = substituted
    event = session.event
    players = director_client.get(event.get_absolute_url(), **EN).content.decode()
    assert "replaced by Поздний П from round 3 of session 1" in players
    assert f"substitute for {leaving.full_name} from round 3 of session 1" in players
    cards = director_client.get(
        reverse("director:participant_cards", args=[event.pk, 1]) + "?participant=7", **EN
    ).content.decode()
    assert f"№ 7 — {leaving.full_name} / Поздний П (substitute from round 3)" in cards
    csv = director_client.get(
        reverse("director:participant_csv", args=[event.pk, 1]), **EN
    ).content.decode("utf-8-sig")
    assert "7;Поздний П;3;" in csv and f"7;{leaving.full_name};2;" in csv
    results = director_client.get(reverse("public:session", args=[event.slug, 1]), **EN)
    body = results.content.decode()
    assert body.count(">Поздний П</a>") == 1 and "(substitute from round 3)" in body
    standings_csv = director_client.get(
        reverse("public:session_csv", args=[event.slug, 1]), **EN
    ).content.decode("utf-8-sig")
    line = next(x for x in standings_csv.splitlines() if ";7;" in x)
    assert f"{leaving.full_name} / Поздний П (substitute from round 3)" in line
    phone = client.get(f"/p/{late.key}/", **EN).content.decode()
    assert "№ 7" in phone
    old = client.get(f"/p/{leaving.key}/", **EN).content.decode()
    assert "From round 3 on, Поздний П takes your place." in old  # rounds 1–2 still his
    start(Round.objects.get(room__session=session, number=3))
    old = client.get(f"/p/{leaving.key}/", **EN).content.decode()
    assert "You were replaced from round 3 of session 1" in old
    assert "Now — round" not in old
    assert 'id="my-results"' in old  # his results up to then
    phone = client.get(f"/p/{late.key}/", **EN).content.decode()
    assert "Now — round 3" in phone and '<dd class="seat-big">' in phone


def test_the_api_gives_the_number_and_every_holder(substituted, director):
    session, leaving, late = substituted
    api = APIClient()
    api.force_authenticate(director)
    doc = api.get(f"/api/v1/events/{session.event.pk}/standings/?session=1").json()
    (row,) = [r for r in doc["standings"] if r["number"] == 7]
    assert [p["entry"] for p in row["players"]] == [leaving.pk, late.pk]
    assert row["players"][1]["from_round"] == 3
    entries = api.get(f"/api/v1/events/{session.event.pk}/entries/").json()
    statuses = {e["id"]: (e["number"], e["status"]) for e in entries["results"]}
    assert statuses[leaving.pk] == (7, "replaced") and statuses[late.pk] == (7, "active")


def test_a_replaced_player_is_not_reinstated_but_can_come_back_as_a_substitute(substituted):
    session, leaving, late = substituted
    with pytest.raises(ValidationError) as caught:
        event_services.entry_reinstate(leaving)
    assert "put him in as a substitute" in caught.value.message_dict["status"][0]
    seat_substitute(session, leaving=late, arriving=leaving, from_round=5)
    leaving.refresh_from_db()
    late.refresh_from_db()
    assert (leaving.status, late.status) == ("active", "replaced")
    (row,) = [r for r in standings.session_standings(session) if r.number == 7]
    assert [e.pk for e, _note in row.labelled] == [leaving.pk, late.pk, leaving.pk]


def test_a_player_seated_under_another_number_cannot_take_a_second_one(session15):
    with pytest.raises(ValidationError) as caught:
        seat_substitute(
            session15, leaving=_number(session15, 7), arriving=_number(session15, 8), from_round=6
        )
    assert "leaving" in caught.value.message_dict  # no seat from round 6 on
    with pytest.raises(ValidationError) as caught:
        seat_substitute(
            session15, leaving=_number(session15, 7), arriving=_number(session15, 8), from_round=3
        )
    assert "already has a seat" in caught.value.message_dict["arriving"][0]
    assert not Substitution.objects.exists()


def test_a_withdrawn_player_who_was_replaced_keeps_his_rounds(session15):
    leaving = _number(session15, 2)
    event_services.entry_withdraw(leaving, confirmed=True)
    late = event_services.entry_create(session15.event, last_name="Резерв", first_name="Р")
    seat_substitute(session15, leaving=leaving, arriving=late, from_round=2)
    leaving.refresh_from_db()
    assert leaving.status == "replaced"
    assert seating.playing_count(session15.event) == 15


def test_the_next_session_seats_the_substitute_under_the_number(substituted):
    from tests.movements.conftest import option_for

    session, leaving, late = substituted
    second = session_create(session.event, option_for(15, kind="prime", seats=3), number=2)
    seats = Seat.objects.filter(round__room__session=second)
    assert set(seats.filter(participant=7).values_list("entry", flat=True)) == {late.pk}
    assert not seats.filter(entry=leaving).exists()
    (row,) = [r for r in standings.event_standings(session.event) if r.number == 7]
    assert row.name == f"{leaving.full_name} / Поздний П (substitute from round 3 of session 1)"
