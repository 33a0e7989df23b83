"""Phones through bad Wi-Fi (issue 25), in Chromium at 360 px: the table's outbox sends a sheet
saved offline by itself once the connection is back, and only once; a refusal found on
sending brings the form back with the server's message; two phones queuing different results
end in a dispute; the player's page opens with no connection (the service worker: 127.0.0.1
is a secure origin) with his seat and the countdown; with no service worker the outbox still
works (as over plain http on a LAN address)."""

import re

import pytest
from playwright.sync_api import expect

from events import rounds
from events.models import Entry, Round
from scoring.models import ScoreSheet, ScoreSheetVersion, TablePlay
from scoring.sheets import services
from tests.browser.a11y import check_page
from tests.factories import play_of, round_link, seat_at, seat_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# E whists «три» in diamonds against N and takes 3.
CHOSEN = {"#id_contract": "three", "#id_trump": "diamonds", "#id_defence_E": "whist"}
CHOSEN_S = {"#id_defence_S": "pass"}
TYPED = {"#id_tricks_N": "7", "#id_tricks_E": "3", "#id_note": "в очереди"}


def _phone(browser, **options):
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        locale="ru-RU",
        is_mobile=True,
        has_touch=True,
        **options,
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def _fill_and_check(page, *, seat="E", tricks_n="7", tricks_e="3"):
    page.locator(f'input[name="as"][value="{seat}"]').check()
    page.locator('input[name="declarer"][value="N"]').check()
    for selector, value in {**CHOSEN, **CHOSEN_S}.items():
        page.select_option(selector, value)
    page.fill("#id_tricks_N", tricks_n)
    page.fill("#id_tricks_E", tricks_e)
    page.fill("#id_note", TYPED["#id_note"])
    page.get_by_role("button", name="Проверить").click()
    expect(page.locator("#settlement")).to_be_visible()


def _wait_until(page, script: str, tries: int = 100) -> None:
    """Until ``script`` (an expression, maybe a promise) is true in the page."""
    for _ in range(tries):
        if page.evaluate(script):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never true: {script}")


def _kept(page, url: str) -> None:
    """The service worker controls the page's origin and keeps ``url``."""
    _wait_until(page, "navigator.serviceWorker.ready.then(() => true)")
    _wait_until(page, f"caches.match({url!r}).then(r => !!r)")


def _versions(play) -> int:
    return ScoreSheetVersion.objects.filter(sheet__play=play).count()


def test_a_sheet_saved_offline_is_kept_over_a_reload_and_sent_once_by_itself(
    live_server, browser, event, shot
):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    context, page = _phone(browser)
    path = round_link(play, "deals/1/")
    url = f"{live_server.url}{path}"
    page.goto(url)
    _kept(page, path)  # the deal's page opens with no connection now
    _fill_and_check(page)

    context.set_offline(True)
    page.get_by_role("button", name="Сохранить").click()
    outbox = page.locator("#outbox")
    expect(outbox).to_be_visible()
    expect(outbox.locator("[data-outbox-count]")).to_have_text("в очереди: 1")
    expect(outbox).to_contain_text("Сдача 1.1")
    expect(page.locator("#outbox-note")).to_be_visible()
    kept = page.evaluate("JSON.stringify(Object.assign({}, localStorage))")
    assert "outbox:" in kept and '"pin"' not in kept
    assert _versions(play) == 0
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width
    assert check_page(page) == [], page.url
    shot(page, "outbox-01-queued-offline-360")

    # Opened again with no connection: the page comes from the phone, the outbox with it.
    page.goto(url)
    expect(page.locator("#outbox [data-outbox-count]")).to_have_text("в очереди: 1")
    expect(page.locator("#table-clock [data-offline-banner]")).to_contain_text("нет связи")
    assert _versions(play) == 0
    shot(page, "outbox-02-reopened-offline-360")
    item = page.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('outbox:'))"
        ".map(k => [k, localStorage.getItem(k)])[0]"
    )

    # The connection is back: sent without a touch, recorded once; the panel says so.
    context.set_offline(False)
    expect(page.locator("#outbox [data-outbox-count]")).to_have_text("отправлено", timeout=20_000)
    sheet = ScoreSheet.objects.get(play=play)
    assert sheet.current.data["tricks"] == {"N": 7, "E": 3}
    assert sheet.current.proof == "seat"  # no PIN was kept: marked for the director
    assert _versions(play) == 1
    shot(page, "outbox-03-sent-360")

    # The same queued sheet sent again (its answer lost on the way): still one version.
    page.evaluate(
        "([k, v]) => { localStorage.setItem(k, v); window.PreferenceOutbox.flush(); }", item
    )
    _wait_until(page, "!Object.keys(localStorage).some(k => k.startsWith('outbox:'))")
    assert _versions(play) == 1
    context.close()


