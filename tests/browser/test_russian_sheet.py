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


def _phone_without_javascript(browser):
    return browser.new_context(
        viewport={"width": 360, "height": 740},
        locale="ru-RU",
        is_mobile=True,
        has_touch=True,
        java_script_enabled=False,
    )


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
    live_server, browser, director
):
    # Without JavaScript every select offers every decision: the server names the broken
    # rule (with it, полвиста is not offered on an 8 at all).
    event = event_services.event_create(
        owner=director, name="Кубок Сочи", date="2026-12-05", game="sochi"
    )
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    context = _phone_without_javascript(browser)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}{round_link(play, 'deals/1/')}")
    expect(page.locator("#id_defence_S option")).to_have_text(["—", "вист", "пас", "полвиста"])
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
    context.close()


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


# --- The sheet follows what is typed (static/js/russian_sheet.js) ------------------------


def _sochi_round(director, **options):
    event = event_services.event_create(
        owner=director, name="Кубок Сочи", date="2026-12-05", game="sochi", **options
    )
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    return play_of(session, 1, 1)


def _decisions(page, seat):
    return page.locator(f"#id_defence_{seat} option")


def _tricks_shown(page, *seats):
    for seat in "NES":
        box = page.locator(f"#f-tricks_{seat}")
        if seat in seats:
            expect(box).to_be_visible()
            expect(page.locator(f"#id_tricks_{seat}")).to_be_enabled()
        else:
            expect(box).to_be_hidden()
            expect(page.locator(f"#id_tricks_{seat}")).to_be_disabled()
    if seats:
        expect(page.locator("#group-tricks")).to_be_visible()
    else:
        expect(page.locator("#group-tricks")).to_be_hidden()


def test_the_sheet_offers_the_decisions_and_tricks_each_contract_allows(
    live_server, phone, director, shot
):
    # A 3-seat table: N E S play, clockwise N → E → S (docs/game.md §9.3).
    play = _sochi_round(director)
    page = phone
    page.goto(f"{live_server.url}{round_link(play, 'deals/1/')}")
    page.locator('input[name="as"][value="N"]').check()
    expect(page.locator("#group-talon")).to_be_hidden()  # no contract yet
    page.locator('input[name="declarer"][value="N"]').check()
    _bid(page, "6S")
    expect(page.locator("#group-talon")).to_be_visible()

    # N declares: E, on his left, decides first (вист or пас), then S; N has no select.
    defence = page.locator("#group-defenders .field:visible")
    expect(defence).to_have_count(2)
    expect(defence.nth(0)).to_have_id("f-defence_E")
    expect(defence.nth(0).locator("label")).to_contain_text("(решает первым)")
    expect(defence.nth(1).locator("label")).to_contain_text("(вторым)")
    expect(page.locator("#f-defence_N")).to_be_hidden()
    expect(_decisions(page, "E")).to_have_text(["—", "вист", "пас"])
    expect(_decisions(page, "S")).to_have_text(["—", "вист", "пас"])
    _tricks_shown(page, "N", "E", "S")

    # полвиста: only the second, only after the first passed, only on a 6 or a 7.
    page.select_option("#id_defence_E", "pass")
    expect(_decisions(page, "E")).to_have_text(["—", "вист", "пас"])
    expect(_decisions(page, "S")).to_have_text(["—", "вист", "пас", "полвиста"])
    _tricks_shown(page, "N", "S")
    page.select_option("#id_defence_S", "half")
    _tricks_shown(page)  # полвиста: not played
    page.select_option("#id_defence_S", "pass")
    _tricks_shown(page)  # both pass: not played
    page.select_option("#id_defence_S", "whist")
    _tricks_shown(page, "N", "S")  # a lone whister: the declarer's and his
    page.select_option("#id_defence_S", "half")
    page.select_option("#id_defence_E", "whist")  # the first whists: no полвиста for S
    expect(_decisions(page, "S")).to_have_text(["—", "вист", "пас"])
    expect(page.locator("#id_defence_S")).to_have_value("")
    _tricks_shown(page, "N", "E", "S")
    _bid(page, "8S")
    page.select_option("#id_defence_E", "pass")
    expect(_decisions(page, "S")).to_have_text(["—", "вист", "пас"])  # not on an 8
    _fits(page)
    shot(page, "russian-sheet-live-8S-360")

    # E declares 7♥: S, on his left, decides first, then N.
    page.locator('input[name="declarer"][value="E"]').check()
    _bid(page, "7H")
    expect(defence.nth(0)).to_have_id("f-defence_S")
    expect(defence.nth(1)).to_have_id("f-defence_N")
    expect(page.locator("#f-defence_E")).to_be_hidden()
    page.select_option("#id_defence_S", "pass")
    expect(_decisions(page, "N")).to_have_text(["—", "вист", "пас", "полвиста"])
    expect(_decisions(page, "S")).to_have_text(["—", "вист", "пас"])

    # мизер, a checked 10 (Сочи), распасы: no decisions at all.
    for code, tricks in (("misere", "E"), ("10S", "E"), ("passed", "NES")):
        _bid(page, code)
        expect(page.locator("#group-defenders")).to_be_hidden()
        for seat in "NES":
            expect(page.locator(f"#id_defence_{seat}")).to_be_disabled()
        _tricks_shown(page, *tricks)
        if code == "passed":
            expect(page.locator("#group-talon")).to_be_hidden()
            expect(page.locator("#group-talon-SA")).to_be_disabled()
        else:
            expect(page.locator("#group-talon")).to_be_visible()
    _fits(page)
    shot(page, "russian-sheet-live-passed-360")
    _bid(page, "9NT")  # back to a numeric contract: the decisions come back
    expect(page.locator("#group-defenders")).to_be_visible()
    expect(page.locator("#id_defence_S")).to_be_enabled()


