"""The dealing sheets and the hand record at 1280 and 360 px, on screen and as printed: every
pocket readable, nothing off the screen, the red suits red, no Latin word on the Russian
page but the seat letters."""

import re

import pytest
from playwright.sync_api import expect

from events.models import Deal
from events.services import event_set_results_public
from scoring.hands import analysis
from scoring.sheets import services
from tests.browser.helpers import login
from tests.factories import deal_of, entry_at, play_of, seat_players, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LATIN_WORD = re.compile(r"\b[A-Za-z]{2,}\b")


def _fits(page, selector):
    """Every element of ``selector`` lies within the viewport's width."""
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].every(e => {
             const r = e.getBoundingClientRect();
             return r.left >= -1 && r.right <= window.innerWidth + 1; })""",
        selector,
    )


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_dealing_sheets_and_hand_record_read_well(live_server, event, request, shot, device):
    page = request.getfixturevalue(device)
    width = "1280" if device == "laptop" else "360"
    session = seat_players(event, 15, dealing="app")
    play = play_of(session, 1, 1)
    start(play.round)
    deal = deal_of(play, 1)
    services.sheet_record(
        play,
        deal,
        {
            "declarer": "N",
            "contract": "three",
            "trump": "diamonds",
            "defenders": {"E": "whist", "S": "pass"},
            "tricks": {"N": 6, "E": 4},
        },
        by_entry=entry_at(play, "N"),
    )
    analysis.session_analyse(session.pk)
    login(page, live_server.url)

    page.goto(f"{live_server.url}/director/events/{event.pk}/movement/")
    choice = page.locator("#dealing")
    expect(choice).to_contain_text("Раздача")
    expect(choice.get_by_label("приложением (из опубликованного зерна)")).not_to_be_checked()
    expect(choice.get_by_label("вручную")).to_be_checked()
    choice.screenshot(path=str(shot(page, f"planner-dealing-{width}")))

    page.goto(f"{live_server.url}/director/events/{event.pk}/sessions/1/")
    expect(page.locator("#analysis-progress")).to_contain_text("Анализ: 15 из 15 сдач")
    page.locator("#dealing").screenshot(path=str(shot(page, f"session-dealing-{width}")))

    page.goto(f"{live_server.url}/director/events/{event.pk}/sessions/1/dealing/")
    expect(page.get_by_role("heading", name="Листы раскладки · Сессия 1")).to_be_visible()
    boxes = page.locator("article.box")
    expect(boxes).to_have_count(15)
    first = boxes.first
    expect(first.locator(".pocket.pos-W")).to_contain_text("прикуп")
    assert _fits(page, "article.box .pocket")
    red = first.locator(".sym.suit-red").first.evaluate("e => getComputedStyle(e).color")
    assert red == "rgb(192, 22, 28)"
    shot(page, f"dealing-sheets-{width}")
    first.screenshot(
        path=str(shot(page, f"dealing-sheets-{width}").with_name(f"dealing-sheets-{width}-box.png"))
    )
    text = page.locator("#boxes").inner_text()
    assert [w for w in LATIN_WORD.findall(text)] == []
    page.emulate_media(media="print")
    shot(page, f"dealing-sheets-{width}-print")
    assert page.locator(".no-print").first.is_hidden()
    page.emulate_media(media="screen")

    event_set_results_public(event, True)
    # The deal is still played at other tables: the public address hides its cards from
    # everyone, the director too; he reads them on his own view (docs/game.md §4.5).
    page.goto(f"{live_server.url}/e/{event.slug}/results/deals/{deal.pk}/")
    expect(page.locator("#deal-in-play")).to_be_visible()
    expect(page.locator("#hand-record")).to_have_count(0)
    page.goto(f"{live_server.url}/e/{event.slug}/results/deals/{deal.pk}/?view=director")
    expect(page.locator(".director-view")).to_be_visible()
    record = page.locator("#hand-record")
    expect(record).to_be_visible()
    expect(record.locator(".pocket")).to_have_count(4)
    expect(record.locator(".dd-table")).to_be_visible()
    expect(page.locator("#traveller")).to_contain_text("по картам:")
    assert _fits(page, "#hand-record .pocket, #hand-record .dd-table")
    record.screenshot(
        path=str(shot(page, f"hand-record-{width}").with_name(f"hand-record-{width}-diagram.png"))
    )
    text = record.inner_text()
    assert [w for w in LATIN_WORD.findall(text)] == []

    north = entry_at(play, "N")
    page.goto(f"{live_server.url}/e/{event.slug}/results/cards/{north.number}/?view=director")
    hands = page.locator("#card-hands details")
    expect(hands).to_have_count(15)
    hands.first.locator("summary").click()
    expect(hands.first.locator(".pocket.pos-N")).to_contain_text(north.full_name)
    assert _fits(page, "#card-hands .pocket, #card-hands .dd-table")
    hands.first.screenshot(path=str(shot(page, f"card-hand-{width}")))

    page.goto(f"{live_server.url}/e/{event.slug}/results/sessions/1/hands/?view=director")
    expect(page.locator("#hands article.box")).to_have_count(15)
    assert _fits(page, "#hands .pocket, #hands .dd-table")
    shot(page, f"hand-records-{width}")
    assert Deal.objects.filter(board_set__session=session, analysed_at__isnull=True).count() == 0
