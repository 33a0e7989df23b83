"""The table's scoring pages: players enter and confirm (also after «Конец тура!», until the
table's next round starts); each deal's result is shown with the confirmation; seats are
listed round the table; disputes, closed rounds, wrong tables and deals outside the set are
refused with a clear message, before anything is pressed."""

import pytest
from django.utils import translation

from events import rounds
from events.models import Round, Seat
from scoring.models import ScoreSheet
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS_FORM, play_of, round_link

pytestmark = pytest.mark.django_db

GOOD = THREE_DIAMONDS_FORM  # N «три» in diamonds, E whists and takes 3, S passes


def _seat(play, position):
    return Seat.objects.get(round=play.round, table=play.table, position=position)


def _enter(client, play, data, *, as_seat="N", deal=1, pin=""):
    """Enter on the table's device through ``play``'s round link (its round, whatever the
    clock says)."""
    url = round_link(play, f"deals/{deal}/")
    who = {"as": as_seat, "pin": pin}
    checked = client.post(url, {**data, **who, "check": "1"})
    if checked.status_code != 200 or "checked" not in checked.context["form"].data:
        return checked
    digest = checked.context["form"].data["checked"]
    return client.post(url, {**data, **who, "checked": digest, "save": "1"})


def _confirm(client, play, sheet, position, **more):
    """Confirm on the table's device as ``position``, with his PIN unless told otherwise."""
    data = {"as": position, "pin": _seat(play, position).entry.pin, **more}
    return client.post(round_link(play, f"sheets/{sheet.pk}/confirm/"), data)


def _past_the_gate(client, play, position):
    """A finished round's page shows its sheets only to someone who sat there: his seat and
    PIN typed at its «Тур окончен» page, on this phone (docs/game.md §4.5)."""
    gate = client.get(round_link(play)).content.decode()
    assert 'id="round-over"' in gate and 'id="gate"' in gate
    passed = client.post(round_link(play), {"as": position, "pin": _seat(play, position).entry.pin})
    assert passed.status_code == 302 and passed.url == round_link(play, f"?as={position}")
    return passed


#: The service's refusal of a confirmation by whoever entered the sheet, as the page says it.
SAME_PERSON = (
    "The player who entered the sheet cannot confirm it: a player of another seat at the "
    "table must, with his own PIN or from his own page."
)


def _said(message: str) -> str:
    with translation.override("ru"):
        return translation.gettext(message)


def test_the_table_page_lists_the_sets_deals_and_players(client, running):
    body = client.get(round_link(running)).content.decode()
    assert "Стол 1" in body and "тур 1" in body
    assert body.count('data-deal="') == 3
    assert _seat(running, "E").entry.full_name in body


def test_a_player_enters_a_sheet_after_checking_the_settlement(client, running):
    url = round_link(running, "deals/1/")
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
        round_link(running, "deals/1/"), {**GOOD, "trump": "clubs", "as": "N", "check": "1"}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "при «три» козырь — бубны или червы" in body
    assert response.context["form"]["tricks_N"].value() == "7"
    assert not ScoreSheet.objects.exists()


def test_nobody_chosen_is_refused(client, running):
    response = client.post(round_link(running, "deals/1/"), {**GOOD, "check": "1"})
    assert response.status_code == 400
    assert "Выберите, кто вносит протокол." in response.content.decode()


def test_the_other_side_confirms_but_not_the_one_who_entered(client, running):
    # Entered with N's PIN: another player confirms it on the same phone with his own PIN.
    _enter(client, running, GOOD, as_seat="N", pin=_seat(running, "N").entry.pin)
    sheet = ScoreSheet.objects.get()
    refused = _confirm(client, running, sheet, "N")
    assert refused.status_code == 400
    assert _said(SAME_PERSON) in refused.content.decode()
    assert ScoreSheet.objects.get().status == "entered"
    assert _confirm(client, running, sheet, "E").status_code == 302
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


def test_a_finished_round_refuses_players_once_their_next_round_started(client, running):
    rounds.round_end_now(running.round)
    rounds.round_start(Round.objects.get(room=running.round.room, number=2))
    reason = "Тур 1 окончен, тур 2 начался: вносить и исправлять протоколы тура 1 теперь может только судья."
    # The table's phone: «Тур окончен», no «Кто вы?» (its players may not write it any
    # more), a pointer to each player's own page; a PIN typed at it is refused with why.
    page = client.get(round_link(running)).content.decode()
    assert 'id="round-over"' in page and 'id="own-page"' in page and 'id="gate"' not in page
    assert "Внести" not in page and "Подтвердить" not in page
    north = _seat(running, "N").entry
    gate = client.post(round_link(running), {"as": "N", "pin": north.pin})
    assert gate.status_code == 400 and reason in gate.content.decode()
    # A sheet sent from that phone is refused on «Тур окончен» (a redirect would read as sent).
    response = _enter(client, running, GOOD)
    body = response.content.decode()
    assert response.status_code == 400 and 'id="round-over"' in body and 'id="round-error"' in body
    # His own link shows him the round: the reason, nothing to press; a write is refused.
    mine = client.get(round_link(running, f"?me={north.key}")).content.decode()
    assert reason in mine
    assert "Внести" not in mine and "Подтвердить" not in mine
    url = round_link(running, "deals/1/")
    response = client.post(url, {**GOOD, "me": north.key, "check": "1"})
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert not ScoreSheet.objects.exists()