def test_a_queued_sheet_refused_on_sending_comes_back_to_its_form(
    live_server, browser, event, director, shot
):
    session = seat_players(event, 15)
    first = rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    context, page = _phone(browser)
    url = f"{live_server.url}{round_link(play, 'deals/1/')}"
    page.goto(url)
    _fill_and_check(page)
    context.set_offline(True)
    page.get_by_role("button", name="Сохранить").click()
    expect(page.locator("#outbox [data-outbox-count]")).to_have_text("в очереди: 1")
    # Meanwhile the round ends and the next one starts: round 1 is closed to its players.
    rounds.round_end_now(first)
    rounds.round_start(Round.objects.get(room__session=session, number=2))

    context.set_offline(False)
    refused = page.locator("#outbox [data-outbox-refused]")
    expect(refused).to_contain_text("Сдача 1.1: сервер не принял протокол.", timeout=20_000)
    assert not ScoreSheet.objects.filter(play=play).exists()
    shot(page, "outbox-04-refused-360")

    # Opened again (the director opens the round once more): the server's words above the
    # form, every field as typed.
    services.play_access_set(play, TablePlay.Access.OPEN, by_user=director)
    refused.get_by_role("link", name="Открыть форму").click()
    # The round is over: the shared phone shows its sheets only to someone who proves he
    # sat there (docs/game.md §4.5) — E names his seat and types his PIN, then the form.
    expect(page.locator("#round-over")).to_be_visible()
    page.locator('label[for="as-E"]').click()
    page.locator("#id_pin").fill(seat_at(play, "E").entry.pin)
    page.locator("#gate button[type=submit]").click()
    expect(page.locator("#table-live")).to_be_visible()
    page.goto(url)
    box = page.locator("#outbox-refusal")
    expect(box).to_be_visible()
    expect(box).to_contain_text("Сервер не принял этот протокол")
    assert len(box.locator("[data-outbox-texts] p").all_text_contents()) >= 1
    expect(page.locator('input[name="declarer"][value="N"]')).to_be_checked()
    expect(page.locator('input[name="as"][value="E"]')).to_be_checked()
    for selector, value in {**CHOSEN, **CHOSEN_S, **TYPED}.items():
        expect(page.locator(selector)).to_have_value(value)
    assert check_page(page) == [], page.url
    shot(page, "outbox-05-refused-form-360")
    page.fill("#id_pin", seat_at(play, "E").entry.pin)  # a round opened again: with his PIN
    page.get_by_role("button", name="Проверить").click()
    page.fill("#id_pin", seat_at(play, "E").entry.pin)
    page.get_by_role("button", name="Сохранить").click()
    expect(page).to_have_url(re.compile(r"saved=1"))
    assert _versions(play) == 1
    context.close()


def test_two_phones_queuing_different_results_end_in_a_dispute(live_server, browser, event):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    url = f"{live_server.url}{round_link(play, 'deals/1/')}"
    first, one = _phone(browser)
    second, two = _phone(browser)
    one.goto(url)
    two.goto(url)
    _fill_and_check(one, seat="E", tricks_n="7", tricks_e="3")
    _fill_and_check(two, seat="S", tricks_n="6", tricks_e="4")
    first.set_offline(True)
    second.set_offline(True)
    one.get_by_role("button", name="Сохранить").click()
    two.get_by_role("button", name="Сохранить").click()
    expect(one.locator("#outbox [data-outbox-count]")).to_have_text("в очереди: 1")
    expect(two.locator("#outbox [data-outbox-count]")).to_have_text("в очереди: 1")
    first.set_offline(False)
    second.set_offline(False)
    expect(one.locator("#outbox [data-outbox-count]")).to_have_text("отправлено", timeout=20_000)
    expect(two.locator("#outbox [data-outbox-count]")).to_have_text("отправлено", timeout=20_000)
    sheet = ScoreSheet.objects.get(play=play)
    assert sheet.status == ScoreSheet.Status.DISPUTED
    assert _versions(play) == 2
    first.close()
    second.close()


