"""The table's pages keep its table, round, set and seats under the tokens that change with
them (``scoring.sheets.table_state._table_state``): a phone's page, deal form, «Check» and «Save»
read them once per change, and every change that matters shows on the very next request —
the round's clock, the director's access, a substitute, the seating, the table's sheets."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events import rounds
from events import services as event_services
from events.models import Round, Seat
from movements.services import seat_substitute
from scoring.models import Proof
from scoring.sheets import services
from tests.factories import play_of, round_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(session15):
    rounds.round_start(Round.objects.get(room__session=session15, number=1))
    return play_of(session15, 1, 1)


def _get(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), len(captured)


def _past_the_gate(client, play, position="N"):
    """A finished round's pages show its sheets only to someone who sat there: his seat and
    PIN typed at its «Тур окончен» page prove him on this phone (docs/game.md §4.5)."""
    pin = Seat.objects.get(round=play.round, table=play.table, position=position).entry.pin
    assert client.post(round_link(play), {"as": position, "pin": pin}).status_code == 302


def test_the_second_request_of_a_table_reads_none_of_its_table_round_set_or_seats(client, running):
    url = round_link(running, "deals/1/")
    _body, first = _get(client, url)
    _body, again = _get(client, url)
    # The table-round by its key (with its table, round, the next round and set, in one
    # query), its seats and the set's deals: three queries fewer; the sheet is still read,
    # and the deal's box (its talon, as another table may just have recorded it:
    # scoring.sheets.boxes.deal_page), and whether the table has played the deal — the director's
    # score here, or his showing the session's deals — which says if its talon may show
    # (scoring.standings.disclosure).
    assert again == first - 3
    assert again == 3


def test_the_end_of_the_round_and_the_start_of_the_next_show_on_the_next_request(client, running):
    url = round_link(running, "deals/1/")
    assert client.get(url).context["access"] == services.players_access(running)
    assert not client.get(url).context["access"].late
    rounds.round_end_now(Round.objects.get(pk=running.round_id))
    assert client.get(round_link(running)).context["round"].state == "finished"
    # «Тур окончен»: the table's phone sees the round's sheets once a player of it proves
    # himself (his PIN at the round's page).
    assert client.get(url).status_code == 302
    _past_the_gate(client, running)
    access = client.get(url).context["access"]
    assert access.open and access.late  # after «Конец тура!»: still open, marked late
    rounds.round_start(Round.objects.get(room=running.round.room, number=2))
    assert not client.get(url).context["access"].open  # its next round has started
    assert client.get(round_link(running)).context["moved_on"]  # round 1's link: its own only
    assert client.get(f"/t/{running.table.key}/").context["round"].number == 2  # the gate


def test_a_table_the_director_closes_is_closed_on_its_next_request(client, running, director):
    url = round_link(running, "deals/1/")
    _get(client, url)
    rounds.round_end_now(Round.objects.get(pk=running.round_id))
    _past_the_gate(client, running)  # «Тур окончен»: a player of the round proves himself
    _get(client, url)
    services.play_access_set(running, "closed", by_user=director)
    body, _ = _get(client, url)
    assert 'name="check"' not in body
    assert "судья его закрыл" in body or "закрыл" in body
    # Opened again (the whole round, from the scores page): the form is back.
    services.round_access_set(running.round, "open", by_user=director)
    body, _ = _get(client, url)
    assert 'name="check"' in body


def test_a_substitute_shows_at_the_table_on_its_next_request(client, session15, director):
    play = play_of(session15, 1, 1)
    rounds.round_start(play.round)  # a round not started shows no seats
    url = round_link(play, "deals/1/")
    leaving = Seat.objects.get(round=play.round, table=play.table, position="N").entry
    body, _ = _get(client, url)
    assert leaving.full_name in body
    late = event_services.entry_create(session15.event, last_name="Поздний", first_name="Пётр")
    seat_substitute(session15, leaving=leaving, arriving=late, from_round=1, by=director)
    body, _ = _get(client, url)
    assert "Поздний" in body and leaving.full_name not in body


def test_a_sheet_saved_shows_on_the_tables_page_at_once(client, running):
    url = round_link(running)
    body, _ = _get(client, url)
    assert "Подтвердить" not in body
    north = Seat.objects.get(round=running.round, table=running.table, position="N").entry
    services.sheet_record(
        running,
        running.board_set.deals.get(number=1),
        {
            "declarer": "N",
            "contract": "three",
            "trump": "diamonds",
            "defenders": {"E": "whist", "S": "pass"},
            "tricks": {"N": 7, "E": 3},
        },
        by_entry=north,
        # With his PIN: one entered without it offers no confirmation to the phone that
        # entered it (none said here: any phone).
        proof=Proof.PIN,
    )
    body, _ = _get(client, url)
    assert "Подтвердить" in body
