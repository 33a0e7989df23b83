"""The table's phone in Chromium: with the connection cut, the form says so and sends
nothing; back online it stops saying it; the same phone opening the deal again gets every
field of its draft back (the declarer too) and saves it."""

import re

import pytest
from playwright.sync_api import expect

from events import rounds
from events.models import Round
from scoring.models import ScoreSheet
from tests.factories import play_of, round_link, seat_players

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
    url = f"{live_server.url}{round_link(play, 'deals/1/')}"
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
    draft = again.evaluate(f"localStorage.getItem('sheet:{play.key}:1')")
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
    url = f"{live_server.url}{round_link(play, 'deals/1/?as=N')}"
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


def test_two_people_enter_and_confirm_on_one_phone_each_with_his_pin(
    live_server, phone, laptop, event, director, shot
):
    """At 360 px: the table's QR code asks «Кто вы?» and leads N, with his PIN, to the round's
    link; N enters with his PIN (never kept in the phone's draft); E, on the same phone,
    cannot confirm with the round's link alone, is told why beside the form, then confirms
    with his PIN. The director's console marks a sheet entered without a PIN."""
    from events.models import Seat
    from tests.browser.a11y import check_page
    from tests.browser.helpers import login

    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    north, east = (
        Seat.objects.get(round=play.round, table=play.table, position=p).entry for p in "NE"
    )
    base = f"{live_server.url}{round_link(play)}".rstrip("/")
    phone.goto(f"{live_server.url}/t/{play.table.key}/")  # the QR code on the table card
    expect(phone.get_by_role("heading", name="Кто вы?")).to_be_visible()
    assert north.full_name not in phone.content()  # the gate names nobody
    phone.locator('input[name="as"][value="N"]').check()
    phone.fill("#id_pin", "0000" if north.pin != "0000" else "1111")
    phone.get_by_role("button", name="Открыть протоколы тура").click()
    expect(phone.locator("#pin-error")).to_contain_text("Это не ПИН-код игрока места N")
    expect(phone.locator('input[name="as"][value="N"]')).to_be_checked()  # the seat kept
    assert check_page(phone) == [], phone.url
    phone.fill("#id_pin", north.pin)
    phone.get_by_role("button", name="Открыть протоколы тура").click()
    expect(phone).to_have_url(f"{base}/?as=N")
    phone.goto(f"{base}/deals/1/")
    phone.locator('input[name="as"][value="N"]').check()
    phone.fill("#id_pin", north.pin)
    phone.locator('input[name="declarer"][value="N"]').check()
    for selector, value in TYPED.items():
        if selector.startswith(("#id_contract", "#id_trump", "#id_defence")):
            phone.select_option(selector, value)
        elif selector not in ("#id_auction",):
            phone.fill(selector, value)
    draft = phone.evaluate("JSON.stringify(Object.assign({}, localStorage))")
    assert north.pin not in draft.replace(play.key, "")  # the PIN is never kept
    shot(phone, "two-person-01-enter-with-pin-360")
    phone.get_by_role("button", name="Проверить").click()
    expect(phone.locator("#settlement")).to_be_visible()
    expect(phone.locator("#id_pin")).to_have_value(north.pin)  # kept between check and save
    phone.get_by_role("button", name="Сохранить").click()
    expect(phone).to_have_url(re.compile(r"saved=1"))

    card = phone.locator('#deals li[data-deal="1"]')
    card.locator('select[name="as"]').select_option("E")
    card.get_by_role("button", name="Подтвердить этот результат").click()
    refusal = phone.locator("#refused-1")
    expect(refusal).to_contain_text("введите ПИН-код с именной карточки")
    expect(phone.locator("#pin-1")).to_have_attribute("aria-invalid", "true")
    expect(phone.locator('#deals li[data-deal="1"] select[name="as"]')).to_have_value("E")
    shot(phone, "two-person-02-refused-without-pin-360")
    assert ScoreSheet.objects.get().status == "entered"
    phone.locator("#pin-1").fill(east.pin)
    phone.locator('#deals li[data-deal="1"]').get_by_role(
        "button", name="Подтвердить этот результат"
    ).click()
    expect(phone.get_by_text("подтверждена.")).to_be_visible()
    expect(phone.locator('#deals li[data-deal="1"]')).to_have_class(re.compile("state-confirmed"))
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width
    assert check_page(phone) == [], phone.url
    shot(phone, "two-person-03-confirmed-360")
    sheet = ScoreSheet.objects.get()
    assert sheet.confirmed_by_entry == east and sheet.current.proof == "pin"

    # Deal 2 entered on the table's link alone: the director sees it marked.
    phone.goto(f"{base}/deals/2/")
    phone.locator('input[name="as"][value="S"]').check()
    phone.locator('input[name="declarer"][value=""]').check()
    phone.select_option("#id_contract", "passed")
    phone.get_by_role("button", name="Проверить").click()
    phone.get_by_role("button", name="Сохранить").click()
    expect(phone).to_have_url(re.compile(r"saved=2"))
    login(laptop, live_server.url)
    laptop.goto(f"{live_server.url}/director/events/{event.pk}/rooms/{play.round.room_id}/")
    cell = laptop.locator('#console-grid tr[data-table="1"] td[data-deal="2"]')
    expect(cell).to_have_class(re.compile("unproven"))
    expect(cell.locator(".sr-only")).to_contain_text("внесён без ПИН-кода")
    expect(laptop.locator(".marks-legend")).to_contain_text("без ПИН-кода игрока")
    shot(laptop, "two-person-04-console-marks-1280")
    cell.get_by_role("link").click()
    expect(laptop.locator("#unproven")).to_be_visible()
    expect(laptop.locator("#versions")).to_contain_text("на устройстве стола без ПИН-кода")
    assert check_page(laptop) == [], laptop.url
    shot(laptop, "two-person-05-sheet-unproven-1280")
