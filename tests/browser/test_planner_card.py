"""The planner for a club evening of 33 players at 1280 and 360 px: one recommended card,
the other options in a table, the seats choice, and why 31 or 34 players need two rooms."""

import re

import pytest
from playwright.sync_api import expect

from events.models import Session
from tests.browser.a11y import check_page
from tests.browser.helpers import login
from tests.movements.conftest import add_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LATIN_WORD = re.compile(r"\b[A-Za-z]{3,}\b")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def open_planner(page, live_server, event, query=""):
    page.goto(f"{live_server.url}/director/events/{event.pk}/movement/{query}")


def no_latin(page):
    # Only the seat letters and «UTC» may be Latin on a Russian page.
    text = page.locator("main").inner_text()
    return [w for w in LATIN_WORD.findall(text) if w != "UTC"]


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_33_players_see_one_recommended_card_and_a_compact_table(
    live_server, event, request, shot, device
):
    page = request.getfixturevalue(device)
    width = "1280" if device == "laptop" else "360"
    event.minutes_per_deal = 3
    event.save()
    add_players(event, 33)
    login(page, live_server.url)
    open_planner(page, live_server, event)
    card = page.locator("#recommended")
    expect(card).to_be_visible()
    expect(card.locator(".option-head")).to_have_text("Рекомендуем: вариант 1")
    expect(card.locator(".plan-name")).to_have_text("простое число столов")
    facts = card.locator("dl.plan-facts")
    expect(facts).to_contain_text("1 комната")
    expect(facts).to_contain_text("11 столов по 3")
    expect(facts).to_contain_text("Туры11")
    expect(facts).to_contain_text("33 за каждым столом, по 3 в комплекте")
    expect(facts).to_contain_text("1:39 по 3 мин на сдачу")
    expect(facts).to_contain_text("если начать сейчас")
    promises = card.locator("ul.plan-promises li")
    expect(promises.first).to_have_text(
        "каждый встречается с каждым игроком других линий ровно один раз"
    )
    expect(card.locator("#option-0")).to_be_checked()
    # The full figures are folded: the card stays short.
    expect(card.locator("dl.figures")).to_be_hidden()
    card.get_by_text("Все показатели").click()
    expect(card.locator("dl.figures")).to_be_visible()
    expect(card.locator("dl.figures")).to_contain_text("Охватвстречаются 68.8% всех пар игроков")
    card.get_by_text("Все показатели").click()
    box = card.bounding_box()
    assert box["height"] < (700 if device == "laptop" else 1300), box

    rows = page.locator("#other-options tbody tr")
    expect(rows).to_have_count(17)
    second = rows.first
    expect(second).to_contain_text("процедура пропуска + специальная схема на 9")
    expect(second).to_contain_text("6 × 4 + 2 × 4")
    expect(page.locator("#other-options")).to_contain_text("Порядок вариантов, по очереди")
    # Choosing in the table moves the choice off the card.
    second.get_by_text("Выбрать").click()
    expect(page.locator("#option-1")).to_be_checked()
    expect(card.locator("#option-0")).not_to_be_checked()
    open_planner(page, live_server, event)

    path = shot(page, f"planner-33-{width}")
    card.screenshot(path=str(path.with_name(f"planner-33-{width}-card.png")))
    page.locator("#other-options").screenshot(
        path=str(path.with_name(f"planner-33-{width}-table.png"))
    )
    assert check_page(page) == []
    assert no_latin(page) == []


def test_the_seats_choice_filters_the_options_and_seats_the_chosen_one(
    live_server, event, laptop, shot
):
    page = laptop
    add_players(event, 33)
    login(page, live_server.url)
    open_planner(page, live_server, event)
    choice = page.locator("#plan-seats")
    expect(choice.get_by_label("любые")).to_be_checked()
    choice.get_by_label("только по 4").check()
    choice.get_by_role("button", name="Показать").click()
    expect(page).to_have_url(re.compile(r"\?seats=4$"))
    expect(page.locator("#plan-seats").get_by_label("только по 4")).to_be_checked()
    why = page.locator("#why-rooms")
    expect(why).to_contain_text("Со столами только по 4")
    expect(why).to_contain_text("33 не делится на 4: одной комнатой их не рассадить")
    expect(why).to_contain_text("32 игрока (на 1 меньше) — процедура пропуска, 8 столов по 4")
    for cell in page.locator("#other-options td.plan-shape").all_inner_texts():
        assert set(re.findall(r"\d+\s×\s(\d+)", cell)) == {"4"}, cell
    shot(page, "planner-33-1280-seats4")

    page.locator("#plan-seats").get_by_label("только по 3").check()
    page.locator("#plan-seats").get_by_role("button", name="Показать").click()
    expect(page.locator("#recommended")).to_contain_text("11 столов по 3")
    expect(page.locator("#why-rooms")).to_have_count(0)
    row = page.locator("#other-options tbody tr").first
    expect(row).to_contain_text("7 × 3 + 4 × 3")
    row.get_by_text("Выбрать").click()
    page.get_by_role("button", name="Рассадить сессию 1 по выбранному варианту").click()
    expect(page.get_by_text("Сессия 1 рассажена")).to_be_visible()
    rooms = Session.objects.get(event=event).rooms.order_by("number")
    assert [(r.kind, r.seats) for r in rooms] == [("prime", 3), ("skip", 3)]


@pytest.mark.parametrize(
    "n, nearest",
    [
        (31, "30 игроков (на 1 меньше) — процедура пропуска, 10 столов по 3"),
        (34, "33 игрока (на 1 меньше) — простое число столов, 11 столов по 3"),
    ],
)
def test_31_and_34_players_hear_why_no_single_room_fits(
    live_server, event, request, shot, n, nearest
):
    add_players(event, n)
    for device in ("laptop", "phone"):
        page = request.getfixturevalue(device)
        login(page, live_server.url)
        open_planner(page, live_server, event)
        why = page.locator("#why-rooms")
        expect(why.locator("h2")).to_have_text("Почему не одна комната")
        expect(why).to_contain_text(f"{n} не делится ни на 3, ни на 4")
        expect(why).to_contain_text("одной комнатой их не рассадить")
        expect(why.locator("#one-room-alternative")).to_contain_text(nearest)
        width = "1280" if device == "laptop" else "360"
        why.screenshot(
            path=str(shot(page, f"planner-{n}-{width}").with_name(f"planner-{n}-{width}-why.png"))
        )
        assert check_page(page) == []
        assert no_latin(page) == []


def test_the_english_planner_has_no_cyrillic_but_names(live_server, event, browser, shot):
    add_players(event, 31)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    page = context.new_page()
    login(page, live_server.url)
    page.get_by_role("button", name="EN").click()
    open_planner(page, live_server, event)
    expect(page.locator("#recommended")).to_contain_text("Recommended: option 1")
    expect(page.locator("#why-rooms")).to_contain_text("31 is divisible by neither 3 nor 4")
    text = page.locator("main").evaluate("m => m.textContent").replace(event.name, "")
    assert CYRILLIC.findall(text) == []
    shot(page, "planner-31-1280-en")
    context.close()
