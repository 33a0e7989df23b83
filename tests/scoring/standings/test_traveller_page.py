"""The traveller says where each result was made (room, table, the seated players with their
numbers) and explains a Neuberg-restated top when a deal was played fewer times than
expected; the note's figures are those of the table beneath it."""

import pytest
from django.urls import reverse

from events.models import Event
from scoring.models import TablePlay
from scoring.sheets import services
from tests.factories import (
    THREE_DIAMONDS,
    deal_of,
    entry_at,
    play_of,
    play_out,
    seat_players,
    sheet,
)

pytestmark = pytest.mark.django_db


def _publish(event):
    """Published after the session: every deal played out (scoring.standings.disclosure)."""
    for session in event.sessions.all():
        play_out(session)
    Event.objects.filter(pk=event.pk).update(results_public=True)


def _plays_of(deal):
    return list(
        TablePlay.objects.filter(board_set=deal.board_set)
        .select_related("round__room__session__event", "table__room", "board_set")
        .order_by("round__number", "table__room__number", "table__number")
    )


def _traveller(client, deal, query=""):
    event = deal.board_set.session.event
    url = reverse("public:traveller", args=[event.slug, deal.pk])
    return client.get(url + query).content.decode()


def test_two_rooms_show_room_table_and_each_seats_player_with_number(client, event, director):
    session = seat_players(event, 30, seats=3)  # two prime rooms of 5 tables, twin sets
    _publish(event)
    first = play_of(session, 1, 2, room_number=1)
    deal = deal_of(first, 1)
    plays = _plays_of(deal)
    twins = [p for p in plays if (p.round.number, p.table.number) == (1, 2)]
    assert len({p.table.room_id for p in twins}) == 2  # «round 1, table 2» in each room
    for play in twins:
        services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    body = _traveller(client, deal)
    assert "<th>Комната</th>" in body
    for play in twins:
        assert f"<td>{play.table.room}</td>" in body
        north = entry_at(play, "N")
        assert f"<b>N</b> № {north.number} {north.full_name}" in body


def test_one_room_shows_no_room_column_but_names_every_player(client, session15, director):
    play = play_of(session15, 1, 1)
    _publish(session15.event)
    deal = deal_of(play, 1)
    services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    body = _traveller(client, deal)
    assert "<th>Комната</th>" not in body and "<th>Игроки</th>" in body
    for position in "NES":
        assert entry_at(play, position).full_name in body


def test_a_deal_played_at_two_of_five_tables_explains_the_restated_top(client, session15, director):
    deal = deal_of(play_of(session15, 1, 1), 1)
    _publish(session15.event)
    one, two = _plays_of(deal)[:2]
    services.sheet_record(one, deal, THREE_DIAMONDS, by_user=director)
    services.sheet_record(two, deal, sheet(tricks={"N": 8, "E": 2}), by_user=director)
    body = _traveller(client, deal)
    assert 'id="traveller-note"' in body
    assert "у 2 из 5 столов" in body and "Нойберга" in body
    # n = 2, N = 5: the best (100 % plain) restates to 81.25 %, the worst to 18.75 %.
    assert "81.25\xa0% вместо 100\xa0%" in body and "18.75\xa0% вместо 0\xa0%" in body
    assert body.count("81.25") >= 2 and body.count("18.75") >= 2  # the note and the table


def test_the_note_speaks_english_too(client, session15, director, en):
    deal = deal_of(play_of(session15, 1, 1), 1)
    _publish(session15.event)
    one, two = _plays_of(deal)[:2]
    services.sheet_record(one, deal, THREE_DIAMONDS, by_user=director)
    services.sheet_record(two, deal, sheet(tricks={"N": 8, "E": 2}), by_user=director)
    event = session15.event
    body = client.get(
        reverse("public:traveller", args=[event.slug, deal.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "from 2 of the 5 tables" in body and "81.25 % rather than 100 %" in body


def test_every_table_played_no_note(client, session15, director):
    deal = deal_of(play_of(session15, 1, 1), 1)
    _publish(session15.event)
    for play in _plays_of(deal):
        services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    assert 'id="traveller-note"' not in _traveller(client, deal)


def test_a_lone_result_and_artificial_scores_are_explained(client, session15, director):
    deal = deal_of(play_of(session15, 1, 1), 1)
    _publish(session15.event)
    one, two = _plays_of(deal)[:2]
    services.sheet_record(one, deal, THREE_DIAMONDS, by_user=director)
    services.adjustments_table_create(two, by_user=director, score="A+", reason="x", deal=deal)
    body = _traveller(client, deal)
    assert "у 1 из 5 столов" in body and "получает 50\xa0%" in body
    assert "Искусственные результаты (A+, A, A−) не сравниваются" in body


def test_the_directors_preview_shows_the_same_note(director_client, session15, director):
    deal = deal_of(play_of(session15, 1, 1), 1)
    one, two = _plays_of(deal)[:2]
    services.sheet_record(one, deal, THREE_DIAMONDS, by_user=director)
    services.sheet_record(two, deal, sheet(tricks={"N": 8, "E": 2}), by_user=director)
    # The deal is still in play: his preview shows what the public will see (no traveller),
    # his own view (?view=director) shows it with the note.
    event = session15.event
    url = reverse("public:traveller", args=[event.slug, deal.pk])
    assert director_client.get(url).status_code == 403
    body = _traveller(director_client, deal, "?view=director")
    assert 'class="preview-banner"' in body and "81.25\xa0% вместо 100\xa0%" in body
    assert 'id="director-view"' in body
