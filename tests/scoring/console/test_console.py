"""The director's live console of a room: the grid of sheets per table and deal, the disputes
and late tables, its JSON for three actors, the query bound, and several directors at once."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from events import rounds
from events.models import Event, Round
from scoring.console.board import console_state
from scoring.models import ScoreSheet
from scoring.sheets import services
from tests.console_board import board_doc
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of, seat_players, sheet, start

pytestmark = pytest.mark.django_db


def _round(session, number=1):
    return Round.objects.select_related("room__session__event").get(
        room__session=session, number=number
    )


def _room(session):
    return session.rooms.select_related("session__event").get()


def _console_url(session, **query):
    room = _room(session)
    url = reverse("director:room_console", args=[session.event.pk, room.pk])
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return url


def _page_url(session):
    return reverse("director:room_detail", args=[session.event.pk, _room(session).pk])


def _cell(state, table, deal):
    row = next(r for r in state.rows if r.table == table)
    return next(c for c in row.cells if c.deal == deal)


def _json_cell(doc, table, deal):
    row = next(r for r in doc["rows"] if r["table"] == table)
    return next(c for c in row["cells"] if c["deal"] == deal)


def _dispute(play):
    """N enters one result, E sends a different one: the sheet is disputed."""
    start(play.round)
    deal = deal_of(play, 1)
    services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "N"))
    return services.sheet_record(
        play, deal, sheet(tricks={"N": 8, "E": 2}), by_entry=entry_at(play, "E")
    ).sheet


def _scorer_post(**fields):
    """The director scorer form's «Save» for N «три» ♦, E whist, S pass (tricks overridable)."""
    data = {
        "declarer": "N",
        "contract": "three",
        "trump": "diamonds",
        "defence_E": "whist",
        "defence_S": "pass",
        "tricks_N": "7",
        "tricks_E": "3",
        "save": "1",
    }
    data.update(fields)
    sent = sheet(tricks={"N": int(data["tricks_N"]), "E": int(data["tricks_E"])})
    data["checked"] = services.data_digest(sent)
    return data


# --- the grid -------------------------------------------------------------------------------


def test_each_cell_shows_the_state_of_its_sheet_and_links_to_it(session15, director):
    rnd = start(_round(session15))
    one, two, three = (play_of(session15, 1, t) for t in (1, 2, 3))
    confirmed = services.sheet_record(one, deal_of(one, 1), THREE_DIAMONDS, by_user=director)
    entered = services.sheet_record(
        two, deal_of(two, 2), THREE_DIAMONDS, by_entry=entry_at(two, "N")
    )
    disputed = _dispute(three)

    state = console_state(_room(session15))

    assert state.round == rnd.number and state.round_state == "running"
    assert [r.table for r in state.rows] == [1, 2, 3, 4, 5]
    assert state.deals == [1, 2, 3]
    assert _cell(state, 1, 1).state == "confirmed"
    assert _cell(state, 2, 2).state == "entered"
    assert _cell(state, 3, 1).state == "disputed"
    assert _cell(state, 1, 2).state == "not_played"
    event = session15.event
    assert _cell(state, 1, 1).url == reverse("director:sheet", args=[event.pk, confirmed.sheet.pk])
    assert _cell(state, 2, 2).url == reverse("director:sheet", args=[event.pk, entered.sheet.pk])
    assert _cell(state, 3, 1).url == reverse("director:sheet", args=[event.pk, disputed.pk])
    assert _cell(state, 1, 2).url == reverse("director:sheet_form", args=[event.pk, one.pk, 2])
    assert _cell(state, 1, 1).code == f"{one.board_set.number}.1"
    assert state.counts == {
        "not_played": 12,
        "entered": 1,
        "confirmed": 1,
        "disputed": 1,
        "late": 0,
    }


def test_a_row_names_the_table_its_set_and_its_players(session15):
    play = play_of(session15, 1, 2)
    row = next(r for r in console_state(_room(session15)).rows if r.table == 2)
    assert row.set == play.board_set.number
    assert [p["position"] for p in row.players] == ["N", "E", "S"]
    assert row.players[0]["name"] == entry_at(play, "N").full_name
    assert row.url == reverse("director:play", args=[session15.event.pk, play.pk])


