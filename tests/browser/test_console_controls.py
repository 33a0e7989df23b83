"""In Chromium: the round starts in both rooms with one click, ending a round asks first,
«Add minutes» refuses an empty value on its field; a whole table's artificial scores in one
form; a two-room traveller with rooms, names and the Neuberg note. At 1280 px and 360 px."""

import pytest
from playwright.sync_api import expect

from events.models import Event, Round
from scoring.models import Adjustment, TablePlay
from scoring.sheets import services
from scoring.standings import disclosure
from tests.browser.a11y import check_page
from tests.browser.helpers import login
from tests.factories import THREE_DIAMONDS, deal_of, play_of, seat_players, sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_rooms_start_together_and_ending_asks_first(
    live_server, laptop, phone, event, director, shot
):
    session = seat_players(event, 30, seats=3)
    room = session.rooms.get(number=1)
    url = f"{live_server.url}/director/events/{event.pk}/rooms/{room.pk}/"
    login(laptop, live_server.url)
    laptop.goto(url)
    laptop.get_by_role("button", name="Начать тур во всех комнатах").click()
    expect(laptop.get_by_text("Комната 1: тур 1 начат.")).to_be_visible()
    expect(laptop.get_by_text("Комната 2: тур 1 начат.")).to_be_visible()
    assert Round.objects.filter(room__session=session, state="running").count() == 2

    # «Add minutes» starts empty; sending it empty is refused next to the field.
    minutes = laptop.get_by_label("Добавить минут (отрицательное — убавить)")
    expect(minutes).to_have_value("")
    laptop.get_by_role("button", name="Изменить время").click()
    expect(laptop.locator("#adjust-minutes-error")).to_contain_text("укажите, сколько минут")

    laptop.goto(url)
    laptop.get_by_role("button", name="Завершить тур сейчас").click()
    expect(laptop.locator("#confirm-end")).to_be_visible()
    assert Round.objects.get(room=room, number=1).state == "running"
    assert check_page(laptop) == []
    shot(laptop, "console-confirm-end")
    laptop.get_by_role("button", name="Да, завершить тур 1 сейчас").click()
    expect(laptop.get_by_role("button", name="Начать тур 2")).to_be_visible()
    assert Round.objects.get(room=room, number=1).state == "finished"
    expect(laptop.locator("#lag-help")).to_contain_text("Опоздание, с")
    shot(laptop, "console-two-rooms")

    login(phone, live_server.url)
    phone.goto(url + "?confirm=end")
    assert check_page(phone) == [], check_page(phone)
    shot(phone, "console-two-rooms-phone")


def test_a_whole_table_scored_at_once_and_the_two_room_traveller(
    live_server, laptop, phone, event, director, shot
):
    session = seat_players(event, 30, seats=3)
    play = play_of(session, 1, 2, room_number=2)
    login(laptop, live_server.url)
    laptop.goto(f"{live_server.url}/director/events/{event.pk}/scores/plays/{play.pk}/")
    laptop.get_by_role("link", name="Искусственные результаты всему столу").click()
    expect(laptop.locator("#table-scores")).to_be_visible()
    expect(laptop.locator("#id_table")).to_have_value("2")
    laptop.locator("#id_reason").fill("стол не играл тур")
    laptop.get_by_role("button", name="Выставить результаты").click()
    expect(laptop.get_by_text("выставлено 9 искусственных результатов")).to_be_visible()
    assert Adjustment.objects.filter(play=play, score="A").count() == 9
    laptop.goto(f"{live_server.url}/director/events/{event.pk}/scores/adjustments/")
    assert check_page(laptop) == []
    shot(laptop, "adjustments-table")

    # Deal 1 played at two tables only (one per room): the traveller explains 83.33 %.
    deal = deal_of(play_of(session, 1, 1), 1)
    plays = list(
        TablePlay.objects.filter(board_set=deal.board_set).exclude(pk=play.pk).order_by("pk")
    )
    services.sheet_record(plays[0], deal, THREE_DIAMONDS, by_user=director)
    services.sheet_record(plays[-1], deal, sheet(tricks={"N": 8, "E": 2}), by_user=director)
    Event.objects.filter(pk=event.pk).update(results_public=True)
    traveller = f"{live_server.url}/e/{event.slug}/results/deals/{deal.pk}/"
    # Its set still travels to other tables: the public address hides it from everyone, the
    # director too; his own view, behind the switch, shows it (docs/game.md §4.5).
    laptop.goto(traveller)
    expect(laptop.locator("#deal-in-play")).to_be_visible()
    expect(laptop.locator("#traveller")).to_have_count(0)
    laptop.locator(".director-switch").get_by_role("link").click()
    expect(laptop.locator(".director-view")).to_be_visible()
    expect(laptop.locator("#traveller-note")).to_contain_text("Нойберга")
    # The director shows the session's deals (the rounds will not be played): the public
    # reads the traveller.
    disclosure.deals_show(session, by_user=director)
    laptop.goto(traveller)
    expect(laptop.locator(".director-view")).to_have_count(0)
    expect(laptop.locator("#traveller-note")).to_contain_text("Нойберга")
    expect(laptop.locator("#traveller th", has_text="Комната")).to_have_count(1)
    shot(laptop, "traveller-two-rooms")
    phone.goto(traveller)
    expect(phone.locator("#traveller-note")).to_contain_text("Нойберга")
    assert check_page(phone) == [], check_page(phone)
    shot(phone, "traveller-two-rooms-phone")
    phone.goto(f"{live_server.url}/director/login/")
    login(phone, live_server.url)
    phone.goto(f"{live_server.url}/director/events/{event.pk}/scores/adjustments/")
    assert check_page(phone) == [], check_page(phone)
    shot(phone, "adjustments-table-phone")


def test_with_the_broker_down_the_round_starts_and_the_page_says_the_timer_is_not_set(
    live_server, laptop, phone, event, director, shot
):
    from config.celery import app

    session = seat_players(event, 15)
    room = session.rooms.get()
    url = f"{live_server.url}/director/events/{event.pk}/rooms/{room.pk}/"
    previous = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens there
    app._pool, app.amqp._producer_pool = None, None
    try:
        login(laptop, live_server.url)
        laptop.goto(url)
        laptop.get_by_role("button", name="Начать тур 1").click()
        notice = laptop.get_by_text("очередь задач не отвечает")
        expect(notice).to_be_visible()
        assert Round.objects.get(room=room, number=1).state == "running"
        assert check_page(laptop) == []
        shot(laptop, "console-broker-down")
        login(phone, live_server.url)
        phone.goto(url)
        phone.get_by_role("button", name="Пауза").click()
        phone.get_by_role("button", name="Продолжить").click()
        expect(phone.get_by_text("очередь задач не отвечает")).to_be_visible()
        box = phone.get_by_text("очередь задач не отвечает").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert check_page(phone) == []
        shot(phone, "console-broker-down-phone")
    finally:
        app.conf.broker_url = previous
        app._pool, app.amqp._producer_pool = None, None
