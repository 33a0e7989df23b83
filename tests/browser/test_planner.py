"""The movement planner for 26 players at 1280 and 360 px: why two rooms, how long, in Russian."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.a11y import check_page
from tests.browser.helpers import login
from tests.movements.conftest import add_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LATIN_WORD = re.compile(r"\b[A-Za-z]{3,}\b")


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_the_planner_for_26_says_why_two_rooms_and_how_long(
    live_server, event, request, shot, device
):
    page = request.getfixturevalue(device)
    add_players(event, 26)
    login(page, live_server.url)
    page.goto(f"{live_server.url}/director/events/{event.pk}/movement/")
    why = page.locator("#why-rooms")
    expect(why).to_contain_text("Ни при каком простом числе столов (5, 7, 11, 13…)")
    expect(why).to_contain_text("одной комнатой их не рассадить")
    best = page.locator("label.option").first
    expect(best).to_contain_text("26 = 13 + 13.")
    expect(best).to_contain_text("копии одних и тех же комплектов")
    expect(best).to_contain_text("4 ч 20 мин: 13 туров × 4 сдачи × 5 мин на сдачу")
    expect(best).to_contain_text("Столов на сдачу")
    expect(best).to_contain_text("2–4; каждая сдача сравнивается")
    expect(best).to_contain_text("Сдач в комплекте")
    width = "1280" if device == "laptop" else "360"
    path = shot(page, f"planner-26-{width}")
    best.screenshot(path=str(path.with_name(f"planner-26-{width}-best.png")))
    why.screenshot(path=str(path.with_name(f"planner-26-{width}-why.png")))
    assert check_page(page) == []
    text = page.locator("main").inner_text()
    # Only the seat letters and «UTC» may be Latin on a Russian page.
    assert [w for w in LATIN_WORD.findall(text) if w != "UTC"] == []