def test_tables_short_of_sheets_at_the_end_of_the_round_are_listed(session15, director):
    rnd = start(_round(session15))
    one, two = play_of(session15, 1, 1), play_of(session15, 1, 2)
    services.sheet_record(one, deal_of(one, 1), THREE_DIAMONDS, by_entry=entry_at(one, "N"))
    for number in (1, 2, 3):
        services.sheet_record(two, deal_of(two, number), THREE_DIAMONDS, by_user=director)
    before = console_state(_room(session15))
    assert before.late == [] and before.counts["late"] == 0

    rounds.round_end_now(rnd)
    state = console_state(_room(session15))

    row = {r.table: r for r in state.rows}
    assert row[1].late and not row[2].late and row[3].late
    # A deal nobody entered is not played, not late (issue 21, finding 13).
    assert [c.state for c in row[1].cells] == ["entered", "not_played", "not_played"]
    assert row[1].missing == 2
    assert [c.state for c in row[2].cells] == ["confirmed"] * 3
    assert [(t.round, t.table, t.missing) for t in state.late] == [
        (1, 1, 2),
        (1, 3, 3),
        (1, 4, 3),
        (1, 5, 3),
    ]
    assert state.late[0].url == reverse("director:play", args=[session15.event.pk, one.pk])
    assert state.counts["late"] == 0 and state.counts["not_played"] == 11
    # The director records what is missing at table 1: it is late no more.
    for number in (2, 3):
        services.sheet_record(one, deal_of(one, number), THREE_DIAMONDS, by_user=director)
    after = console_state(_room(session15))
    assert [t.table for t in after.late] == [3, 4, 5]
    assert not next(r for r in after.rows if r.table == 1).late


def test_the_disputes_of_every_round_of_the_room_are_listed(session15, director):
    first = _dispute(play_of(session15, 1, 4))
    start(_round(session15, 2))
    second = _dispute(play_of(session15, 2, 2))
    state = console_state(_room(session15))
    assert state.round == 2
    event = session15.event
    assert [(d.round, d.table, d.deal) for d in state.disputes] == [
        (1, 4, first.deal.code),
        (2, 2, second.deal.code),
    ]
    assert state.disputes[0].url == reverse("director:sheet", args=[event.pk, first.pk])


def test_by_default_the_grid_shows_the_round_on_the_clock_else_the_latest_finished(session15):
    room = _room(session15)
    assert console_state(room).round == 1  # nothing started yet
    rnd = start(_round(session15))
    assert console_state(room).round == 1
    rounds.round_end_now(rnd)
    assert console_state(room).round == 1  # the latest finished
    start(_round(session15, 2))
    assert console_state(room).round == 2
    chosen = console_state(room, round_number=1)
    assert chosen.round == 1 and chosen.round_state == "finished" and not chosen.following_clock


def test_the_version_changes_with_any_sheet_and_only_then(session15, director):
    room = _room(session15)
    first = console_state(room).version
    assert console_state(room).version == first
    play = play_of(session15, 1, 5)
    services.sheet_record(play, deal_of(play, 3), THREE_DIAMONDS, by_user=director)
    second = console_state(room).version
    assert second != first
    services.sheet_record(play, deal_of(play, 3), sheet(tricks={"N": 8, "E": 2}), by_user=director)
    assert console_state(room).version != second


def test_the_console_reads_a_fixed_number_of_queries_whatever_the_tables(
    session15, director, other_director, django_assert_max_num_queries
):
    from events.services import event_create

    big_event = event_create(owner=other_director, name="Большой", date="2026-12-07")
    session33 = seat_players(big_event, 33)  # 11 tables
    for session in (session15, session33):
        start(_round(session))
        for table in (1, 2, 3):
            play = play_of(session, 1, table)
            owner = session.event.owner
            services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=owner)
        _dispute(play_of(session, 1, 4))
    small, big = _room(session15), _room(session33)
    # Seven, and the room's open box reports (scoring.sheets.boxes).
    with django_assert_max_num_queries(8) as small_queries:
        small_state = console_state(small)
    with django_assert_max_num_queries(8) as big_queries:
        big_state = console_state(big)
    assert len(small_state.rows) == 5 and len(big_state.rows) == 11
    assert len(small_queries.captured_queries) == len(big_queries.captured_queries)


# --- the board the poller swaps in ---------------------------------------------------------


def test_the_board_belongs_to_the_events_director(client, director, other_client, session15):
    url = _console_url(session15)
    assert other_client.get(url).status_code == 404
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and reverse("director:login") in anonymous["Location"]
    client.force_login(director)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    doc = board_doc(response)
    assert doc["changed"] is True and doc["round"] == 1 and doc["round_state"] == "pending"
    assert set(doc) >= {"version", "rows", "counts", "disputes", "late", "results_public"}
    assert doc["rows"][0]["cells"][0]["state"] == "not_played"
    assert doc["counts"]["not_played"] == 15


