"""The director's live console in Chromium: a sheet recorded elsewhere shows without a reload."""

import pytest
from playwright.sync_api import expect

from events import rounds
from events.models import Round
from scoring.models import ScoreSheet
from scoring.sheets import services
from tests.browser.a11y import check_page
from tests.browser.helpers import login
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of, seat_players, sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _cell(page, table, deal):
    return page.locator(f'#console-grid tr[data-table="{table}"] td[data-deal="{deal}"]')


def test_the_grid_follows_sheets_recorded_meanwhile_without_a_reload(
    live_server, laptop, phone, event, director, shot
):
    session = seat_players(event, 15)
    room = session.rooms.get()
    rounds.round_start(Round.objects.get(room=room, number=1))
    two, three = play_of(session, 1, 2), play_of(session, 1, 3)
    services.sheet_record(two, deal_of(two, 1), THREE_DIAMONDS, by_user=director)
    services.sheet_record(two, deal_of(two, 2), THREE_DIAMONDS, by_entry=entry_at(two, "N"))
    services.sheet_record(three, deal_of(three, 1), THREE_DIAMONDS, by_entry=entry_at(three, "N"))
    services.sheet_record(
        three, deal_of(three, 1), sheet(tricks={"N": 8, "E": 2}), by_entry=entry_at(three, "E")
    )
    url = f"{live_server.url}/director/events/{event.pk}/rooms/{room.pk}/"
    login(laptop, live_server.url)
    laptop.goto(url)
    cell = _cell(laptop, 1, 1)
    expect(cell).to_have_attribute("data-state", "not_played")
    expect(_cell(laptop, 3, 1)).to_have_attribute("data-state", "disputed")
    confirmed = laptop.locator('[data-legend] [data-state="confirmed"] [data-count]')
    expect(confirmed).to_have_text("1")
    laptop.evaluate("window.sameDocument = true")

    play = play_of(session, 1, 1)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)

    expect(cell).to_have_attribute("data-state", "confirmed", timeout=6000)
    expect(cell.get_by_role("link")).to_contain_text("подтверждён")
    expect(confirmed).to_have_text("2")
    assert laptop.evaluate("window.sameDocument") is True  # updated in place, not reloaded
    assert check_page(laptop) == [], laptop.url  # the board swapped in is as accessible
    shot(laptop, "console-live-update-1280")
    sheet_id = ScoreSheet.objects.get(play=play).pk
    href = cell.get_by_role("link").get_attribute("href")
    assert href == f"/director/events/{event.pk}/scores/sheets/{sheet_id}/"

    # The round ends meanwhile: the tables short of sheets are marked (their deals stay not
    # played, not late: issue 21), the controls follow.
    rounds.round_end_now(Round.objects.get(room=room, number=1))
    expect(laptop.locator('tr[data-table="4"] .late-flag')).to_be_visible(timeout=6000)
    expect(_cell(laptop, 4, 1)).to_have_attribute("data-state", "not_played")
    expect(laptop.locator("[data-late] li")).to_have_count(5)
    expect(laptop.get_by_role("button", name="Начать тур 2")).to_be_visible(timeout=6000)
    expect(laptop.locator("#console-grid td.changed")).to_have_count(0)  # the flash is over
    shot(laptop, "director-console")

    # Publishing keeps the director on the console.
    laptop.get_by_role("button", name="Опубликовать результаты").click()
    expect(laptop.get_by_role("button", name="Скрыть результаты")).to_be_visible()
    expect(laptop).to_have_url(url)
    event.refresh_from_db()
    assert event.results_public
    assert laptop.evaluate("window.sameDocument") is True

    # At 360 px the grid scrolls inside its own box; the page does not.
    login(phone, live_server.url)
    phone.goto(url)
    expect(_cell(phone, 3, 1)).to_have_attribute("data-state", "disputed")
    assert check_page(phone) == []
    assert phone.evaluate(
        "(() => { const box = document.querySelector('.grid-scroll');"
        " return box.scrollWidth > box.clientWidth; })()"
    )
    shot(phone, "director-console-phone")
