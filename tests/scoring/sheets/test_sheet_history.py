"""The director's sheet history and table-round page (issue 21, findings 12 and 14): each
version says who entered it and how he proved it was he, who confirmed it and how (or the
director's own word), when, and the talon it recorded, as cards with suit symbols; the seats
are listed round the table, W N E S (N E S at a table of three), whatever order the database
keeps a sheet's seats in."""

import re

import pytest
from django.urls import reverse
from django.utils.timezone import localtime

from scoring.models import Proof
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of, start

pytestmark = pytest.mark.django_db

TALON = ["SA", "H7"]


def _history(client, sheet):
    event = sheet.play.round.room.session.event
    response = client.get(reverse("director:sheet", args=[event.pk, sheet.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _row(body, number):
    """The history's row of version ``number`` (its first cell is the number)."""
    table = body[body.index('id="versions"') :]
    table = table[table.index("<tbody>") : table.index("</tbody>")]
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S):
        first = re.search(r"<td[^>]*>(.*?)</td>", row, re.S)
        if first and _text(first.group(1)).split()[0] == str(number):
            return row
    raise AssertionError(f"no row of version {number}")


#: The history's columns, by their (Russian) label on a narrow screen.
LABELS = {"entered": "Записал", "confirmed": "Подтвердил", "talon": "Прикуп", "points": "Очки"}


def _cell(row, column):
    found = re.search(rf'<td[^>]*data-label="{LABELS[column]}"[^>]*>(.*?)</td>', row, re.S)
    assert found, f"no {column} column"
    return found.group(1)


def _text(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_each_version_says_who_entered_and_confirmed_it_how_and_when(director_client, session15):
    play = play_of(session15, 1, 1)
    start(play.round)
    north, east = entry_at(play, "N"), entry_at(play, "E")
    done = services.sheet_record(
        play, deal_of(play, 1), THREE_DIAMONDS | {"talon": TALON}, by_entry=north, proof=Proof.PIN
    )
    services.sheet_confirm(done.sheet, by_entry=east, proof=Proof.LINK)
    done.sheet.refresh_from_db()

    row = _row(_history(director_client, done.sheet), 1)

    entered = _text(_cell(row, "entered"))
    assert north.full_name in entered and "своим ПИН-кодом" in entered
    assert localtime(done.version.created_at).strftime("%d.%m.%Y %H:%M:%S") in entered
    confirmed = _text(_cell(row, "confirmed"))
    assert east.full_name in confirmed and "со своей страницы" in confirmed
    assert localtime(done.sheet.updated_at).strftime("%d.%m.%Y %H:%M:%S") in confirmed
    # The talon recorded on this version, as cards with their suit symbols.
    talon = _cell(row, "talon")
    assert '<span class="card-name">♠Т</span>' in talon
    assert '<span class="card-name red">♥7</span>' in talon


def test_an_unproven_entry_a_proposal_and_a_version_replaced_are_told_apart(
    director_client, session15, director
):
    play = play_of(session15, 1, 1)
    start(play.round)
    deal = deal_of(play, 1)
    first = services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "N"))
    body = _history(director_client, first.sheet)
    entered = _text(_cell(_row(body, 1), "entered"))
    assert "на устройстве стола без ПИН-кода" in entered
    assert "ещё не подтверждён" in _text(_cell(_row(body, 1), "confirmed"))
    assert "—" in _text(_cell(_row(body, 1), "talon"))  # no talon recorded

    other = THREE_DIAMONDS | {"tricks": {"N": 6, "E": 4}}
    services.sheet_record(play, deal, other, by_entry=entry_at(play, "E"), proof=Proof.PIN)
    body = _history(director_client, first.sheet)
    assert "предложение: не принято" in _text(_cell(_row(body, 2), "confirmed"))

    services.sheet_restore(first.sheet, 2, by_user=director)
    body = _history(director_client, first.sheet)
    assert "заменена более поздней версией" in _text(_cell(_row(body, 1), "confirmed"))
    current = _row(body, 3)
    assert "слово судьи" in _text(_cell(current, "entered"))
    assert "слово судьи" in _text(_cell(current, "confirmed"))


def test_the_directors_confirmation_is_his_own_word(director_client, session15, director):
    play = play_of(session15, 1, 1)
    start(play.round)
    done = services.sheet_record(
        play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N"), proof=Proof.PIN
    )
    services.sheet_confirm(done.sheet, by_user=director)
    body = _history(director_client, done.sheet)
    confirmed = _text(_cell(_row(body, 1), "confirmed"))
    assert "судья" in confirmed and "слово судьи" in confirmed
    assert entry_at(play, "N").full_name not in confirmed


def test_the_history_lists_the_points_round_the_table(director_client, session15, director):
    play = play_of(session15, 1, 1)
    # E declares: stored as E, S, N (declarer first) or E, N, S (a JSON column's order).
    data = {
        "declarer": "E",
        "contract": "three",
        "trump": "diamonds",
        "defenders": {"S": "whist", "N": "pass"},
        "tricks": {"E": 7, "S": 3},
    }
    done = services.sheet_record(play, deal_of(play, 1), data, by_user=director)
    body = _history(director_client, done.sheet)
    row = _row(body, 1)
    points = _text(_cell(row, "points"))
    assert [part.split()[0] for part in points.split(" · ")] == ["N", "E", "S"]
    # The seats of the table, too.
    listed = body[body.index('<dl class="facts" id="seats">') :]
    assert re.findall(r"<dt>([WNES])</dt>", listed[: listed.index("</dl>")]) == ["N", "E", "S"]


def test_the_table_round_page_lists_a_table_of_four_w_n_e_s(director_client, event, session20):
    play = play_of(session20, 1, 1)
    page = director_client.get(reverse("director:play", args=[event.pk, play.pk]))
    body = page.content.decode()
    facts = body[body.index('<dl class="facts">') : body.index("</dl>")]
    assert re.findall(r"<dt>([WNES])</dt>", facts) == ["W", "N", "E", "S"]
    # The adjustment form names the players in the same order.
    add = reverse("director:adjustment_add", args=[event.pk, play.pk])
    form = body[body.index(f'action="{add}') :]
    names = [entry_at(play, p).full_name for p in "WNES"]
    assert sorted(names, key=form.index) == names