def test_the_page_and_the_poller_draw_the_board_with_one_template(director_client, session15):
    """One renderer: the board in the room page is the board console.html answers."""
    room = _room(session15)
    page = director_client.get(reverse("director:room_detail", args=[session15.event.pk, room.pk]))
    board = director_client.get(_console_url(session15)).content.decode().strip()
    html = page.content.decode()
    start = html.index('<div id="console-board"')
    assert board.startswith('<div id="console-board"')
    assert html[start : start + len(board)] == board
    assert "<form" not in board and "csrfmiddlewaretoken" not in board  # one copy for all


def test_an_unknown_round_is_not_found(director_client, session15):
    assert director_client.get(_console_url(session15, round=9)).status_code == 404
    assert director_client.get(_console_url(session15, round="x")).status_code == 400  # issue 11
    assert board_doc(director_client.get(_console_url(session15, round=2)))["round"] == 2


def test_a_poll_with_the_current_version_answers_only_that_nothing_changed(
    director_client, session15, director
):
    doc = board_doc(director_client.get(_console_url(session15)))
    same = board_doc(director_client.get(_console_url(session15, since=doc["version"])))
    assert same == {"version": doc["version"], "changed": False}
    play = play_of(session15, 1, 1)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    fresh = board_doc(director_client.get(_console_url(session15, since=doc["version"])))
    assert fresh["changed"] is True and _json_cell(fresh, 1, 1)["state"] == "confirmed"


# --- several directors at once --------------------------------------------------------------


@pytest.fixture
def root_client(superuser):
    other = Client()
    other.force_login(superuser)
    return other


def test_two_directors_see_each_others_changes(director_client, root_client, session15):
    start(_round(session15))
    play = play_of(session15, 1, 1)
    entered = services.sheet_record(
        play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N")
    ).sheet
    owner_view = board_doc(director_client.get(_console_url(session15)))
    root_view = board_doc(root_client.get(_console_url(session15)))
    assert owner_view["version"] == root_view["version"]
    assert _json_cell(root_view, 1, 1)["state"] == "entered"
    event = session15.event

    # The superuser confirms the sheet: the owner's next poll sees it.
    confirm = reverse("director:sheet_confirm", args=[event.pk, entered.pk])
    assert root_client.post(confirm).status_code == 302
    seen = board_doc(director_client.get(_console_url(session15, since=owner_view["version"])))
    assert seen["changed"] and _json_cell(seen, 1, 1)["state"] == "confirmed"

    # The owner corrects it through the scorer form: the superuser sees version 2.
    form = reverse("director:sheet_form", args=[event.pk, play.pk, 1])
    saved = director_client.post(form, _scorer_post(tricks_N="8", tricks_E="2", expected_version=1))
    assert saved.status_code == 302
    now = board_doc(root_client.get(_console_url(session15, since=seen["version"])))
    assert now["changed"] and _json_cell(now, 1, 1)["version"] == 2
    assert _json_cell(now, 1, 1)["state"] == "confirmed"


def test_a_stale_correction_is_refused_with_the_reason_and_changes_nothing(
    director_client, root_client, session15, director
):
    director_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    play = play_of(session15, 1, 1)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    form = reverse("director:sheet_form", args=[session15.event.pk, play.pk, 1])
    # Both directors open the sheet at version 1.
    assert 'name="expected_version" value="1"' in director_client.get(form).content.decode()
    assert 'name="expected_version" value="1"' in root_client.get(form).content.decode()
    # The superuser saves first.
    first = root_client.post(form, _scorer_post(tricks_N="8", tricks_E="2", expected_version=1))
    assert first.status_code == 302
    before = board_doc(director_client.get(_console_url(session15)))

    # The owner's save starts from version 1: refused, not merged.
    late = director_client.post(form, _scorer_post(tricks_N="6", tricks_E="4", expected_version=1))

    assert late.status_code == 400  # refused: the form again, with why
    body = late.content.decode()
    assert "The sheet has changed meanwhile: it is now at version 2, you edited version 1." in body
    saved = ScoreSheet.objects.select_related("current").get(play=play)
    assert saved.current.number == 2 and saved.versions.count() == 2
    assert saved.current.data["tricks"] == {"N": 8, "E": 2}
    after = board_doc(director_client.get(_console_url(session15, since=before["version"])))
    assert after == {"version": before["version"], "changed": False}


