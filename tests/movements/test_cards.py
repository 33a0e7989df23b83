"""Movement cards: the grid, table cards with «where the set goes», participant cards, CSV."""

import csv
import io

import pytest
from django.urls import reverse

from events.models import Seat
from movements import cards, engine, seating
from movements.services import seat_substitute, session_create
from tests.movements.conftest import add_players, option_for

# --- pure: straight from the engine ---------------------------------------------------------


def prime_room(tables=5, seats=4, rounds=None):
    return cards.room_from_schedule(engine.prime_schedule(tables, seats, rounds))


def test_in_a_prime_room_the_set_goes_to_the_table_below_and_from_table_1_to_the_last():
    for card in cards.table_cards(prime_room(7, 4)):
        for row in card.rows[:-1]:
            expected = card.table - 1 if card.table > 1 else 7
            assert row.goes_to == (expected,), (card.table, row.round)


def test_after_the_last_round_every_set_goes_to_the_director():
    for card in cards.table_cards(prime_room(5, 3)):
        assert card.rows[-1].last and card.rows[-1].goes_to == ()
        assert not any(row.last for row in card.rows[:-1])


def test_a_shorter_session_ends_with_the_sets_at_the_director():
    room = prime_room(5, 4, rounds=3)
    last = [card.rows[-1] for card in cards.table_cards(room)]
    assert {row.round for row in last} == {3} and all(row.goes_to == () for row in last)


def test_a_table_card_lists_who_sits_where_and_which_set_in_every_round():
    card = cards.table_cards(prime_room(5, 4))[1]  # table 2
    assert card.table == 2 and card.positions == ("N", "E", "S", "W")
    first, second = card.rows[0], card.rows[1]
    assert first.set_label == "2"
    assert [(p, w.participant) for p, w in first.seats] == [
        ("N", 2),
        ("E", 7),
        ("S", 12),
        ("W", 17),
    ]
    # round 2: N stays, E comes from table 1 (+1), S from table 5 (+2), W from table 4 (−2)
    assert [(p, w.participant) for p, w in second.seats] == [
        ("N", 2),
        ("E", 6),
        ("S", 15),
        ("W", 19),
    ]
    assert second.set_label == "3"


def test_three_player_tables_have_no_w_column():
    card = cards.table_cards(prime_room(5, 3))[0]
    assert card.positions == ("N", "E", "S")
    assert all(len(row.seats) == 3 for row in card.rows)


def test_a_set_that_two_tables_play_next_round_goes_to_both():
    def tr(table, board_set):
        return cards.TableRound(table, board_set, str(board_set), {"N": cards.Sitter(table)})

    rounds = (
        cards.RoomRound(1, (tr(1, 1), tr(2, 2))),
        cards.RoomRound(2, (tr(1, 2), tr(2, 2))),
    )
    room = cards.RoomSeating(1, "1", "scheme", (1, 2), ("N",), rounds)
    one, two = cards.table_cards(room)
    assert one.rows[0].goes_to == () and two.rows[0].goes_to == (1, 2)


def test_in_the_8_scheme_both_tables_hand_their_set_to_the_director_every_round():
    # each group of tables sharing a set plays a fresh set every round
    room = cards.room_from_schedule(engine.builtin_scheme_schedule(8))
    for card in cards.table_cards(room):
        assert [r.set_label for r in card.rows] == [str(n) for n in range(1, 8)]
        assert all(row.goes_to == () for row in card.rows)


def test_a_set_played_by_no_table_next_round_goes_to_the_director():
    # the 12-scheme: each table its own set, a fresh one every round
    room = cards.room_from_schedule(engine.builtin_scheme_schedule(12))
    assert all(row.goes_to == () for card in cards.table_cards(room) for row in card.rows)


def test_participant_cards_show_every_round_with_pauses():
    room = cards.room_from_schedule(engine.builtin_scheme_schedule(9))
    found = cards.participant_cards([room])
    assert [c.participant for c in found] == list(range(1, 10))
    for card in found:
        assert [r.round for r in card.rows] == list(range(1, 10))
        pauses = [r for r in card.rows if r.is_pause]
        assert len(pauses) == 1 and pauses[0].table is None and pauses[0].position == ""