def _saved_offline_without_a_worker(live_server, browser, event):
    """Round 1 on the clock; a phone that runs no service worker saves deal 1 of table 1
    offline: queued. Returns the table-round, the phone's context and its page."""
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    context, page = _phone(browser, service_workers="block")
    page.goto(f"{live_server.url}{round_link(play, 'deals/1/')}")
    _fill_and_check(page)
    context.set_offline(True)
    page.get_by_role("button", name="Сохранить").click()
    expect(page.locator("#outbox [data-outbox-count]")).to_have_text("в очереди: 1")
    return play, context, page


def test_the_outbox_works_without_a_service_worker(live_server, browser, event):
    """As over plain http on a LAN address, where browsers run no service worker."""
    play, context, page = _saved_offline_without_a_worker(live_server, browser, event)
    assert page.evaluate("navigator.serviceWorker.controller") is None
    # The round's page of the same phone (opened once the connection is back) sends it.
    context.set_offline(False)
    page.goto(f"{live_server.url}{round_link(play)}")
    # Within 20 s: the first send waits up to 1.5 s, and a loaded machine's round page more.
    expect(page.locator("#outbox [data-outbox-count]")).to_have_text("отправлено", timeout=20_000)
    expect(page.locator('#deals li[data-deal="1"]')).to_have_class(
        re.compile("state-entered"), timeout=20_000
    )
    assert _versions(play) == 1
    context.close()


def test_a_page_left_while_it_sends_gives_its_item_to_the_next_page(live_server, browser, event):
    """The deal's page starts sending when the connection is back, and the phone opens the
    round's page before the answer comes: the cut-off send does not hold the item for the
    claim's 20 s; the round's page sends it at once, and the server records it once."""
    play, context, page = _saved_offline_without_a_worker(live_server, browser, event)
    held = []

    def hold_the_first(route):
        if route.request.method == "POST" and not held:
            held.append(route)  # never answered: the page is left before it is
            return
        route.continue_()

    context.route("**/deals/1/**", hold_the_first)
    context.set_offline(False)
    _wait_until(page, "window.PreferenceOutbox.items().some(it => it.claimed > 0)")
    assert held, "the deal's page sent the queued sheet when the connection came back"
    page.goto(f"{live_server.url}{round_link(play)}")
    expect(page.locator("#outbox [data-outbox-count]")).to_have_text("отправлено", timeout=10_000)
    assert _versions(play) == 1
    context.close()


def test_a_players_page_opened_offline_shows_his_seat_and_the_countdown(
    live_server, browser, event, shot
):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1), length_seconds=300)
    entry = Entry.objects.get(event=event, number=1)  # N at table 1
    context, page = _phone(browser)
    path = f"/p/{entry.key}/"
    page.goto(f"{live_server.url}{path}")
    expect(page.get_by_text("Сейчас — тур 1")).to_be_visible()
    _kept(page, path)
    _kept(page, f"{path}clock.json")

    context.set_offline(True)
    # The server was last heard five minutes ago (what clock.js keeps on the phone).
    page.evaluate(
        "url => localStorage.setItem('clock-heard:' + url,"
        " JSON.stringify({offset: 0, at: Date.now() - 5 * 60000 - 1000}))",
        f"{path}clock.json",
    )
    page.goto(f"{live_server.url}{path}")
    expect(page.get_by_text("Сейчас — тур 1")).to_be_visible()
    expect(
        page.get_by_text("По команде «Конец тура!» отнесите комплект на стол 5.")
    ).to_be_visible()
    expect(page.locator("[data-digits]").first).to_have_text(re.compile(r"^04:"))
    expect(page.locator("#player-clock [data-offline-banner]")).to_have_text("нет связи 5 мин")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width
    shot(page, "offline-player-360")
    context.close()


