"""The table's phone in Chromium: with the connection cut, the form says so and sends
nothing; back online it stops saying it; the same phone opening the deal again gets every
field of its draft back (the declarer too) and saves it."""

import re

import pytest
from playwright.sync_api import expect

from events import rounds
from events.models import Round
from scoring.models import ScoreSheet
from tests.conftest import seat_players
from tests.scoring.conftest import play_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TYPED = {  # E whists «три» in diamonds against N and takes 3
    "#id_contract": "three",
    "#id_trump": "diamonds",
    "#id_defence_E": "whist",
    "#id_defence_S": "pass",
    "#id_tricks_N": "7",
    "#id_tricks_E": "3",
    "#id_auction": "N one, E two, S three, N hold, E pass, S pass",
    "#id_note": "E вистовал",
}


def _expect_the_draft(page):
    expect(page.locator('input[name="declarer"][value="N"]')).to_be_checked()
    expect(page.locator('input[name="as"][value="E"]')).to_be_checked()
    for selector, value in TYPED.items():
        expect(page.locator(selector)).to_have_value(value)


def test_offline_entry_is_shown_kept_and_restored_whole(live_server, browser, event, shot):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    phone = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="ru-RU", is_mobile=True, has_touch=True
    )
    page = phone.new_page()
    page.set_default_timeout(15_000)
    url = f"{live_server.url}/t/{play.table.key}/rounds/1/deals/1/"
    page.goto(url)
    note = page.locator("#offline-note")
    expect(note).to_be_hidden()
    page.locator('input[name="as"][value="E"]').check()
    page.locator('input[name="declarer"][value="N"]').check()
    for selector, value in TYPED.items():
        if selector.startswith(("#id_contract", "#id_trump", "#id_defence")):
            page.select_option(selector, value)
        else:
            page.fill(selector, value)

    phone.set_offline(True)
    expect(note).to_be_visible()  # said as soon as the connection goes
    page.get_by_role("button", name="Проверить").click()
    expect(note).to_be_visible()
    assert page.url == url  # nothing was sent
    shot(page, "table-offline-360")
    phone.set_offline(False)
    expect(note).to_be_hidden()

    # The same phone opens the deal again: every field of the draft is back, declarer included.
    again = phone.new_page()
    again.goto(url)
    _expect_the_draft(again)
    page.close()
    again.get_by_role("button", name="Проверить").click()
    expect(again.locator("#settlement")).to_be_visible()
    again.get_by_role("button", name="Сохранить").click()
    expect(again).to_have_url(re.compile(r"saved=1"))
    sheet = ScoreSheet.objects.get()
    assert sheet.current.data["declarer"] == "N" and sheet.current.data["tricks"] == {
        "N": 7,
        "E": 3,
    }
    draft = again.evaluate(f"localStorage.getItem('sheet:{play.table.key}:1:1')")
    assert draft is None  # saved: the draft is gone
    phone.close()


def test_a_form_sent_back_by_the_server_keeps_what_was_typed_over_the_draft(
    live_server, browser, event
):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    phone = browser.new_context(viewport={"width": 360, "height": 740}, locale="ru-RU")
    page = phone.new_page()
    url = f"{live_server.url}/t/{play.table.key}/rounds/1/deals/1/?as=N"
    page.goto(url)
    page.locator('input[name="declarer"][value="N"]').check()
    page.select_option("#id_contract", "three")
    page.select_option("#id_trump", "clubs")  # below «три»: refused next to the field
    page.get_by_role("button", name="Проверить").click()
    expect(page.locator("#f-trump .error")).to_be_visible()
    page.select_option("#id_trump", "hearts")
    page.goto(url)  # opened fresh: the latest typing comes back
    expect(page.locator("#id_trump")).to_have_value("hearts")
    expect(page.locator('input[name="declarer"][value="N"]')).to_be_checked()
    phone.close()
