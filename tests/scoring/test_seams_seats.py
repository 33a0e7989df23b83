"""One way for each kind of thing (issue 33): the seats' order (``events.boards.TABLE_ORDER``,
round the table) in the CSV files as on the pages, whatever order the database keeps a
sheet's seats in; a Russian defence worded by its own game on the director's sheet history;
and a place with no deal played said as the standings say it."""

import re

import pytest
from django.urls import reverse

from events import services as event_services
from events.models import Event
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


def _publish(session):
    play_out(session)
    Event.objects.filter(pk=session.event_id).update(results_public=True)


# --- the seats' order ---------------------------------------------------------------------

#: S declares, N and E both whist, on deal 2 (E speaks first: E S N): stored as written or in
#: speaking order (SQLite) or E N S (PostgreSQL's JSON sorts its keys); round the table N E S.
SOUTH_PLAYS = sheet(
    declarer="S", defence={"E": "whist", "N": "whist"}, tricks={"S": 6, "E": 3, "N": 1}
)


def test_the_csv_files_list_tricks_and_defence_round_the_table(client, session15, director):
    play = play_of(session15, 1, 1)
    deal = deal_of(play, 2)
    services.sheet_record(play, deal, SOUTH_PLAYS, by_user=director)
    _publish(session15)
    slug = session15.event.slug
    traveller = client.get(reverse("public:traveller_csv", args=[slug, deal.pk]))
    card = client.get(reverse("public:card_csv", args=[slug, entry_at(play, "S").number]))
    for answer in (traveller, card):
        text = answer.content.decode("utf-8-sig")
        assert "N 1 · E 3 · S 6" in text, text
        assert "N вист · E вист" in text, text
    # The page says it the same way.
    page = client.get(reverse("public:traveller", args=[slug, deal.pk]))
    assert "N 1 · E 3 · S 6" in page.content.decode()


# --- a Russian defence in Russian words ---------------------------------------------------


def test_the_sheet_history_words_a_russian_defence_in_the_russian_games_words(
    director_client, director
):
    event = event_services.event_create(
        owner=director, name="Кубок Сочи", date="2026-12-05", game="sochi"
    )
    session = seat_players(event, 15)
    play = play_of(session, 1, 1)
    half = {"declarer": "N", "contract": "6C", "defenders": {"E": "pass", "S": "half"}}
    done = services.sheet_record(play, deal_of(play, 1), half, by_user=director)
    body = director_client.get(reverse("director:sheet", args=[event.pk, done.sheet.pk]))
    assert [row.defence for row in body.context["versions"]] == ["E пас · S полвиста"]
    history = body.content.decode()
    history = history[history.index('id="versions"') :]
    cells = re.findall(r'data-label="Защита"[^>]*>([^<]*)<', history)
    assert cells and all(cell.strip() == "E пас · S полвиста" for cell in cells), cells
    assert "half" not in " ".join(cells)


# --- a place with no deal played ----------------------------------------------------------


def test_the_card_says_no_place_where_the_standings_do(client, session15, director):
    from movements import planner
    from movements.services import session_create

    event = session15.event
    play = play_of(session15, 1, 1)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    _publish(session15)
    option = next(
        o
        for o in planner.plan(15).as_dict()["options"]
        if all(r["kind"] == "prime" and r["seats"] == 3 for r in o["rooms"])
    )
    session_create(event, option)  # session 2: seated, nothing played
    north = entry_at(play, "N")
    standings = client.get(reverse("public:session", args=[event.slug, 2])).content.decode()
    ranks = re.findall(r'<td class="rank">([^<]*)</td>', standings)
    assert ranks and set(ranks) == {"—"}, ranks
    card = client.get(reverse("public:card", args=[event.slug, north.number])).content.decode()
    places = dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", card))
    assert places["Сессия 2"] == "—", places
    assert "по 0 сдачам" not in card
    assert places["Сессия 1"].startswith("место ")
