"""«Позвать судью» in Chromium (issue 34): the table calls from its phone, the director's
console shows the call live (and beeps), «Иду» reaches the phone as «Судья идёт» without a
reload, «Решено» takes the call away and brings the button back; a call pressed with no
connection waits in the phone's outbox and goes by itself when the connection is back."""

import pytest
from playwright.sync_api import expect

from events import rounds
from events.models import ActionLog, Round, TableCall
from tests.browser.a11y import check_page
from tests.browser.helpers import login
from tests.factories import play_of, round_link, seat_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _phone(browser):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="ru-RU", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def _call(page, reason: str, seat: str = ""):
    box = page.locator("#call-box")
    box.locator("summary").click()
    box.get_by_label(reason).check()
    if seat:
        box.locator("#call-seat").select_option(seat)
    box.locator('form button[type="submit"]').click()


def test_the_table_calls_the_console_answers_and_the_phone_follows(
    live_server, browser, laptop, event, director, shot
):
    session = seat_players(event, 15)
    room = session.rooms.get()
    rounds.round_start(Round.objects.get(room=room, number=1))
    play = play_of(session, 1, 2)
    login(laptop, live_server.url)
    laptop.goto(f"{live_server.url}/director/events/{event.pk}/rooms/{room.pk}/")
    expect(laptop.locator("#calls")).to_have_count(0)
    laptop.locator("h1").click()  # the page may sound once touched
    laptop.evaluate("window.sameDocument = true")

    context, phone = _phone(browser)
    phone.goto(f"{live_server.url}{round_link(play)}")
    expect(phone.locator("#call-box summary")).to_have_text("Позвать судью")
    assert check_page(phone) == []
    _call(phone, "Ошибка в протоколе", seat="E")
    status = phone.locator("[data-call-status]")
    expect(status).to_contain_text("Судья вызван (ошибка в протоколе)")
    expect(phone.locator("[data-call-form-box]")).to_be_hidden()
    call = TableCall.objects.get()
    assert (call.position, call.reason, call.state) == ("E", "sheet", "open")
    assert len(call.client_id) > 6  # made by the phone when pressed
    shot(phone, "table-call-open-360")

    # The console shows it without a reload, highlighted, with its buttons, and beeps.
    item = laptop.locator(f'#calls [data-call-id="{call.pk}"]')
    expect(item).to_be_visible(timeout=8000)
    expect(item).to_contain_text("Стол 2")
    expect(item).to_contain_text("место E")
    expect(item).to_contain_text("ошибка в протоколе")
    expect(item.locator("time")).to_contain_text("только что")
    assert laptop.evaluate("window.sameDocument") is True
    assert laptop.evaluate("window.preferenceCallBeeps || 0") >= 1
    assert check_page(laptop) == []
    shot(laptop, "console-call-1280")

    # «Иду»: the phone learns it by its poll, without a reload.
    phone.evaluate("window.samePhonePage = true")
    item.get_by_role("button", name="Иду").click()
    expect(laptop.locator(f'#calls [data-call-id="{call.pk}"]')).to_contain_text("Судья идёт")
    expect(status).to_contain_text("Судья идёт", timeout=10000)
    assert phone.evaluate("window.samePhonePage") is True

    # «Решено»: gone from the console; the phone shows the button again.
    laptop.locator(f'#calls [data-call-id="{call.pk}"]').get_by_role(
        "button", name="Решено"
    ).click()
    expect(laptop.locator("#calls")).to_have_count(0)
    expect(phone.locator("#call-box summary")).to_be_visible(timeout=10000)
    expect(status).to_be_hidden()
    assert TableCall.objects.get().state == "closed"
    kinds = list(
        ActionLog.objects.filter(kind__startswith="call.")
        .order_by("id")
        .values_list("kind", "login")
    )
    assert kinds == [("call.open", ""), ("call.going", "judge"), ("call.close", "judge")]
    context.close()


def test_a_call_pressed_offline_waits_in_the_outbox_and_goes_when_back(
    live_server, browser, event, shot
):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 3)
    context, phone = _phone(browser)
    phone.goto(f"{live_server.url}{round_link(play)}")
    expect(phone.locator("#call-box summary")).to_be_visible()

    context.set_offline(True)
    _call(phone, "Спор")
    outbox = phone.locator("#outbox")
    expect(outbox).to_be_visible()
    expect(outbox).to_contain_text("Вызов судьи")
    assert not TableCall.objects.exists()
    shot(phone, "table-call-queued-360")

    context.set_offline(False)
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    expect(phone.locator("[data-call-status]")).to_contain_text(
        "Судья вызван (спор)", timeout=15000
    )
    call = TableCall.objects.get()
    assert (call.table_id, call.reason, call.position) == (play.table_id, "dispute", "")
    expect(outbox.locator("[data-outbox-count]")).to_have_text("отправлено")
    assert TableCall.objects.count() == 1
    context.close()
