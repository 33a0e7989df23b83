"""The whole-table artificial scores in Chromium (issue 21, finding 11): the table is chosen
from the round's tables; only the chosen table's seats are offered — no «Место W» at a
table of three, and on one deal of a table of four not its dealer, who sits it out; a
set of three offers no deal 4. 35 players: room 1 plays 5 tables of 4, room 2 5 tables of
3. Screenshots at 1280 and 360 px: artifacts/screenshots/adjustments-*.png."""

import pytest
from playwright.sync_api import expect

from events import services as event_services
from events.models import Round
from movements import planner
from movements.services import session_create
from scoring.models import Adjustment
from tests.browser.helpers import login
from tests.factories import deal_of, play_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _mixed(event):
    for n in range(1, 36):
        event_services.entry_create(event, last_name=f"Игроков{n:02d}", first_name="Игорь")
    event_services.draw_make(event, seed="tests")
    option = next(
        o
        for o in planner.plan(35).as_dict()["options"]
        if [(r["kind"], r["tables"], r["seats"]) for r in o["rooms"]]
        == [("prime", 5, 4), ("prime", 5, 3)]
    )
    return session_create(event, option)


def _offered(page) -> str:
    return "".join(p for p in "WNES" if page.locator(f'[data-seat="{p}"]').is_visible())


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (360, 740)])
def test_only_the_chosen_tables_seats_are_offered(live_server, browser, event, shot, width, height):
    session = _mixed(event)
    four = Round.objects.get(room__session=session, room__number=1, number=1)
    three = Round.objects.get(room__session=session, room__number=2, number=1)
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="ru-RU", is_mobile=width < 500
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    login(page, live_server.url)
    page.goto(f"{live_server.url}/director/events/{event.pk}/scores/adjustments/")
    expect(
        page.get_by_role("heading", name="Искусственные результаты для всего стола")
    ).to_be_visible()
    table = page.locator("#id_table")
    assert table.evaluate("el => el.tagName") == "SELECT"

    page.select_option("#id_round", str(four.pk))
    assert table.locator("option").all_text_contents() == [f"Стол {n}" for n in range(1, 6)]
    page.select_option("#id_table", "2")
    assert _offered(page) == "WNES"
    assert page.locator('#id_deal option[value="4"]').is_enabled()
    page.select_option("#id_deal", "2")
    dealer = deal_of(play_of(session, 1, 2, room_number=1), 2).dealer
    assert _offered(page) == "".join(p for p in "WNES" if p != dealer)
    shot(page, f"adjustments-{width}-table-of-four")

    page.select_option("#id_round", str(three.pk))
    assert _offered(page) == "NES"
    assert not page.locator('[data-seat="W"]').is_visible()
    assert page.locator('#id_deal option[value="4"]').is_disabled()
    page.select_option("#id_table", "3")
    page.select_option("#id_deal", "")
    page.select_option("#id_score_N", "A+")
    page.get_by_label("Причина").fill("испорчен комплект")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"adjustments-{width}-table-of-three")
    page.get_by_role("button", name="Выставить результаты").click()
    expect(page.get_by_text("Стол 3, тур 1")).to_be_visible()
    given = Adjustment.objects.filter(play=play_of(session, 1, 3, room_number=2))
    assert given.count() == 9 and given.filter(score="A+").count() == 3
    context.close()


def test_a_refused_form_keeps_what_was_typed_and_names_the_rule(live_server, browser, event, shot):
    session = _mixed(event)
    four = Round.objects.get(room__session=session, room__number=1, number=1)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(15_000)
    login(page, live_server.url)
    page.goto(f"{live_server.url}/director/events/{event.pk}/scores/adjustments/")
    page.select_option("#id_round", str(four.pk))
    page.select_option("#id_table", "4")
    page.select_option("#id_score_W", "A-")
    page.get_by_role("button", name="Выставить результаты").click()  # no reason given
    expect(
        page.locator("#id_reason + small + .error, .field.has-error .error").first
    ).to_be_visible()
    assert page.locator("#id_round").input_value() == str(four.pk)
    assert page.locator("#id_table").input_value() == "4"
    assert page.locator("#id_score_W").input_value() == "A-"
    assert _offered(page) == "WNES"
    shot(page, "adjustments-1280-refused")
    assert not Adjustment.objects.exists()
    context.close()
