"""The Russian hand record in Chromium at 1280 and 360 px (issue 23): a Сочи event whose
boxes the app dealt, 6♠, мизер and распасы recorded, analysed and published. The traveller's
double-dummy table has ♠ ♣ ♦ ♥ БК and мизер, every column on the screen and nothing
clipped; its rows say «по картам» (распасы: not counted); the player's card and the
printable hand records show the same tables; no Latin word on the Russian pages but the
seat letters."""

import re

import pytest
from playwright.sync_api import expect

from tests.factories import entry_at
from tests.scoring.hands.test_russian_hand_records import SochiDealt, _solved

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


def _within_boxes(page, selector):
    """Every element of ``selector`` lies within its parent's content box."""
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].every(e => {
             const r = e.getBoundingClientRect(), box = e.parentElement;
             const p = box.getBoundingClientRect(), cs = getComputedStyle(box);
             return r.right <= p.right - parseFloat(cs.paddingRight) + 1; })""",
        selector,
    )


def _clipped(page, selector):
    """The texts of ``selector``'s elements whose content is wider than their box."""
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)]
             .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)""",
        selector,
    )


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_the_russian_hand_record_reads_well(live_server, director, request, shot, device):
    page = request.getfixturevalue(device)
    width = "1280" if device == "laptop" else "360"
    sochi = SochiDealt(director)
    sochi.publish()
    made, misere, _passed = sochi.sheets
    base = f"{live_server.url}/e/{sochi.event.slug}/results"

    page.goto(f"{base}/deals/{sochi.deal.pk}/")
    assert page.evaluate("window.innerWidth") == int(width)
    record = page.locator("#hand-record")
    table = record.locator(".dd-table")
    expect(table).to_be_visible()
    expect(table.locator("thead th")).to_have_count(7)
    expect(table.locator("thead th").nth(5)).to_have_text("БК")
    expect(table.locator("thead th").nth(6)).to_have_text("мизер")
    expect(table.locator("tbody tr")).to_have_count(3)
    expect(table.locator("caption")).to_contain_text("первый ход — первая рука N")
    expect(record.locator(".pocket.pos-N")).to_contain_text("первая рука")
    assert _fits(page, "#hand-record .pocket, #hand-record .dd-table, #hand-record .dd-table *")
    assert _clipped(page, "#hand-record .dd-table th, #hand-record .dd-table td") == []
    record.screenshot(
        path=str(
            shot(page, f"ru-hand-record-{width}").with_name(f"ru-hand-record-{width}-table.png")
        )
    )
    assert LATIN_WORD.findall(record.inner_text()) == []

    traveller = page.locator("#traveller")
    expect(traveller).to_contain_text(f"по картам: {_solved(sochi.deal, made)}")
    expect(traveller).to_contain_text(f"по картам: {_solved(sochi.deal, misere)}")
    expect(traveller).to_contain_text("распасы: по картам не считается")
    assert _fits(page, "#traveller .by-cards")
    if device == "phone":  # nothing scrolls sideways (the 1280 px results table is wider)
        assert page.evaluate("document.documentElement.scrollWidth") == 360
    assert _within_boxes(page, "#hand-record .dd-table")
    assert LATIN_WORD.findall(traveller.inner_text()) == []
    shot(page, f"ru-traveller-{width}")

    north = entry_at(sochi.plays[0], "N")
    page.goto(f"{base}/cards/{north.number}/")
    hands = page.locator("#card-hands details")
    expect(hands).to_have_count(15)
    hands.first.locator("summary").click()
    expect(hands.first.locator(".dd-table thead th")).to_have_count(7)
    assert _fits(page, "#card-hands details[open] .pocket, #card-hands details[open] .dd-table")
    assert _clipped(page, "#card-hands details[open] .dd-table td") == []
    assert _within_boxes(page, "#card-hands details[open] .dd-table")
    if device == "phone":
        assert page.evaluate("document.documentElement.scrollWidth") == 360
    hands.first.screenshot(path=str(shot(page, f"ru-card-hand-{width}")))

    page.goto(f"{base}/sessions/1/hands/")
    expect(page.locator("#hands article.box")).to_have_count(15)
    expect(page.locator("#hands .dd-table").first.locator("caption")).to_contain_text("мизер")
    assert _fits(page, "#hands .pocket, #hands .dd-table")
    assert _clipped(page, "#hands .dd-table td, #hands .dd-table th") == []
    assert _within_boxes(page, "#hands .dd-table")
    if device == "phone":
        assert page.evaluate("document.documentElement.scrollWidth") == 360
    assert LATIN_WORD.findall(page.locator("#hands").inner_text()) == []
    shot(page, f"ru-hand-records-{width}")
    page.emulate_media(media="print")
    shot(page, f"ru-hand-records-{width}-print")
    page.emulate_media(media="screen")