def test_with_stalingrad_a_six_of_spades_is_whisted_by_both(live_server, phone, director):
    play = _sochi_round(director, stalingrad=True)
    page = phone
    page.goto(f"{live_server.url}{round_link(play, 'deals/1/')}")
    page.locator('input[name="as"][value="N"]').check()
    page.locator('input[name="declarer"][value="N"]').check()
    _bid(page, "6S")
    expect(_decisions(page, "E")).to_have_text(["—", "вист"])
    expect(_decisions(page, "S")).to_have_text(["—", "вист"])
    _bid(page, "6C")
    page.select_option("#id_defence_E", "pass")
    expect(_decisions(page, "S")).to_have_text(["—", "вист", "пас", "полвиста"])


def test_a_sheet_saved_with_javascript_sends_only_what_the_outcome_needs(
    live_server, phone, director
):
    play = _sochi_round(director)
    page = phone
    page.goto(f"{live_server.url}{round_link(play, 'deals/1/')}")
    page.locator('input[name="as"][value="N"]').check()
    page.locator('input[name="declarer"][value="N"]').check()
    _bid(page, "7H")
    page.select_option("#id_defence_E", "whist")
    page.fill("#id_tricks_E", "1")
    page.select_option("#id_defence_E", "pass")  # then E passes: his tricks are not asked
    page.select_option("#id_defence_S", "whist")
    page.fill("#id_tricks_N", "7")
    page.fill("#id_tricks_S", "3")
    page.locator('label[for="group-talon-SA"]').click()
    page.locator('label[for="group-talon-H7"]').click()
    with page.expect_request(lambda r: r.method == "POST") as sent:
        page.get_by_role("button", name="Проверить").click()
    posted = sent.value.post_data
    assert "tricks_N=7" in posted and "tricks_S=3" in posted
    assert "tricks_E" not in posted and "defence_N" not in posted
    expect(page.locator("#settlement")).to_be_visible()
    expect(page.locator("#id_tricks_E")).to_be_disabled()  # the form sent back follows too
    with page.expect_request(lambda r: r.method == "POST") as sent:
        page.get_by_role("button", name="Сохранить").click()
    assert "tricks_E" not in sent.value.post_data
    expect(page).to_have_url(re.compile(r"saved=1"))
    data = ScoreSheet.objects.get(play=play, deal__number=1).current.data
    assert data["tricks"] == {"N": 7, "S": 3}
    assert data["defenders"] == {"E": "pass", "S": "whist"}

    # распасы after a talon was ticked: neither the talon nor a decision is sent.
    page.goto(f"{live_server.url}{round_link(play, 'deals/2/')}")
    page.locator('input[name="as"][value="N"]').check()
    page.locator('input[name="declarer"][value="N"]').check()
    _bid(page, "6D")
    page.select_option("#id_defence_E", "whist")
    page.locator('label[for="group-talon-SA"]').click()
    page.locator('label[for="group-talon-H7"]').click()
    page.locator('input[name="declarer"][value=""]').check()
    _bid(page, "passed")
    for seat, count in zip("NES", ("2", "3", "5"), strict=True):
        page.fill(f"#id_tricks_{seat}", count)
    with page.expect_request(lambda r: r.method == "POST") as sent:
        page.get_by_role("button", name="Проверить").click()
    posted = sent.value.post_data
    assert "talon=" not in posted and "defence_" not in posted
    expect(page.locator("#settlement")).to_be_visible()
    page.get_by_role("button", name="Сохранить").click()
    expect(page).to_have_url(re.compile(r"saved=2"))
    data = ScoreSheet.objects.get(play=play, deal__number=2).current.data
    assert data["contract"] == "passed" and "talon" not in data and "defenders" not in data


