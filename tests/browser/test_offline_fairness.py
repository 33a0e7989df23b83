"""Fair by design on the phones (issue 32), in Chromium at 360 px with the service worker
running (127.0.0.1 is a secure origin): a table's phone that came in through the table's
gate (seat and PIN) reopens its round page with no connection while the round runs; when
the director ends the round its pages leave the phone — the worker's cache holds none of
them and the round page no longer opens offline; a page answered ``no-store`` (a deal's
page that shows its talon) is never in the cache. The contract: docs/offline.md."""

import pytest
from playwright.sync_api import Error, expect

from events import rounds
from events.models import Entry, Round
from scoring.models import Proof, ScoreSheet
from scoring.sheets import services
from tests.factories import deal_of, play_of, round_link, seat_at, seat_players, varied_result

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Every URL the worker keeps, from whichever of its caches (the worker's own names).
KEPT_URLS = (
    "caches.keys().then(names => Promise.all(names.filter(n => !n.endsWith('-over'))"
    ".map(n => caches.open(n).then(c => c.keys()))))"
    ".then(lists => lists.flat().map(r => new URL(r.url).pathname + new URL(r.url).search))"
)


def _phone(browser):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="ru-RU", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def _wait_until(page, script: str, tries: int = 150) -> None:
    """Until ``script`` (an expression, maybe a promise) is true in the page."""
    for _ in range(tries):
        if page.evaluate(script):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never true: {script}")


def _kept(page) -> list[str]:
    return page.evaluate(KEPT_URLS)


def _has(page, url: str) -> None:
    """Until the worker keeps ``url`` (whatever the answer varies on: the worker's own
    lookups ignore it, the phone's answers are its own)."""
    _wait_until(page, f"caches.match({url!r}, {{ignoreVary: true}}).then(r => !!r)")


def _through_the_gate(page, live_server, play, seat="N"):
    """The table card's QR code, «Кто вы?»: the seat and its player's PIN."""
    page.goto(f"{live_server.url}/t/{play.table.key}/")
    page.locator(f'input[name="as"][value="{seat}"]').check()
    page.fill("#id_pin", seat_at(play, seat).entry.pin)
    page.get_by_role("button", name="Открыть протоколы тура").click()
    expect(page).to_have_url(f"{live_server.url}{round_link(play)}?as={seat}")
    expect(page.locator("#deals")).to_be_visible()


def _reopens_offline(context, page, play):
    context.set_offline(True)
    page.reload()
    expect(page.locator("#table-live h1")).to_contain_text("Стол 1 · тур 1")
    expect(page.locator("#deals li")).to_have_count(3)
    expect(page.locator("#table-clock [data-offline-banner]")).to_contain_text("нет связи")
    context.set_offline(False)


def test_a_phone_that_came_through_the_gate_reopens_its_round_page_offline(
    live_server, browser, event, shot
):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    path = f"{round_link(play)}?as=N"

    # A phone with no worker yet: the gate is its first page, the round page its second.
    context, page = _phone(browser)
    _through_the_gate(page, live_server, play)
    _has(page, path)
    _reopens_offline(context, page, play)
    shot(page, "offline-fairness-01-gate-reopened-offline-360")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width
    context.close()

    # A phone whose worker runs already (the player's page opened on it before): the POST
    # of «Кто вы?» and its redirect to the round page.
    context, page = _phone(browser)
    own = Entry.objects.get(event=event, number=9)
    page.goto(f"{live_server.url}/p/{own.key}/")
    _wait_until(page, "!!navigator.serviceWorker.controller")
    _through_the_gate(page, live_server, play, seat="E")
    _has(page, f"{round_link(play)}?as=E")
    _reopens_offline(context, page, play)
    context.close()


def test_when_the_round_ends_its_pages_leave_the_phone(live_server, browser, event):
    session = seat_players(event, 15)
    first = rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    scope = round_link(play)
    context, page = _phone(browser)
    _through_the_gate(page, live_server, play)
    page.goto(f"{live_server.url}{scope}deals/2/?as=N")  # a deal not played: no talon
    expect(page.locator("#id_contract")).to_be_visible()
    page.goto(f"{live_server.url}{scope}?as=N")
    _wait_until(
        page,
        f"({KEPT_URLS}).then(urls => ['{scope}?as=N', '{scope}deals/2/?as=N', "
        f"'{scope}clock.json'].every(u => urls.includes(u)))",
    )

    # A player of the table on his own phone: his page, and his table's from its link.
    own_context, own = _phone(browser)
    north = seat_at(play, "N").entry
    own.goto(f"{live_server.url}/p/{north.key}/")
    own.get_by_role("link", name="Протоколы моего стола").click()
    expect(own.locator("#deals")).to_be_visible()
    own.go_back()
    _has(own, f"{scope}?me={north.key}")
    _has(own, f"/p/{north.key}/")

    rounds.round_end_now(Round.objects.get(pk=first.pk))  # the director's «Конец тура!»
    # The clock says «окончен» — unless the page has already left the round (the reload
    # below may come first, on a loaded machine).
    expect(
        page.locator('#table-clock [data-state-label]:text-is("окончен"), #round-over').first
    ).to_be_visible()
    # Nobody proved himself on this phone since «Конец тура!» (the gate's PIN only led it
    # here): its round page reloads into «Тур окончен», no sheet (docs/game.md §4.5).
    expect(page.locator("#round-over")).to_be_visible()
    expect(page.locator("#deals")).to_have_count(0)
    # His page's clock says so too: its worker drops the round's pages, and keeps his own.
    expect(own.locator("#player-clock [data-state-label]")).to_have_text("окончен")
    _wait_until(own, f"({KEPT_URLS}).then(urls => !urls.some(u => u.startsWith('{scope}')))")
    assert f"/p/{north.key}/" in _kept(own)
    own_context.close()
    _wait_until(page, f"({KEPT_URLS}).then(urls => !urls.some(u => u.startsWith('{scope}')))")
    page.wait_for_timeout(2500)  # a poll of the clock since: its document is not kept again
    kept = _kept(page)
    assert not [u for u in kept if u.startswith(scope)], kept
    assert any(u.endswith("/js/offline.js") for u in kept), kept  # the rest stays

    context.set_offline(True)
    with pytest.raises(Error):
        page.reload()  # the browser's own error page: nothing of the round on the phone
    context.close()


def test_a_page_answered_no_store_is_never_kept(live_server, browser, event):
    """A deal's page that shows its talon (the table has played the deal: entered with one
    PIN, confirmed with another) answers ``no-store``: the worker neither keeps it nor
    keeps the copy it had from before the play."""
    session = seat_players(event, 15, dealing="app")
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    deal = deal_of(play, 1)
    page_path = f"{round_link(play)}deals/1/"
    context, page = _phone(browser)
    _through_the_gate(page, live_server, play)
    page.goto(f"{live_server.url}{page_path}?as=N")  # before the play: kept, no talon
    expect(page.locator("#known-talon")).to_have_count(0)
    _has(page, f"{page_path}?as=N")

    result = varied_result(1, 1, 1, deal.first_hand)
    north, east = seat_at(play, "N").entry, seat_at(play, "E").entry
    done = services.sheet_record(play, deal, result, by_entry=north, proof=Proof.PIN)
    services.sheet_confirm(done.sheet, by_entry=east, proof=Proof.PIN)
    assert ScoreSheet.objects.get(pk=done.sheet.pk).status == ScoreSheet.Status.CONFIRMED

    answers = []
    page.on("response", lambda r: answers.append(r) if page_path in r.url else None)
    page.goto(f"{live_server.url}{page_path}?as=N")
    expect(page.locator("#known-talon")).to_have_count(1)
    assert "no-store" in answers[-1].headers["cache-control"]
    assert "x-offline" not in answers[-1].headers
    page.goto(f"{live_server.url}{page_path}?as=E")
    expect(page.locator("#known-talon")).to_have_count(1)
    page.goto(f"{live_server.url}{round_link(play)}?as=N")
    page.wait_for_timeout(1000)
    kept = _kept(page)
    assert not [u for u in kept if u.startswith(page_path)], kept
    assert f"{round_link(play)}?as=N" in kept  # the round's page itself: kept
    context.close()