def test_a_participant_card_follows_the_prime_moves():
    (card,) = [c for c in cards.participant_cards([prime_room(5, 4)]) if c.participant == 7]
    # participant 7 starts at table 2 E and moves +1 table a round
    assert [(r.table, r.position) for r in card.rows] == [
        (2, "E"),
        (3, "E"),
        (4, "E"),
        (5, "E"),
        (1, "E"),
    ]
    assert [r.set_label for r in card.rows] == ["2", "4", "1", "3", "5"]


def test_the_grid_aligns_cells_with_tables_and_lists_pauses():
    room = cards.room_from_schedule(engine.builtin_scheme_schedule(13))
    rows = cards.grid(room)
    assert len(rows) == 13 and room.tables == (1, 2, 3) and room.has_pauses
    assert all(len(r.cells) == 3 and len(r.pauses) == 1 for r in rows)
    assert [c.table for c in rows[0].cells] == [1, 2, 3]


def test_csv_text_starts_with_a_bom_and_parses_back():
    text = cards.csv_text(["a", "b"], [[1, "Иванов"], [2, "Пётр; Петров"]])
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    assert rows == [["a", "b"], ["1", "Иванов"], ["2", "Пётр; Петров"]]


# --- from the database ----------------------------------------------------------------------

db = pytest.mark.django_db


@db
def test_the_seating_read_from_the_database_is_the_engines(event):
    add_players(event, 20)
    session = session_create(event, option_for(20, kind="prime", tables=5, seats=4))
    (room,) = seating.session_seating(session)
    expected = prime_room(5, 4)
    assert room.tables == expected.tables and room.positions == expected.positions
    for got, want in zip(room.rounds, expected.rounds, strict=True):
        assert [
            (t.table, t.set, {p: w.participant for p, w in t.seats.items()}) for t in got.tables
        ] == [(t.table, t.set, {p: w.participant for p, w in t.seats.items()}) for t in want.tables]
    assert all(w.name.startswith("Игрок") for t in room.rounds[0].tables for w in t.seats.values())


@db
def test_twin_rooms_play_sets_of_one_family_without_letters(event):
    add_players(event, 26)
    twins = session_create(event, option_for(26, kind="scheme", participants=13))
    labels = {t.set_label for r in seating.session_seating(twins) for t in r.rounds[0].tables}
    assert labels == {"1", "2"}


@db
def test_rooms_with_different_movements_get_family_letters(other_event):
    add_players(other_event, 35)
    option = option_for(35, kind="prime")
    assert [(r["tables"], r["seats"]) for r in option["rooms"]] == [(5, 4), (5, 3)]
    one, two = seating.session_seating(session_create(other_event, option))
    assert one.rounds[0].tables[0].set_label == "A1"
    assert two.rounds[0].tables[0].set_label == "B1"


@db
def test_a_substitute_shows_on_the_participant_card_from_his_round_on(event):
    by_number = add_players(event, 20)
    session = session_create(event, option_for(20, kind="prime", tables=5, seats=4))
    late = event.entries.create(last_name="Поздний", first_name="Пётр")
    seat_substitute(session, leaving=by_number[3], arriving=late, from_round=4)
    (card,) = [
        c for c in cards.participant_cards(seating.session_seating(session)) if c.participant == 3
    ]
    assert [r.name for r in card.rows] == [by_number[3].full_name] * 3 + ["Поздний Пётр"] * 2
    assert card.names == (by_number[3].full_name, "Поздний Пётр")


# --- pages and CSV --------------------------------------------------------------------------


def _csv(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:]), delimiter=";"))


def _urls(event, session, name):
    return reverse(f"director:{name}", args=[event.pk, session.number])


@db
def test_the_grid_csv_has_a_row_per_round_and_table(director_client, event, seated):
    session, by_number = seated
    rows = _csv(director_client.get(_urls(event, session, "grid_csv"), HTTP_ACCEPT_LANGUAGE="en"))
    header, body = rows[0], rows[1:]
    assert header[:4] == ["Room", "Round", "Table", "Set"] and header[4:6] == ["N №", "N"]
    assert len(body) == 5 * 5
    first = body[0]
    assert first[1:4] == ["1", "1", "1"]
    assert first[4:6] == ["1", by_number[1].full_name]
    assert first[10:12] == ["16", by_number[16].full_name]  # W of table 1 in round 1


