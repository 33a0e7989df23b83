"""Issue 21, findings 4, 5 and 8 in Chromium at 360 px.

- The table's page opened before the start follows the round: its clock counts, «Внести»
  appears at «Начало тура!» and «Конец тура!» shows, with no reload.
- A player who opens «Протоколы моего стола» from his page keeps the clock and the
  announcements there, and a link back to his page.
- On «Конец тура!» a player's phone says first where he goes («Вам: стол 2, место E,
  комплект 3»), then the general moves, once.
"""

import re

import pytest
from playwright.sync_api import expect

from events import rounds
from events.models import Entry, Round, Seat
from scoring.models import TablePlay
from tests.factories import play_of, round_link, seat_players, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phones(browser):
    """New 360 px phones, closed after the test (their polls stop with it)."""
    opened = []

    def new():
        context = browser.new_context(
            viewport={"width": 360, "height": 740}, locale="ru-RU", is_mobile=True, has_touch=True
        )
        opened.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield new
    for context in opened:
        context.close()


def test_the_table_page_opened_before_the_start_follows_the_round(live_server, phones, event, shot):
    session = seat_players(event, 15)
    first = Round.objects.get(room__session=session, number=1)
    play = play_of(session, 1, 1)
    page = phones()
    page.goto(f"{live_server.url}{round_link(play)}")
    expect(page.locator("#not-started")).to_be_visible()
    expect(page.locator("#table-clock [data-digits]")).to_be_visible()
    loads = []
    page.on("load", lambda _page: loads.append(1))

    rounds.round_start(first, length_seconds=300)
    # «Начало тура!» on the banner, the countdown running and «Внести» for every deal.
    expect(page.locator("#banner")).to_contain_text("Начало тура!", timeout=8000)
    expect(page.locator("#table-clock [data-digits]")).to_have_text(re.compile(r"^0[45]:"))
    expect(page.get_by_role("link", name="Внести")).to_have_count(
        play.board_set.deals.count(), timeout=8000
    )
    expect(page.locator("#not-started")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "table-follows-start-360")
    assert loads == []  # the start without a reload

    rounds.round_end_now(Round.objects.get(pk=first.pk))
    # «Конец тура!»: this phone proved nobody (the round link alone), so the round's sheets
    # leave its screen — it reloads into «Тур окончен — Кто вы?» (docs/game.md §4.5).
    expect(page.locator("#round-over")).to_be_visible(timeout=8000)
    expect(page.locator("#deals")).to_have_count(0)
    shot(page, "table-follows-end-360")


def test_the_player_at_his_table_page_keeps_his_clock_and_a_way_back(live_server, phones, event):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1), length_seconds=300)
    entry = Entry.objects.get(event=event, number=1)
    page = phones()
    page.goto(f"{live_server.url}/p/{entry.key}/")
    page.get_by_role("link", name="Протоколы моего стола").click()
    expect(page.locator("h1")).to_contain_text("Стол")
    # His clock and the announcements stay with him; the way back is at the top.
    expect(page.locator("#table-clock [data-digits]")).to_have_text(re.compile(r"^0[45]:"))
    back = page.get_by_role("link", name="← Моя страница")
    expect(back).to_be_visible()
    rounds.round_end_now(Round.objects.get(room__session=session, number=1))
    expect(page.locator("#banner")).to_contain_text("Конец тура!", timeout=8000)
    back.click()
    expect(page).to_have_url(re.compile(rf"/p/{entry.key}/$"))
    expect(page.get_by_text("Следующий тур 2: идите")).to_be_visible()


def test_the_end_of_the_round_says_first_where_he_goes_and_the_moves_once(
    live_server, phones, event, shot
):
    session = seat_players(event, 15)
    first = rounds.round_start(
        Round.objects.get(room__session=session, number=1), length_seconds=300
    )
    entry = Entry.objects.get(event=event, number=7)
    seat = Seat.objects.select_related("table").get(entry=entry, round__number=2)
    set_number = TablePlay.objects.get(round=seat.round, table=seat.table).board_set.number
    page = phones()
    page.goto(f"{live_server.url}/p/{entry.key}/")
    expect(page.get_by_text("Сейчас — тур 1")).to_be_visible()

    rounds.round_end_now(first)
    banner = page.locator("#banner")
    expect(banner).to_be_visible(timeout=8000)
    yours = banner.locator("[data-banner-yours]")
    expect(yours).to_have_text(
        f"Вам: стол {seat.table.number}, место {seat.position}, комплект {set_number}"
    )
    # His line before the general moves, in the banner's first lines.
    box = yours.bounding_box()
    assert box is not None and box["y"] < 200
    details = banner.locator("[data-banner-details]").text_content()
    assert "Тур 1 окончен" in details
    # The moves once: the clock panel does not say them again while the banner shows them.
    panel = page.locator("#player-clock [data-details]")
    expect(panel).to_be_hidden()
    # Counted once the page has settled (a live refresh may be redrawing the banner). A move,
    # not «Тур 1 окончен»: the seat block also says that the finished round's sheets are still
    # open («Тур 1 окончен, но протоколы вашего стола…»), once its refresh has come.
    a_move = details.split(";")[1].strip()
    assert "остаются" in a_move
    assert wait_until(lambda: page.locator("body").inner_text().count(a_move) == 1, 15), (
        a_move,
        page.locator("body").inner_text(),
    )
    shot(page, "phone-end-yours-first-360")
    banner.locator("[data-banner-close]").click()
    expect(banner).to_be_hidden()
    expect(panel).to_be_visible()