# --- the page -------------------------------------------------------------------------------


def test_the_room_page_shows_the_console_with_its_links(director_client, session15, director):
    start(_round(session15))
    _dispute(play_of(session15, 1, 2))
    director_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = director_client.get(_page_url(session15))
    assert response.status_code == 200
    body = response.content.decode()
    event = session15.event
    assert 'id="console-grid"' in body and "<caption" in body
    assert "score sheets by table and deal" in body
    assert 'data-state="disputed"' in body and "⚠" in body
    assert reverse("director:session", args=[event.pk, 1]) + "#substitute" in body
    assert reverse("director:adjustments", args=[event.pk]) in body
    assert reverse("director:publish", args=[event.pk]) in body
    assert 'name="public" value="1"' in body
    assert _console_url(session15) in body
    assert "Round 1, table 2, deal" in body  # the disputes list
    assert "js/console.js" in body


def test_the_room_page_shows_a_chosen_round_and_refuses_an_unknown_one(director_client, session15):
    page = director_client.get(_page_url(session15) + "?round=3")
    assert page.status_code == 200
    assert page.context["console"].round == 3
    assert _console_url(session15, round=3) in page.content.decode()
    assert director_client.get(_page_url(session15) + "?round=77").status_code == 404


def test_the_room_page_belongs_to_the_events_director(client, other_client, session15):
    assert other_client.get(_page_url(session15)).status_code == 404
    assert client.get(_page_url(session15)).status_code == 302


def test_publishing_from_the_console_shows_in_its_json(director_client, session15):
    event = session15.event
    doc = board_doc(director_client.get(_console_url(session15)))
    assert doc["results_public"] is False
    director_client.post(reverse("director:publish", args=[event.pk]), {"public": "1"})
    assert Event.objects.get(pk=event.pk).results_public
    now = board_doc(director_client.get(_console_url(session15, since=doc["version"])))
    assert now["changed"] and now["results_public"] is True


def test_publishing_without_javascript_comes_back_to_the_console(director_client, session15):
    event = session15.event
    room = session15.rooms.get()
    console = f"/director/events/{event.pk}/rooms/{room.pk}/"
    response = director_client.post(
        f"/director/events/{event.pk}/scores/publish/", {"public": "1", "next": console}
    )
    assert response.status_code == 302 and response["Location"] == console
    event.refresh_from_db()
    assert event.results_public
    away = director_client.post(
        f"/director/events/{event.pk}/scores/publish/",
        {"public": "0", "next": "https://elsewhere.example/"},
    )
    assert away["Location"] == f"/director/events/{event.pk}/scores/"


def test_after_a_save_only_that_tables_row_is_read_again(session15, director):
    """The grid's rows are kept per table (under its token): a save at table 2 reads the
    sheets, deals and seats of table 2 alone, and the grid shows it; the other rows come as
    they were. A substitute's name and the late marks at «Конец тура!» show as well."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from events.models import Seat
    from events.services import entry_create
    from movements.services import seat_substitute

    start(_round(session15))
    room = _room(session15)
    console_state(room)  # every row built and kept
    play = play_of(session15, 1, 2)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    with CaptureQueriesContext(connection) as captured:
        state = console_state(room)
    sheet_reads = [q["sql"] for q in captured if '"scoring_scoresheet"' in q["sql"]]
    rows_read = [sql for sql in sheet_reads if "play_id" in sql and " IN (" in sql]
    assert len(rows_read) == 1 and f"IN ({play.pk})" in rows_read[0]
    by_table = {r.table: r for r in state.rows}
    assert by_table[2].cells[0].state == "confirmed"
    assert all(c.state == "not_played" for t, r in by_table.items() if t != 2 for c in r.cells)
    # A substitute at table 3: his name is on its row at once.
    leaving = Seat.objects.get(round__room=room, round__number=1, table__number=3, position="N")
    late = entry_create(session15.event, last_name="Поздний", first_name="Пётр")
    seat_substitute(session15, leaving=leaving.entry, arriving=late, from_round=1, by=director)
    row3 = next(r for r in console_state(room).rows if r.table == 3)
    assert row3.players[0]["name"] == late.full_name
    # «Конец тура!»: the tables short of sheets are marked; their deals stay not played.
    rounds.round_end_now(Round.objects.get(room=room, number=1))
    rows = {r.table: r for r in console_state(room).rows}
    assert rows[1].late and all(c.state == "not_played" for c in rows[1].cells)
    assert rows[2].late and rows[2].cells[0].state == "confirmed"
