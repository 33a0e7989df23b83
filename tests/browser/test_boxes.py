"""The box in Chromium (docs/game.md §2.7): the talon picker on the table's phone at 360 px
(two cards stay ticked, shown only for a numeric contract, keyboard too), the known talon at
the next table, «коробка не совпадает» sent from the phone and shown on the director's
console without a reload at 1280 px, and the deal marked fouled from there."""

import re

import pytest
from playwright.sync_api import expect

from events.models import BoxReport, DealVersion
from scoring.models import ScoreSheet, TablePlay
from tests.browser.helpers import login
from tests.factories import round_link, seat_players, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _card(page, name, value):
    return page.locator(f'input[name="{name}"][value="{value}"]')


def _tap(page, name, value):
    page.locator(f'label[for="{_card(page, name, value).get_attribute("id")}"]').click()


def test_the_picker_the_known_talon_and_a_box_report(live_server, browser, event, director, shot):
    session = seat_players(event, 15)
    room = session.rooms.get()
    first, second = (
        TablePlay.objects.filter(round__room=room, board_set__number=1)
        .select_related("round", "table")
        .order_by("round__number")[:2]
    )
    start(first.round)
    phone = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="ru-RU", is_mobile=True, has_touch=True
    )
    page = phone.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}{round_link(first, 'deals/1/')}")
    picker = page.locator("#group-talon")
    page.select_option("#id_contract", "game")
    expect(picker).to_be_hidden()  # no talon with «игра»
    page.select_option("#id_contract", "three")
    expect(picker).to_be_visible()
    # 32 buttons in 4 rows of 8, none wider than the phone.
    assert picker.locator(".talon-card").count() == 32
    box = picker.locator(".talon-grid").bounding_box()
    assert box["width"] <= 360
    tops = {
        round(b["y"])
        for b in picker.locator("label").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect())"
        )
    }
    assert len(tops) == 4
    _tap(page, "talon", "SA")
    _tap(page, "talon", "D8")
    _tap(page, "talon", "H7")  # a third tap lets go of the first one ticked
    expect(_card(page, "talon", "SA")).not_to_be_checked()
    expect(_card(page, "talon", "D8")).to_be_checked()
    # The keyboard: Space on a focused card ticks it (and lets go of D8).
    _card(page, "talon", "SA").focus()
    page.keyboard.press("Space")
    expect(_card(page, "talon", "SA")).to_be_checked()
    expect(_card(page, "talon", "D8")).not_to_be_checked()
    expect(page.locator("#group-talon-count")).to_contain_text("2")
    page.locator('input[name="as"][value="N"]').check()
    page.locator('input[name="declarer"][value="N"]').check()
    page.select_option("#id_trump", "diamonds")
    page.select_option("#id_defence_E", "whist")
    page.select_option("#id_defence_S", "pass")
    page.fill("#id_tricks_N", "7")
    page.fill("#id_tricks_E", "3")
    shot(page, "talon-picker-360")
    picker.screenshot(path=str(shot(page, "talon-picker-360").with_name("talon-grid-360.png")))
    page.get_by_role("button", name="Проверить").click()
    expect(page.locator("#settlement")).to_be_visible()
    page.get_by_role("button", name="Сохранить").click()
    expect(page).to_have_url(re.compile(r"saved=1"))
    sheet = ScoreSheet.objects.get(play=first)
    assert sorted(sheet.current.data["talon"]) == ["H7", "SA"]

    # The director's console, open before the next table reports. The phone leaves the
    # first table's round page first: that page follows its round (table.js reloads it when
    # the round is over), which must not race the next table's address opened below.
    page.goto("about:blank")
    start(second.round)
    laptop = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    desk = laptop.new_page()
    desk.set_default_timeout(15_000)
    login(desk, live_server.url)
    desk.goto(f"{live_server.url}/director/events/{event.pk}/rooms/{room.pk}/")
    cell = desk.locator(f'#console-grid tr[data-table="{second.table.number}"] td[data-deal="1"]')
    expect(cell).not_to_have_attribute("data-box", "")

    # The next table: its declarer finds another talon; the sheet refuses it without naming
    # the talon of the protocol and sends the table to «коробка не совпадает» (the talon is
    # not on the phone before the play).
    page.goto(f"{live_server.url}{round_link(second, 'deals/1/')}")
    expect(page.locator("#known-talon")).to_have_count(0)
    page.locator('input[name="as"][value="N"]').check()
    page.locator('input[name="declarer"][value="N"]').check()
    page.select_option("#id_contract", "three")
    _tap(page, "talon", "CK")
    _tap(page, "talon", "D8")
    page.select_option("#id_trump", "diamonds")
    page.select_option("#id_defence_E", "whist")
    page.select_option("#id_defence_S", "pass")
    page.fill("#id_tricks_N", "6")
    page.fill("#id_tricks_E", "4")
    page.get_by_role("button", name="Проверить").click()
    # «Проверить» settles the sheet and says nothing of its talon (docs/game.md §2.7): only
    # «Сохранить» compares it.
    expect(page.locator("#settlement")).to_be_visible()
    expect(page.locator("#group-talon .error")).to_have_count(0)
    page.get_by_role("button", name="Сохранить").click()
    refusal = page.locator("#group-talon .error")
    # What was typed, never the talon of the protocol (♠A ♥7): the table has not played yet.
    expect(refusal).to_contain_text("♦8")
    expect(refusal).not_to_contain_text("♥7")
    expect(refusal).to_contain_text("коробка не совпадает")
    expect(page.locator("#id_tricks_N")).to_have_value("6")
    assert not ScoreSheet.objects.filter(play=second).exists()  # nothing saved
    shot(page, "talon-refused-360")
    page.locator("#box-report summary").click()
    page.locator('input[name="kind"][value="talon"]').check()
    _tap(page, "found", "CK")
    _tap(page, "found", "D8")
    page.fill("#report-note", "в кармане W другие карты")
    shot(page, "box-report-form-360")
    page.locator("#found-talon").screenshot(
        path=str(shot(page, "box-report-form-360").with_name("found-grid-360.png"))
    )
    page.locator("#box-report button[type=submit]").click()
    expect(page.locator('[data-box-report="open"]')).to_be_visible()
    shot(page, "box-report-sent-360")
    report = BoxReport.objects.get()
    assert report.talon == "CK D8" and report.play_id == second.pk

    # The console marks the cell and lists the report without a reload.
    expect(cell).to_have_attribute("data-box", "", timeout=10_000)
    link = desk.locator("[data-box-reports] a")
    expect(link).to_have_count(1)
    shot(desk, "box-report-console-1280")
    link.click()
    expect(desk.locator("#report-facts")).to_contain_text("в кармане W другие карты")
    shot(desk, "box-report-page-1280")
    desk.locator('button[name="action"][value="foul"]').click()
    expect(desk.locator('[data-state="fouled"]')).to_be_visible()
    version = DealVersion.objects.get()
    assert (version.number, version.from_play_id, version.talon) == (2, second.pk, "CK D8")
    shot(desk, "box-report-fouled-1280")

    # The director's sheet form carries the picker too.
    desk.goto(f"{live_server.url}/director/events/{event.pk}/scores/plays/{second.pk}/deals/1/")
    desk.select_option("#id_contract", "two")
    expect(desk.locator("#group-talon")).to_be_visible()
    shot(desk, "talon-picker-director-1280")
    phone.close()
    laptop.close()
