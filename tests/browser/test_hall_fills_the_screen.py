"""The hall screen at 1080p (issue 21, finding 14): the room's panel fills the screen below
the event's name, its countdown centred in digits a hall reads from the back; two rooms
share the screen side by side; on a laptop and a phone it still fits. Screenshots in
artifacts/screenshots/hall-*.png."""

import re

import pytest
from playwright.sync_api import expect

from events import rounds
from events.models import Round
from tests.factories import seat_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOX = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
  return {x: r.x, y: r.y, w: r.width, h: r.height}; }"""


def _hall(browser, live_server, event, width, height):
    context = browser.new_context(viewport={"width": width, "height": height}, locale="ru-RU")
    page = context.new_page()
    page.goto(f"{live_server.url}/e/{event.slug}/clock")
    expect(page.locator("[data-digits]").first).to_have_text(re.compile(r"^\d\d:\d\d$"))
    return context, page


def _digits(page, index=0):
    """The box of the countdown's glyphs (its text, not the block it sits in)."""
    return page.evaluate(
        """i => { const el = document.querySelectorAll('[data-digits]')[i];
          const range = document.createRange(); range.selectNodeContents(el);
          const r = range.getBoundingClientRect();
          return {x: r.x, y: r.y, w: r.width, h: r.height,
                  size: parseFloat(getComputedStyle(el).fontSize)}; }""",
        index,
    )


def test_one_room_fills_the_1080p_screen_with_its_countdown_centred(
    live_server, browser, event, shot
):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1), length_seconds=600)
    context, page = _hall(browser, live_server, event, 1920, 1080)
    panel = page.evaluate(BOX, ".clock-room")
    assert panel["h"] >= 0.8 * 1080 and panel["w"] >= 0.9 * 1920, panel
    assert panel["y"] + panel["h"] <= 1080  # no scrolling to see it
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    digits = _digits(page)
    assert digits["size"] >= 0.3 * 1080, digits  # a third of the screen's height
    centre = digits["x"] + digits["w"] / 2
    assert abs(centre - 1920 / 2) <= 0.03 * 1920, digits
    middle = digits["y"] + digits["h"] / 2
    assert panel["y"] + 0.25 * panel["h"] <= middle <= panel["y"] + 0.75 * panel["h"]
    headline = page.evaluate(BOX, "[data-headline]")
    assert abs(headline["x"] + headline["w"] / 2 - 1920 / 2) <= 0.03 * 1920
    shot(page, "hall-1080p-running")
    rounds.round_end_now(Round.objects.get(room__session=session, number=1))
    expect(page.locator("[data-headline]")).to_have_text("Конец тура!", timeout=5000)
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    shot(page, "hall-1080p-end")
    context.close()


def test_two_rooms_share_the_screen_side_by_side(live_server, browser, event, shot):
    session = seat_players(event, 30, kind="prime", seats=3)
    assert session.rooms.count() == 2
    for room in session.rooms.all():
        rounds.round_start(Round.objects.get(room=room, number=1), length_seconds=600)
    context, page = _hall(browser, live_server, event, 1920, 1080)
    panels = page.evaluate(
        """() => [...document.querySelectorAll('.clock-room')].map(el => {
          const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; })"""
    )
    assert len(panels) == 2
    assert panels[0]["y"] == panels[1]["y"] and panels[0]["x"] < panels[1]["x"]
    assert all(p["h"] >= 0.8 * 1080 for p in panels), panels
    for i, p in enumerate(panels):
        digits = _digits(page, i)
        assert digits["size"] >= 0.15 * 1080 and digits["w"] <= p["w"], digits
        assert abs(digits["x"] + digits["w"] / 2 - (p["x"] + p["w"] / 2)) <= 0.03 * p["w"]
    shot(page, "hall-1080p-two-rooms")
    first = Round.objects.get(room__session=session, room__number=1, number=1)
    rounds.round_end_now(first)
    expect(page.locator("[data-headline]").first).to_have_text("Конец тура!", timeout=5000)
    details = page.evaluate(BOX, "[data-details]")
    assert details["y"] + details["h"] <= panels[0]["y"] + panels[0]["h"], details
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    shot(page, "hall-1080p-two-rooms-end")
    context.close()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (360, 740)])
def test_the_hall_fits_a_laptop_and_a_phone(live_server, browser, event, shot, width, height):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1), length_seconds=600)
    context, page = _hall(browser, live_server, event, width, height)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    panel = page.evaluate(BOX, ".clock-room")
    digits = _digits(page)
    assert digits["w"] <= panel["w"] and digits["x"] >= panel["x"], (digits, panel)
    assert abs(digits["x"] + digits["w"] / 2 - (panel["x"] + panel["w"] / 2)) <= 0.05 * width
    shot(page, f"hall-{width}")
    context.close()