def test_back_online_the_players_phone_fetches_his_seat_blocks_once_and_shows_the_end(
    live_server, browser, event
):
    """The round ends while the phone is offline; back online, the clock's first answer
    brings the end and the seat blocks are fetched once (not also on ``online``)."""
    session = seat_players(event, 15)
    first = Round.objects.get(room__session=session, number=1)
    rounds.round_start(first, length_seconds=300)
    entry = Entry.objects.get(event=event, number=1)
    context, page = _phone(browser)
    page.goto(f"{live_server.url}/p/{entry.key}/")
    expect(page.get_by_text("Сейчас — тур 1")).to_be_visible()
    fetched = []
    page.on("response", lambda r: fetched.append(r.url) if r.url.endswith("/places") else None)
    context.set_offline(True)
    rounds.round_end_now(Round.objects.get(pk=first.pk))
    page.wait_for_timeout(500)
    context.set_offline(False)
    expect(page.get_by_text("Следующий тур 2: идите")).to_be_visible(timeout=10_000)
    page.wait_for_timeout(3000)  # the spread of a second fetch, had there been one
    assert len(fetched) == 1, fetched
    context.close()


def test_at_zero_the_phone_says_the_round_time_is_up_until_the_server_ends_it(
    live_server, browser, event
):
    session = seat_players(event, 15)
    rnd = rounds.round_start(Round.objects.get(room__session=session, number=1), length_seconds=4)
    entry = Entry.objects.get(event=event, number=1)
    context, page = _phone(browser)
    path = f"/p/{entry.key}/"
    page.goto(f"{live_server.url}{path}")
    _kept(page, path)  # the page itself too, not only its clock document
    _kept(page, f"{path}clock.json")
    context.set_offline(True)
    page.goto(f"{live_server.url}{path}")
    state = page.locator("#player-clock [data-state-label]")
    expect(state).to_have_text("время тура вышло", timeout=20_000)
    expect(page.locator("[data-digits]").first).to_have_text("00:00")
    context.set_offline(False)
    rnd.refresh_from_db()
    if rnd.is_on_clock:  # a worker of the suite's broker may have fired its timer already
        rounds.round_end_now(rnd)
    expect(state).to_have_text("окончен", timeout=20_000)
    context.close()


def test_a_confirmation_from_the_players_own_link_is_queued_and_sent(live_server, browser, event):
    """His own link proves him without a PIN: the one confirmation the outbox may keep."""
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    north, east = seat_at(play, "N").entry, seat_at(play, "E").entry
    first, one = _phone(browser)
    one.goto(f"{live_server.url}{round_link(play, 'deals/1/')}?me={north.key}")
    _fill_and_check(one, seat="N")
    one.get_by_role("button", name="Сохранить").click()  # online: sent at once
    expect(one).to_have_url(re.compile(r"saved=1"))
    expect(one.get_by_text("Сдача 1.1 записана.")).to_be_visible()
    first.close()

    second, two = _phone(browser)
    two.goto(f"{live_server.url}{round_link(play)}?me={east.key}")
    card = two.locator('#deals li[data-deal="1"]')
    second.set_offline(True)
    card.get_by_role("button", name="Подтвердить этот результат").click()
    expect(two.locator("#outbox [data-outbox-count]")).to_have_text("в очереди: 1")
    expect(two.locator("#outbox")).to_contain_text("Подтверждение сдачи 1.1")
    second.set_offline(False)
    expect(two.locator("#outbox [data-outbox-count]")).to_have_text("отправлено", timeout=20_000)
    sheet = ScoreSheet.objects.get(play=play)
    assert sheet.status == ScoreSheet.Status.CONFIRMED and sheet.confirmed_by_entry == east
    expect(two.locator('#deals li[data-deal="1"]')).to_have_class(
        re.compile("state-confirmed"), timeout=10_000
    )
    second.close()
