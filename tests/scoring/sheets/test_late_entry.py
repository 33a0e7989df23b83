"""After «Конец тура!» a table may still enter and confirm its sheets until its next round
starts (the last round of a session until the director closes it); what it writes then is
marked late; the director may close a table earlier and open it again later."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from events import rounds
from events.models import Round
from scoring.models import Proof, ScoreSheet, TablePlay
from scoring.sheets import services
from tests.factories import (
    THREE_DIAMONDS,
    deal_of,
    entry_at,
    finish,
    play_of,
    round_link,
    start,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def play(session15):
    return play_of(session15, 1, 1)


def _fresh(play):
    return play_of(play.round.room.session, play.round.number, play.table.number)


#: The phones (``scoring.sheets.device.device_hash``) a sheet is entered on without a PIN and
#: confirmed from: two phones, as the two-person rule asks of such an entry.
TABLE_PHONE, OWN_PHONE = "table-phone", "own-phone"


def _reason(excinfo) -> str:
    return " ".join(excinfo.value.message_dict["round"])


def test_before_the_round_starts_the_table_is_closed_and_says_why(play):
    access = services.players_access(play)
    assert not access.open and not access.late
    assert access.reason == "Тур 1 ещё не начался: протоколы можно вносить, когда он начнётся."


def test_on_the_clock_the_table_is_open_and_nothing_is_late(play):
    start(play.round)
    access = services.players_access(_fresh(play))
    assert access.open and not access.late and access.reason == ""
    done = services.sheet_record(
        play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N")
    )
    assert not done.sheet.late


def test_after_the_bell_a_table_enters_and_confirms_its_sheets_marked_late(play):
    finish(play.round)
    play = _fresh(play)
    access = services.players_access(play)
    assert access.open and access.late
    assert "до начала тура 2" in access.reason
    done = services.sheet_record(
        play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N"), device=TABLE_PHONE
    )
    assert done.outcome == "created" and done.sheet.late and done.sheet.status == "entered"
    services.sheet_confirm(
        done.sheet, by_entry=entry_at(play, "E"), proof=Proof.PIN, device=OWN_PHONE
    )
    sheet = ScoreSheet.objects.get(pk=done.sheet.pk)
    assert sheet.status == "confirmed" and sheet.late


def test_a_sheet_entered_in_time_and_confirmed_after_the_bell_is_late(play):
    start(play.round)
    done = services.sheet_record(
        play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N"), device=TABLE_PHONE
    )
    rounds.round_end_now(play.round)
    services.sheet_confirm(
        done.sheet, by_entry=entry_at(play, "S"), proof=Proof.PIN, device=OWN_PHONE
    )
    sheet = ScoreSheet.objects.get(pk=done.sheet.pk)
    assert sheet.status == "confirmed" and sheet.late


def test_a_different_result_after_the_bell_is_still_a_dispute(play):
    start(play.round)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N"))
    rounds.round_end_now(play.round)
    other = {**THREE_DIAMONDS, "tricks": {"N": 6, "E": 4}}
    done = services.sheet_record(
        _fresh(play), deal_of(play, 1), other, by_entry=entry_at(play, "E")
    )
    assert done.outcome == "disputed" and done.sheet.late


def test_once_the_next_round_starts_the_table_is_refused_with_the_reason(play, director):
    finish(play.round)
    start(Round.objects.get(room=play.round.room, number=2))
    play = _fresh(play)
    access = services.players_access(play)
    assert not access.open
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N"))
    assert _reason(excinfo) == access.reason
    assert "тур 2 начался" in access.reason and "только судья" in access.reason
    assert not ScoreSheet.objects.exists()
    # The director still records and corrects whatever he likes.
    done = services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    assert done.outcome == "created" and not done.sheet.late


def test_a_confirmation_is_refused_too_once_the_next_round_started(play):
    finish(play.round)
    play = _fresh(play)
    done = services.sheet_record(
        play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N")
    )
    start(Round.objects.get(room=play.round.room, number=2))
    with pytest.raises(ValidationError) as excinfo:
        services.sheet_confirm(done.sheet, by_entry=entry_at(play, "E"), proof=Proof.PIN)
    assert "тур 2 начался" in _reason(excinfo)
    assert ScoreSheet.objects.get().status == "entered"


def test_the_last_round_stays_open_until_the_director_closes_it(play, director):
    last = Round.objects.filter(room=play.round.room).order_by("-number").first()
    finish(last)
    final = play_of(play.round.room.session, last.number, 1)
    access = services.players_access(final)
    assert access.open and access.late and "пока судья не закроет тур" in access.reason
    assert services.round_access_set(last, "closed", by_user=director) == 5
    final = _fresh(final)
    access = services.players_access(final)
    assert not access.open and "судья закрыл" in access.reason
    with pytest.raises(ValidationError):
        services.sheet_record(
            final, deal_of(final, 1), THREE_DIAMONDS, by_entry=entry_at(final, "N")
        )


def test_the_director_closes_a_table_before_its_next_round_starts(play, director):
    finish(play.round)
    services.play_access_set(play, "closed", by_user=director)
    assert not services.players_access(_fresh(play)).open
    other = play_of(play.round.room.session, 1, 2)
    assert services.players_access(other).open  # the other tables are still open


def test_the_director_opens_a_table_again_after_its_next_round_started(play, director):
    finish(play.round)
    start(Round.objects.get(room=play.round.room, number=2))
    services.play_access_set(play, "open", by_user=director)
    play = _fresh(play)
    access = services.players_access(play)
    assert access.open and access.late and "снова открыл тур 1" in access.reason
    # The round is no longer at the table: the table's link alone may not write it.
    assert not access.at_table_now
    with pytest.raises(ValidationError) as refused:
        services.sheet_record(play, deal_of(play, 2), THREE_DIAMONDS, by_entry=entry_at(play, "S"))
    assert "больше не за этим столом" in refused.value.message_dict["pin"][0]
    done = services.sheet_record(
        play, deal_of(play, 2), THREE_DIAMONDS, by_entry=entry_at(play, "S"), proof=Proof.PIN
    )
    assert done.sheet.late and done.version.proof == Proof.PIN
    # Only that table: the others of round 1 stay closed.
    assert not services.players_access(play_of(play.round.room.session, 1, 2)).open
    # Closed again, and then left to the clock (which keeps it closed: round 2 is on).
    services.play_access_set(play, "closed", by_user=director)
    assert not services.players_access(_fresh(play)).open
    services.play_access_set(play, "", by_user=director)
    assert not services.players_access(_fresh(play)).open


def test_only_a_finished_rounds_tables_are_opened_or_closed(play, director):
    with pytest.raises(ValidationError):
        services.play_access_set(play, "open", by_user=director)
    start(play.round)
    with pytest.raises(ValidationError):
        services.round_access_set(play.round, "closed", by_user=director)
    rounds.round_end_now(play.round)
    with pytest.raises(ValidationError):
        services.play_access_set(play, "sometimes", by_user=director)
    assert TablePlay.objects.get(pk=play.pk).players_access == ""


def test_another_director_cannot_open_or_close_a_table(play, other_director):
    finish(play.round)
    with pytest.raises(PermissionDenied):
        services.play_access_set(play, "closed", by_user=other_director)
    with pytest.raises(PermissionDenied):
        services.round_access_set(play.round, "closed", by_user=other_director)
    assert services.players_access(_fresh(play)).open


def test_the_access_of_many_tables_is_read_in_a_fixed_number_of_queries(
    session15, django_assert_max_num_queries
):
    finish(Round.objects.get(room__session=session15, number=1))
    plays = list(TablePlay.objects.filter(round__room__session=session15).select_related("round"))
    with django_assert_max_num_queries(1):
        access = services.plays_access(plays)
    assert sum(a.open for a in access.values()) == 5  # round 1's tables, after the bell


# --- the director's pages, the console and the API ----------------------------------------


def test_the_console_marks_the_sheets_written_after_the_bell(play, client):
    from scoring.console.board import console_state

    start(play.round)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N"))
    rounds.round_end_now(play.round)
    services.sheet_record(
        _fresh(play), deal_of(play, 2), THREE_DIAMONDS, by_entry=entry_at(play, "N")
    )
    room = play.round.room.__class__.objects.select_related("session__event").get(
        pk=play.round.room_id
    )
    row = next(r for r in console_state(room, round_number=1).rows if r.table == 1)
    assert [(c.state, c.late) for c in row.cells] == [
        ("entered", False),
        ("entered", True),
        ("not_played", False),  # no sheet: not played, not late (issue 21)
    ]


def test_the_room_page_shows_the_late_mark(play, director_client):
    finish(play.round)
    services.sheet_record(
        _fresh(play), deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N")
    )
    event = play.round.room.session.event
    page = director_client.get(
        f"/director/events/{event.pk}/rooms/{play.round.room_id}/?round=1"
    ).content.decode()
    cell = page[page.index('data-table="1"') :]
    cell = cell[cell.index('data-deal="1"') - 80 : cell.index("</td>", cell.index('data-deal="1"'))]
    assert "late-entry" in cell and "после конца тура" in cell


def test_the_director_closes_and_reopens_a_table_from_its_score_page(play, director_client):
    finish(play.round)
    event = play.round.room.session.event
    url = f"/director/events/{event.pk}/scores/plays/{play.pk}/"
    page = director_client.get(url).content.decode()
    assert "Игроки стола могут вносить и подтверждать эти протоколы." in page
    assert 'name="access" value="closed"' in page
    done = director_client.post(f"{url}access/", {"access": "closed"}, follow=True)
    assert "только вы вносите протоколы тура 1" in done.content.decode()
    assert not services.players_access(_fresh(play)).open
    page = director_client.get(url).content.decode()
    assert "Игроки стола не могут вносить" in page and 'name="access" value="open"' in page
    director_client.post(f"{url}access/", {"access": "open"})
    assert services.players_access(_fresh(play)).open


def test_the_director_closes_a_whole_round_from_the_scores_page(play, director_client):
    finish(play.round)
    event = play.round.room.session.event
    page = director_client.get(
        f"/director/events/{event.pk}/scores/?round={play.round_id}"
    ).content.decode()
    assert (
        page.count('class="late-entry">открыт для стола') == 5
        and "Закрыть тур 1 для всех столов" in page
    )
    director_client.post(f"/director/events/{event.pk}/scores/rounds/{play.round_id}/close/")
    assert TablePlay.objects.filter(round=play.round, players_access="closed").count() == 5


def test_another_director_cannot_open_or_close_a_table_through_the_pages(play, other_client):
    from django.test import Client

    finish(play.round)
    event = play.round.room.session.event
    url = f"/director/events/{event.pk}/scores/plays/{play.pk}/access/"
    assert other_client.post(url, {"access": "closed"}).status_code == 404
    assert Client().post(url, {"access": "closed"}).status_code == 302  # to the login page
    close = f"/director/events/{event.pk}/scores/rounds/{play.round_id}/close/"
    assert other_client.post(close).status_code == 404
    assert services.players_access(_fresh(play)).open


def test_the_api_says_what_the_table_page_says_and_sets_it(play, director_client):
    from django.test import Client

    phone = Client()
    finish(play.round)
    event = play.round.room.session.event
    listed = director_client.get(f"/api/v1/events/{event.pk}/plays/?round=1").json()
    mine = next(p for p in listed if p["id"] == play.pk)
    access = services.players_access(_fresh(play))
    assert mine["players"] == {
        "open": True,
        "late": True,
        "access": "",
        "reason": access.reason,
    }
    url = f"/api/v1/events/{event.pk}/plays/{play.pk}/players-access/"
    closed = director_client.post(url, {"access": "closed"}, content_type="application/json")
    assert closed.status_code == 200 and closed.json()["players"]["open"] is False
    bad = director_client.post(url, {"access": "maybe"}, content_type="application/json")
    assert bad.status_code == 400 and "access" in bad.json()
    assert phone.post(url, {"access": "open"}, content_type="application/json").status_code in (
        401,
        403,
    )
    # The round is over: the table's phone shows «Тур окончен» and no «Кто вы?» (closed);
    # a player of it reads the reason on the round's page from his own link.
    page = phone.get(round_link(play)).content.decode()
    assert 'id="round-over"' in page and 'id="gate"' not in page
    page = phone.get(round_link(play, f"?me={entry_at(play, 'N').key}")).content.decode()
    assert closed.json()["players"]["reason"] in page


def test_the_api_marks_a_late_sheet(play, director_client):
    finish(play.round)
    services.sheet_record(
        _fresh(play), deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N")
    )
    event = play.round.room.session.event
    sheets = director_client.get(f"/api/v1/events/{event.pk}/sheets/").json()
    assert [s["late"] for s in sheets] == [True]


def test_after_the_bell_the_players_phone_links_his_tables_sheets(play, client, director):
    player = entry_at(play, "E")
    start(play.round)
    page = client.get(f"/p/{player.key}/").content.decode()
    # On the clock: his table's round link as «Протоколы моего стола», no late sheets yet.
    assert 'id="open-sheets-1"' not in page
    assert f'href="{round_link(play, f"?me={player.key}")}"' in page
    rounds.round_end_now(play.round)
    page = client.get(f"/p/{player.key}/").content.decode()
    assert f'href="{round_link(play, f"?me={player.key}")}"' in page
    assert "Тур 1 окончен, но протоколы вашего стола 1 ещё можно вносить и подтверждать." in page
    start(Round.objects.get(room=play.round.room, number=2))
    assert round_link(play) not in client.get(f"/p/{player.key}/").content.decode()
    services.play_access_set(play, "open", by_user=director)  # the director opens it again
    page = client.get(f"/p/{player.key}/").content.decode()
    assert 'id="open-sheets-1"' in page and round_link(play) in page
