"""The table's scoring pages: players enter and confirm; disputes, finished rounds, wrong
tables and deals outside the set are refused with a clear message."""

import pytest

from events import rounds
from events.models import Round, Seat
from scoring.models import ScoreSheet
from tests.scoring.conftest import play_of

pytestmark = pytest.mark.django_db

GOOD = {  # N «три» in diamonds, E whists and takes 3, S passes
    "declarer": "N",
    "contract": "three",
    "trump": "diamonds",
    "defence_E": "whist",
    "defence_S": "pass",
    "tricks_N": "7",
    "tricks_E": "3",
}


@pytest.fixture
def running(session15):
    rounds.round_start(Round.objects.get(room__session=session15, number=1))
    return play_of(session15, 1, 1)


def _seat(play, position):
    return Seat.objects.get(round=play.round, table=play.table, position=position)


def _enter(client, play, data, *, as_seat="N", deal=1):
    url = f"/t/{play.table.key}/deals/{deal}/"
    checked = client.post(url, {**data, "as": as_seat, "check": "1"})
    if checked.status_code != 200 or "checked" not in checked.context["form"].data:
        return checked
    digest = checked.context["form"].data["checked"]
    return client.post(url, {**data, "as": as_seat, "checked": digest, "save": "1"})


def test_the_table_page_lists_the_sets_deals_and_players(client, running):
    body = client.get(f"/t/{running.table.key}/").content.decode()
    assert "Стол 1" in body and "тур 1" in body
    assert body.count('data-deal="') == 3
    assert _seat(running, "E").entry.full_name in body


def test_a_player_enters_a_sheet_after_checking_the_settlement(client, running):
    url = f"/t/{running.table.key}/deals/1/"
    checked = client.post(url, {**GOOD, "as": "N", "check": "1"})
    assert checked.status_code == 200
    assert checked.context["preview"][0]["score"] == 70
    assert not ScoreSheet.objects.exists()
    saved = _enter(client, running, GOOD)
    assert (
        saved.status_code == 302 and "saved=1" in saved["Location"] and "as=N" in saved["Location"]
    )
    sheet = ScoreSheet.objects.get()
    assert sheet.status == "entered" and sheet.current.entered_by_entry == _seat(running, "N").entry


def test_a_broken_rule_is_shown_next_to_the_field_and_the_input_kept(client, running):
    response = client.post(
        f"/t/{running.table.key}/deals/1/", {**GOOD, "trump": "clubs", "as": "N", "check": "1"}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "при «три» козырь — бубны или червы" in body
    assert response.context["form"]["tricks_N"].value() == "7"
    assert not ScoreSheet.objects.exists()


def test_nobody_chosen_is_refused(client, running):
    response = client.post(f"/t/{running.table.key}/deals/1/", {**GOOD, "check": "1"})
    assert response.status_code == 400
    assert "Выберите, кто вносит протокол." in response.content.decode()


def test_the_other_side_confirms_but_not_the_one_who_entered(client, running):
    _enter(client, running, GOOD, as_seat="N")
    sheet = ScoreSheet.objects.get()
    url = f"/t/{running.table.key}/sheets/{sheet.pk}/confirm/"
    refused = client.post(url, {"as": "N"}, follow=True)
    assert "не может его подтвердить" in refused.content.decode()
    assert ScoreSheet.objects.get().status == "entered"
    client.post(url, {"as": "E"})
    assert ScoreSheet.objects.get().status == "confirmed"


def test_sending_the_same_sheet_twice_records_once(client, running):
    _enter(client, running, GOOD, as_seat="N")
    _enter(client, running, GOOD, as_seat="E")
    sheet = ScoreSheet.objects.get()
    assert sheet.versions.count() == 1 and sheet.status == "entered"


def test_a_different_result_does_not_overwrite_it_becomes_disputed(client, running):
    _enter(client, running, GOOD, as_seat="N")
    other = {**GOOD, "tricks_N": "6", "tricks_E": "4"}
    _enter(client, running, other, as_seat="E")
    sheet = ScoreSheet.objects.get()
    assert sheet.status == "disputed"
    assert sheet.current.data["tricks"] == {"N": 7, "E": 3}
    assert sheet.versions.count() == 2


def test_a_finished_round_refuses_players(client, running):
    rounds.round_end_now(running.round)
    page = client.get(f"/t/{running.table.key}/").content.decode()
    assert "Тур окончен: вносить и исправлять протоколы теперь может только судья." in page
    response = _enter(client, running, GOOD)
    assert response.status_code == 400
    assert "только судья" in response.content.decode()
    assert not ScoreSheet.objects.exists()


def test_a_deal_outside_the_set_and_an_unknown_table_are_404(client, running):
    assert client.get(f"/t/{running.table.key}/deals/4/").status_code == 404
    assert client.get("/t/no-such-table/").status_code == 404


def test_a_player_of_another_table_cannot_enter_here(client, running, session15):
    stranger = Seat.objects.get(round=running.round, table__number=2, position="N").entry
    url = f"/t/{running.table.key}/deals/1/"
    response = client.post(url, {**GOOD, "me": stranger.key, "check": "1"})
    assert response.status_code == 400
    assert not ScoreSheet.objects.exists()


def test_the_players_page_links_to_his_tables_sheets(client, running):
    entry = _seat(running, "S").entry
    body = client.get(f"/p/{entry.key}/").content.decode()
    assert f"/t/{running.table.key}/?me={entry.key}" in body
    page = client.get(f"/t/{running.table.key}/?me={entry.key}").content.decode()
    assert "(вы)" in page


def test_confirming_without_saying_who_is_refused(client, running):
    _enter(client, running, GOOD, as_seat="N")
    sheet = ScoreSheet.objects.get()
    page = client.post(f"/t/{running.table.key}/sheets/{sheet.pk}/confirm/", {}, follow=True)
    assert "Выберите, кто подтверждает протокол." in page.content.decode()
    assert ScoreSheet.objects.get().status == "entered"