def test_a_deal_outside_the_set_and_an_unknown_table_are_404(client, running):
    assert client.get(round_link(running, "deals/4/")).status_code == 404
    assert client.get("/t/no-such-table/").status_code == 404


def test_a_player_of_another_table_cannot_enter_here(client, running, session15):
    stranger = Seat.objects.get(round=running.round, table__number=2, position="N").entry
    url = round_link(running, "deals/1/")
    response = client.post(url, {**GOOD, "me": stranger.key, "check": "1"})
    assert response.status_code == 400
    assert not ScoreSheet.objects.exists()


def test_the_players_page_links_to_his_tables_sheets(client, running):
    entry = _seat(running, "S").entry
    body = client.get(f"/p/{entry.key}/").content.decode()
    assert round_link(running, f"?me={entry.key}") in body
    page = client.get(round_link(running, f"?me={entry.key}")).content.decode()
    assert "(вы)" in page


def test_confirming_without_saying_who_is_refused(client, running):
    _enter(client, running, GOOD, as_seat="N")
    sheet = ScoreSheet.objects.get()
    page = client.post(round_link(running, f"sheets/{sheet.pk}/confirm/"), {})
    assert page.status_code == 400
    assert "Выберите, кто подтверждает протокол." in page.content.decode()
    assert ScoreSheet.objects.get().status == "entered"


# --- after «Конец тура!» ---------------------------------------------------------------


def test_after_the_bell_the_table_still_enters_and_confirms_marked_late(client, running):
    rounds.round_end_now(running.round)
    _past_the_gate(client, running, "N")
    page = client.get(round_link(running, "?as=N")).content.decode()
    assert "до начала тура 2" in page
    assert f'href="{round_link(running, "deals/1/?as=N")}"' in page
    form = client.get(round_link(running, "deals/1/?as=N")).content.decode()
    assert "Проверить" in form and "до начала тура 2" in form
    saved = _enter(client, running, GOOD, pin=_seat(running, "N").entry.pin)
    assert saved.status_code == 302 and saved["Location"].startswith(round_link(running, "?as=N"))
    sheet = ScoreSheet.objects.get()
    assert sheet.play == running and sheet.late
    assert _confirm(client, running, sheet, "S").status_code == 302
    assert ScoreSheet.objects.get().status == "confirmed"


def test_the_form_offers_no_save_once_saving_would_be_refused(client, running):
    url = round_link(running, "deals/1/")
    checked = client.post(url, {**GOOD, "as": "N", "check": "1"})
    assert "Сохранить" in checked.content.decode()  # on the clock: check, then save
    rounds.round_end_now(running.round)
    rounds.round_start(Round.objects.get(room=running.round.room, number=2))
    # The table's phone is sent to the round's «Тур окончен»; the player's own link shows
    # him the form, without a button the write would refuse.
    assert client.get(url).url == round_link(running)
    north = _seat(running, "N").entry
    page = client.get(f"{url}?me={north.key}").content.decode()
    assert "только судья" in page
    assert "Сохранить" not in page and "Проверить" not in page
    again = client.post(url, {**GOOD, "me": north.key, "check": "1"})
    assert again.status_code == 400 and "Сохранить" not in again.content.decode()


def test_a_form_of_one_round_never_records_into_the_next(client, running, director):
    rounds.round_end_now(running.round)
    rounds.round_start(Round.objects.get(room=running.round.room, number=2))
    services.play_access_set(running, "open", by_user=director)
    _past_the_gate(client, running, "N")
    # Round 1 is no longer at the table: written with the player's PIN only.
    saved = _enter(client, running, GOOD, pin=_seat(running, "N").entry.pin)
    assert saved.status_code == 302
    assert ScoreSheet.objects.get().play == running  # round 1's table, not round 2's


def test_the_tables_gate_offers_a_round_the_director_opened_again(client, running, director):
    rounds.round_end_now(running.round)
    rounds.round_start(Round.objects.get(room=running.round.room, number=2))
    services.play_access_set(running, "open", by_user=director)
    gate = client.get(f"/t/{running.table.key}/").content.decode()
    assert "Судья снова открыл тур 1 этого стола." in gate
    assert 'name="round" value="1"' in gate and 'name="round" value="2"' in gate
    # Round 2's page knows nothing of round 1: no link to it.
    now = client.get(round_link(play_of(running.round.room.session, 2, 1))).content.decode()
    assert round_link(running) not in now and "снова открыл" not in now
    # Its own page asks who he is first («Тур окончен»), then shows it open again.
    _past_the_gate(client, running, "E")
    old = client.get(round_link(running, "?as=E")).content.decode()
    assert "снова открыл тур 1" in old and "Внести" in old


