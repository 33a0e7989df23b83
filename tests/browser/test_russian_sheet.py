"""The Russian sheet on the table's phone in Chromium at 360 px (docs/game.md §9.3): a Сочи
event's table enters a мизер and a 6♠ with two whisters — the contract grid, the
defenders' decisions in their order, the tricks, the talon picker — «Проверить» shows what
each seat writes and the balance, and «Сохранить» stores the core's figures. The page never
scrolls sideways."""

import re

import pytest
from playwright.sync_api import expect

from events import rounds
from events import services as event_services
from events.models import Round
from scoring.models import ScoreSheet
from tests.browser.helpers import login
from tests.factories import play_of, round_link, seat_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide"


def _bid(page, code):
    page.locator(f'#group-contract input[value="{code}"] + label').click()
    expect(page.locator(f'#group-contract input[value="{code}"]')).to_be_checked()


def test_a_sochi_table_enters_a_misere_and_a_six_with_two_whisters(
    live_server, phone, director, shot
):
    event = event_services.event_create(
        owner=director, name="Кубок Сочи", date="2026-12-05", game="sochi"
    )
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    page = phone

    # Deal 1: N plays мизер and takes no trick.
    page.goto(f"{live_server.url}{round_link(play, 'deals/1/')}")
    expect(page.locator("#sheet-game")).to_have_text(
        "Сочи · 10 проверяется · ответственность полная"
    )
    expect(page.locator("#group-contract label")).to_have_count(27)
    _fits(page)
    shot(page, "russian-sheet-360")
    page.locator('input[name="as"][value="N"]').check()
    page.locator('input[name="declarer"][value="N"]').check()
    _bid(page, "misere")
    page.fill("#id_tricks_N", "0")
    page.get_by_role("button", name="Проверить").click()
    settlement = page.locator("#settlement")
    expect(settlement).to_be_visible()
    expect(page.locator("#ru-row-N td").nth(2)).to_have_text("10")  # пуля
    expect(page.locator("#ru-row-N td").nth(5)).to_have_text("66.67")  # the balance
    _fits(page)
    shot(page, "russian-misere-checked-360")
    page.get_by_role("button", name="Сохранить").click()
    expect(page).to_have_url(re.compile(r"saved=1"))

    # Deal 2: N plays 6♠, E and S both whist; 6 : 3 : 1 (the note's example).
    page.goto(f"{live_server.url}{round_link(play, 'deals/2/')}")
    page.locator('input[name="as"][value="N"]').check()
    page.locator('input[name="declarer"][value="N"]').check()
    _bid(page, "6S")
    page.select_option("#id_defence_E", "whist")
    page.select_option("#id_defence_S", "whist")
    page.fill("#id_tricks_N", "6")
    page.fill("#id_tricks_E", "3")
    page.fill("#id_tricks_S", "1")
    page.locator('label[for="group-talon-SA"]').click()
    page.locator('label[for="group-talon-H7"]').click()
    page.get_by_role("button", name="Проверить").click()
    expect(page.locator("#settlement")).to_be_visible()
    expect(page.locator("#ru-row-E td").nth(4)).to_have_text("6 на N")
    expect(page.locator("#ru-row-S td").nth(4)).to_have_text("2 на N")
    expect(page.locator("#ru-row-N td").nth(5)).to_have_text("5.33")
    expect(page.locator("#ru-row-S td").nth(5)).to_have_text("-4.67")
    _fits(page)
    shot(page, "russian-six-checked-360")
    page.get_by_role("button", name="Сохранить").click()
    expect(page).to_have_url(re.compile(r"saved=2"))

    misere, six = (ScoreSheet.objects.get(play=play, deal__number=n).current.result for n in (1, 2))
    assert misere["pool"]["N"] == 10 and misere["scores"]["N"] == "200/3"
    assert six["scores"] == {"N": "16/3", "E": "-2/3", "S": "-14/3"}
    assert six["whists"] == {"E": {"N": 6}, "S": {"N": 2}}


def test_a_refused_russian_sheet_sums_its_problems_up_and_keeps_what_was_typed(
    live_server, phone, director
):
    event = event_services.event_create(
        owner=director, name="Кубок Сочи", date="2026-12-05", game="sochi"
    )
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    page = phone
    page.goto(f"{live_server.url}{round_link(play, 'deals/1/')}")
    page.locator('input[name="as"][value="N"]').check()
    page.locator('input[name="declarer"][value="N"]').check()
    _bid(page, "8S")
    page.select_option("#id_defence_E", "pass")
    page.select_option("#id_defence_S", "half")
    page.get_by_role("button", name="Проверить").click()
    expect(page.locator("#error-summary")).to_contain_text("полвиста бывает только")
    expect(page.locator("#f-defence_S .error")).to_contain_text("полвиста")
    expect(page.locator('#group-contract input[value="8S"]')).to_be_checked()
    expect(page.locator("#id_defence_S")).to_have_value("half")
    _fits(page)


def test_the_event_form_follows_the_chosen_convention(live_server, phone, director, shot):
    page = phone
    login(page, live_server.url)
    page.goto(f"{live_server.url}/director/events/new/")
    options = page.locator("#game-options")
    expect(options).to_be_hidden()  # the Austrian game has no options
    page.select_option("#id_game", "leningrad")
    expect(options).to_be_visible()
    expect(page.locator("#id_ten")).to_have_value("whisted")
    expect(page.locator("#id_responsibility")).to_have_value("half")
    page.select_option("#id_game", "sochi")
    expect(page.locator("#id_ten")).to_have_value("checked")
    expect(page.locator("#id_responsibility")).to_have_value("full")
    _fits(page)
    shot(page, "event-form-sochi-360")
    page.fill("#id_name", "Кубок Сочи")
    page.fill("#id_date", "2026-12-05")
    page.get_by_role("button", name="Сохранить").click()
    expect(page.locator("#event-game")).to_have_text(
        "Сочи · 10 проверяется · ответственность полная"
    )