@db
def test_the_table_cards_csv_says_where_each_set_goes(director_client, event, seated):
    session, _ = seated
    rows = _csv(director_client.get(_urls(event, session, "table_csv"), HTTP_ACCEPT_LANGUAGE="en"))
    header, body = rows[0], rows[1:]
    assert header[-1] == "Set goes to"
    assert len(body) == 25
    goes = {(int(r[1]), int(r[2])): r[-1] for r in body}
    assert goes[(1, 1)] == "5" and goes[(3, 2)] == "2" and goes[(4, 5)] == "director"


@db
def test_the_participant_cards_csv_has_a_row_per_participant_and_round(
    director_client, event, seated
):
    session, by_number = seated
    rows = _csv(
        director_client.get(_urls(event, session, "participant_csv"), HTTP_ACCEPT_LANGUAGE="en")
    )
    header, body = rows[0], rows[1:]
    assert header == ["Participant", "Player", "Round", "Room", "Table", "Position", "Set"]
    assert len(body) == 20 * 5
    seven = [r for r in body if r[0] == "7"]
    assert [(r[4], r[5], r[6]) for r in seven] == [
        ("2", "E", "2"),
        ("3", "E", "4"),
        ("4", "E", "1"),
        ("5", "E", "3"),
        ("1", "E", "5"),
    ]
    assert seven[0][1] == by_number[7].full_name


@db
def test_the_csv_of_a_scheme_with_pauses_marks_them(director_client, event):
    add_players(event, 9)
    session = session_create(event, option_for(9, kind="scheme"))
    grid = _csv(director_client.get(_urls(event, session, "grid_csv"), HTTP_ACCEPT_LANGUAGE="en"))
    pause_rows = [r for r in grid[1:] if r[2] == ""]
    assert len(pause_rows) == 9 and all(r[-1] for r in pause_rows)
    people = _csv(
        director_client.get(_urls(event, session, "participant_csv"), HTTP_ACCEPT_LANGUAGE="en")
    )
    assert sum(1 for r in people[1:] if r[5] == "pause") == 9


@db
def test_the_table_card_page_shows_seats_sets_and_destinations(director_client, event, seated):
    session, by_number = seated
    url = _urls(event, session, "table_cards")
    page = director_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count('class="sheet"') == 5
    assert "css/cards.css" in page and "paper-a4" in page
    assert by_number[17].full_name in page
    one = director_client.get(url + "?table=1&paper=a5", HTTP_ACCEPT_LANGUAGE="en")
    text = one.content.decode()
    assert one.status_code == 200 and text.count('class="sheet"') == 1 and "paper-a5" in text
    assert "table 5" in text and "the director" in text
    assert director_client.get(url + "?table=9").status_code == 404


@db
def test_the_participant_card_page_shows_one_card_per_participant(director_client, event, seated):
    session, by_number = seated
    url = _urls(event, session, "participant_cards")
    page = director_client.get(url).content.decode()
    assert page.count('class="sheet"') == 20
    one = director_client.get(url + "?participant=7", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert one.count('class="sheet"') == 1 and by_number[7].full_name in one
    assert director_client.get(url + "?participant=21").status_code == 404


@db
def test_the_session_page_shows_the_whole_grid_with_names(director_client, event, seated):
    session, by_number = seated
    page = director_client.get(_urls(event, session, "session")).content.decode()
    assert page.count("<tr>") >= 5
    for number in (1, 5, 20):
        assert by_number[number].full_name in page
    assert Seat.objects.filter(round__room__session=session).count() == 100


@pytest.mark.django_db
def test_each_table_card_carries_the_tables_scoring_qr(director_client, session15):
    from events.models import Table

    event = session15.event
    page = director_client.get(f"/director/events/{event.pk}/sessions/1/tables/")
    body = page.content.decode()
    for table in Table.objects.filter(room__session=session15):
        assert f"/t/{table.key}/" in body
    assert body.count('class="table-qr"') == 5 and body.count("<svg") >= 5
