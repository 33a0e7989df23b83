"""The console after «Конец тура!» (issue 21, finding 13): a deal nobody entered is «не
сыграна» (not played, no result), never «опоздание»; «опоздание» is only a sheet the table
entered or confirmed after the bell, and the summary counts the two apart. A row lists its
players round the table, W N E S (finding 14)."""

import re

import pytest
from django.urls import reverse

from events import rounds
from events.models import Round
from scoring.console.board import console_state
from scoring.models import Proof
from scoring.sheets import services
from tests.console_board import board_doc
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of, start

pytestmark = pytest.mark.django_db


def _room(session):
    return session.rooms.select_related("session__event").get()


def _row(state, table):
    return next(r for r in state.rows if r.table == table)


def _ended_with_one_sheet(session15, director):
    """Round 1 ended: table 1 entered deal 1 before the bell (not confirmed), table 2
    recorded all three deals, tables 3–5 nothing."""
    rnd = start(Round.objects.get(room__session=session15, number=1))
    one, two = play_of(session15, 1, 1), play_of(session15, 1, 2)
    services.sheet_record(
        one, deal_of(one, 1), THREE_DIAMONDS, by_entry=entry_at(one, "N"), proof=Proof.PIN
    )
    for number in (1, 2, 3):
        services.sheet_record(two, deal_of(two, number), THREE_DIAMONDS, by_user=director)
    rounds.round_end_now(rnd)
    return one


def test_after_the_bell_a_deal_without_a_sheet_is_not_played_not_late(session15, director):
    _ended_with_one_sheet(session15, director)

    state = console_state(_room(session15))

    assert state.round_state == "finished"
    no_sheet = [c for r in state.rows for c in r.cells if c.sheet is None]
    assert len(no_sheet) == 11
    assert {c.state for c in no_sheet} == {"not_played"}
    assert state.counts == {
        "not_played": 11,
        "entered": 1,
        "confirmed": 3,
        "disputed": 0,
        "late": 0,
    }


def test_a_sheet_entered_or_confirmed_after_the_bell_is_late_and_counted_apart(session15, director):
    one = _ended_with_one_sheet(session15, director)
    # Deal 1 was entered in time and is confirmed after the bell; deal 2 is entered after it.
    sheet = services.sheet_record(
        one, deal_of(one, 1), THREE_DIAMONDS, by_entry=entry_at(one, "N"), proof=Proof.PIN
    ).sheet
    services.sheet_confirm(sheet, by_entry=entry_at(one, "E"), proof=Proof.PIN)
    services.sheet_record(
        one, deal_of(one, 2), THREE_DIAMONDS, by_entry=entry_at(one, "S"), proof=Proof.PIN
    )

    state = console_state(_room(session15))

    cells = _row(state, 1).cells
    assert [(c.state, c.late) for c in cells] == [
        ("confirmed", True),
        ("entered", True),
        ("not_played", False),
    ]
    assert state.counts["late"] == 2  # the two sheets written after the bell
    assert state.counts["not_played"] == 10  # deal 3 here, and tables 3–5
    assert _row(state, 1).late and _row(state, 1).missing == 1
    # A sheet the director writes after the bell is his word, not the table's lateness.
    three = play_of(session15, 1, 3)
    services.sheet_record(three, deal_of(three, 1), THREE_DIAMONDS, by_user=director)
    assert console_state(_room(session15)).counts["late"] == 2


def test_the_board_says_not_played_and_late_apart_in_russian(director_client, session15, director):
    one = _ended_with_one_sheet(session15, director)
    services.sheet_record(
        one, deal_of(one, 2), THREE_DIAMONDS, by_entry=entry_at(one, "S"), proof=Proof.PIN
    )
    room = _room(session15)
    url = reverse("director:room_console", args=[session15.event.pk, room.pk])

    response = director_client.get(url, HTTP_ACCEPT_LANGUAGE="ru")

    doc = board_doc(response)
    assert doc["counts"]["not_played"] == 10 and doc["counts"]["late"] == 1
    row = next(r for r in doc["rows"] if r["table"] == 1)
    assert [c["state"] for c in row["cells"]] == ["entered", "entered", "not_played"]
    assert [c["late"] for c in row["cells"]] == [False, True, False]
    html = response.content.decode()
    assert "не сыграна: <strong data-count>10</strong>" in html
    assert "опоздание: <strong data-count>1</strong>" in html
    # A table short of sheets is told by the deals it lacks, not called late.
    table_3 = html[html.index('<tr data-table="3"') :]
    table_3 = table_3[: table_3.index("</th>")]
    assert "опоздание" not in table_3 and "3 сдачи без протокола" in table_3
    assert not re.search(r'<td[^>]*data-state="late"', html)  # no cell is late for lack of a sheet


def test_a_row_lists_its_players_round_the_table_w_n_e_s(session20):
    state = console_state(_room(session20))
    assert [p["position"] for p in _row(state, 1).players] == ["W", "N", "E", "S"]
