"""Errors below the fold (issue 21, finding 7), on a 360 px phone in Chromium: a sheet with
a broken rule checked comes back with its problems summed up at the top, the summary in
sight without scrolling, and the first wrong field focused and in sight beside it; a link of
the summary goes to its field. Without JavaScript the first field takes the focus too."""

import pytest
from playwright.sync_api import expect

from events import rounds
from events.models import Round
from scoring.models import ScoreSheet
from tests.browser.conftest import ARTIFACTS
from tests.factories import play_of, round_link, seat_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BROKEN = {  # «три» in clubs (below «три» a clubs contract is «два»), and 9 tricks in all
    "#id_contract": "three",
    "#id_trump": "clubs",
    "#id_defence_E": "whist",
    "#id_defence_S": "pass",
    "#id_tricks_N": "7",
    "#id_tricks_E": "2",
}


def _fill_and_check(page):
    page.locator('input[name="as"][value="N"]').check()
    page.locator('input[name="declarer"][value="N"]').check()
    for selector, value in BROKEN.items():
        if selector.startswith("#id_tricks"):
            page.fill(selector, value)
        else:
            page.select_option(selector, value)
    page.get_by_role("button", name="Проверить").click()


def _below(page, upper, lower) -> None:
    """``lower`` shows under ``upper`` (the sticky summary does not cover it)."""
    top, bottom = upper.bounding_box(), lower.bounding_box()
    assert bottom["y"] >= top["y"] + top["height"] - 1, (top, bottom)
    assert bottom["y"] + bottom["height"] <= page.viewport_size["height"], bottom


def _the_round(event):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    return play_of(session, 1, 1)


def test_a_broken_rule_is_summed_up_in_sight_and_its_field_focused(live_server, phone, event, shot):
    from tests.browser.a11y import check_page

    play = _the_round(event)
    phone.goto(f"{live_server.url}{round_link(play, 'deals/1/')}")
    _fill_and_check(phone)

    summary = phone.get_by_role("alert").filter(has_text="Исправьте 2 поля:")
    expect(summary).to_be_visible()
    expect(summary).to_be_in_viewport()
    expect(summary).to_contain_text("Козырь — при «три» козырь — бубны или червы")
    expect(summary).to_contain_text("Взятки — взятки должны в сумме давать 10, а дают 9")
    trump = phone.locator("#id_trump")
    expect(trump).to_be_focused()
    expect(trump).to_have_value("clubs")  # nothing typed is lost
    expect(trump).to_be_in_viewport()
    expect(phone.locator("#f-trump .error")).to_be_in_viewport()
    expect(summary).to_be_in_viewport()  # still, beside the field
    phone.wait_for_timeout(1000)  # the smooth scroll ends where it goes
    _below(phone, summary, phone.locator("#f-trump"))
    phone.screenshot(path=str(ARTIFACTS / "error-summary-360-viewport.png"))
    assert check_page(phone) == [], phone.url
    phone.locator("h1").scroll_into_view_if_needed()  # the whole page, the summary on top
    shot(phone, "error-summary-360")

    # The summary's second link goes to the tricks, the summary still in sight.
    summary.get_by_role("link", name="Взятки").click()
    tricks = phone.locator("#id_tricks_N")
    expect(tricks).to_be_focused()
    expect(tricks).to_be_in_viewport()
    expect(summary).to_be_in_viewport()
    phone.wait_for_timeout(1000)
    _below(phone, summary, phone.locator("#group-tricks legend"))
    expect(phone.locator("#id_tricks_E")).to_have_value("2")
    assert not ScoreSheet.objects.exists()


def test_without_javascript_the_first_wrong_field_takes_the_focus(live_server, browser, event):
    play = _the_round(event)
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        locale="ru-RU",
        is_mobile=True,
        has_touch=True,
        java_script_enabled=False,
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}{round_link(play, 'deals/1/')}")
    _fill_and_check(page)
    summary = page.get_by_role("alert").filter(has_text="Исправьте 2 поля:")
    expect(summary).to_be_in_viewport()
    trump = page.locator("#id_trump")
    expect(trump).to_be_focused()
    expect(trump).to_be_in_viewport()
    context.close()