def test_a_round_by_number_under_the_tables_key_is_404(client, running):
    """A round link names its round: the table's key has no ``rounds/<n>/`` any more."""
    assert client.get(f"/t/{running.table.key}/rounds/1/").status_code == 404
    assert client.get(f"/t/{running.table.key}/rounds/99/").status_code == 404


# --- what the page shows ------------------------------------------------------------------


def test_the_table_page_shows_each_deals_result_beside_the_confirm_button(client, running):
    # With N's PIN: an entry without one is not confirmed on the phone that entered it.
    _enter(client, running, GOOD, as_seat="N", pin=_seat(running, "N").entry.pin)
    page = client.get(round_link(running, "?as=E")).content.decode()
    card = page[page.index('data-deal="1"') : page.index('data-deal="2"')]
    north, east, south = (_seat(running, p).entry.full_name for p in "NES")
    assert f"N {north}</strong>: три" in card and "♦ бубны" in card
    assert "Защита: E вист · S пас" in card
    for name, tricks, score in ((north, "7", "70"), (east, "3", "30"), (south, "0", "0")):
        row = card[card.index(name, card.index("<tbody>")) :]
        row = row[: row.index("</tr>")]
        assert f'<td class="num">{tricks}</td>' in row and f">{score}" in row
    assert "разыгрывающий" in card
    # The confirmation is of this result: its form is in the same card, named by the result.
    assert 'action="/t/' in card and 'aria-describedby="result-1"' in card
    assert "Подтвердить этот результат" in card


def test_a_passed_out_deal_reads_as_such(client, running, director):
    services.sheet_record(
        running, running.board_set.deals.get(number=2), {"contract": "passed"}, by_user=director
    )
    page = client.get(round_link(running)).content.decode()
    card = page[page.index('data-deal="2"') : page.index('data-deal="3"')]
    assert "Распас" in card


def _positions(html: str, marker: str) -> list[str]:
    """The seats in the order the page lists them after ``marker``'s elements."""
    import re

    return re.findall(marker, html)


def test_seats_are_listed_round_the_table_n_e_s_at_three(client, running):
    _enter(client, running, GOOD, as_seat="E", pin=_seat(running, "E").entry.pin)
    page = client.get(round_link(running)).content.decode()
    assert _positions(page, r"<dt>([WNES])</dt>") == ["N", "E", "S"]
    confirmers = page[
        page.index('id="confirm-1"') : page.index("</select>", page.index('id="confirm-1"'))
    ]
    assert _positions(confirmers, r'<option value="([WNES])"') == ["N", "S"]
    result = page[page.index('id="result-1"') :]
    result = result[: result.index("</table>")]
    assert _positions(result, r"<tr><td><b class=\"seat-letter\">([WNES])</b>") == ["N", "E", "S"]
    form = client.get(round_link(running, "deals/1/")).content.decode()
    assert _positions(form, r'name="as" value="([WNES])"') == ["N", "E", "S"]


def test_seats_are_listed_w_n_e_s_at_a_table_of_four(client, session20):
    rounds.round_start(Round.objects.get(room__session=session20, number=1))
    play = play_of(session20, 1, 1)
    page = client.get(round_link(play)).content.decode()
    assert _positions(page, r"<dt>([WNES])</dt>") == ["W", "N", "E", "S"]
    deal = play.board_set.deals.get(number=1)
    form = client.get(round_link(play, "deals/1/")).content.decode()
    assert _positions(form, r'name="as" value="([WNES])"') == ["W", "N", "E", "S"]
    playing = [s for s in "WNES" if s in deal.active_seats]
    assert f"<dd>{' '.join(playing)}" in form


def test_a_404_says_it_in_the_readers_language_without_djangos_internal_words(
    client, director_client
):
    """An address that matches no page once showed «Resolver404» on a Russian page."""
    for c in (client, director_client):
        page = c.get("/director/events/1/no-such-page/")
        body = page.content.decode()
        assert page.status_code == 404
        assert "Resolver404" not in body and "Http404" not in body
        assert "По этому адресу ничего нет" in body or "Не найдено" in body
    phone = client.get("/t/no-such-table/").content.decode()
    assert "Resolver404" not in phone and "ссылка" in phone.lower()


def test_an_api_address_that_matches_nothing_answers_json(director_client):
    """The schema says every API answer is JSON; a negative id matched no route and gave
    the site's HTML page (schemathesis)."""
    answer = director_client.get("/api/v1/events/-240/adjustments/")
    assert answer.status_code == 404 and answer["Content-Type"] == "application/json"
    assert answer.json() == {"detail": "По этому адресу в API ничего нет."}