def test_without_javascript_every_field_shows_as_before(live_server, browser, director):
    play = _sochi_round(director)
    context = _phone_without_javascript(browser)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}{round_link(play, 'deals/1/')}")
    for seat in "NES":
        expect(_decisions(page, seat)).to_have_text(["—", "вист", "пас", "полвиста"])
        expect(page.locator(f"#id_tricks_{seat}")).to_be_visible()
    expect(page.locator("#group-talon")).to_be_visible()
    _fits(page)
    context.close()


# --- The event form: each game's own fields -----------------------------------------------


def test_the_event_form_shows_only_the_chosen_games_fields(live_server, phone, director, shot):
    page = phone
    login(page, live_server.url)
    page.goto(f"{live_server.url}/director/events/new/")
    austrian = page.locator("#austrian-options")
    russian = page.locator("#game-options")
    # «Игра» said once: the group's legend is the select's label.
    expect(page.get_by_text("Игра", exact=True)).to_have_count(1)
    expect(page.get_by_label("Игра", exact=True)).to_have_value("austrian")
    expect(austrian).to_be_visible()
    expect(russian).to_be_hidden()
    for field in ("#id_pot_rule", "#id_stake", "#id_suit_order"):
        expect(page.locator(field)).to_be_visible()
    expect(page.locator("#id_suit_order option")).to_have_text(["♠ < ♣ < ♦ < ♥", "♣ < ♠ < ♦ < ♥"])
    _fits(page)
    shot(page, "event-form-austrian-360")
    page.select_option("#id_game", "sochi")
    expect(austrian).to_be_hidden()
    expect(russian).to_be_visible()
    for field in ("#id_pot_rule", "#id_stake", "#id_suit_order"):
        expect(page.locator(field)).to_be_hidden()
    page.select_option("#id_game", "austrian")
    expect(austrian).to_be_visible()
    expect(russian).to_be_hidden()
    page.select_option("#id_game", "rostov")
    page.fill("#id_name", "Кубок Ростова")
    page.fill("#id_date", "2026-12-05")
    page.get_by_role("button", name="Сохранить").click()
    expect(page.locator("#event-game")).to_have_text(
        "Ростов · 10 проверяется · ответственность полная"
    )


def test_without_javascript_the_event_form_says_which_game_each_group_is_for(
    live_server, browser, director
):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="ru-RU", java_script_enabled=False
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    login(page, live_server.url)
    page.goto(f"{live_server.url}/director/events/new/")
    expect(page.locator("#austrian-options")).to_be_visible()
    expect(page.locator("#austrian-options")).to_contain_text("Только для австрийского преферанса")
    expect(page.locator("#game-options")).to_be_visible()
    expect(page.locator("#game-options")).to_contain_text("Только для Сочи, Ленинграда и Ростова")
    _fits(page)
    context.close()
