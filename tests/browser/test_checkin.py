"""The players' check-in in Chromium (issue 34): a player taps «Я на месте» on his phone at
360 px, the director's room page shows him checked in and another missing, and seats a
substitute from the missing player's row in one step."""

import pytest
from playwright.sync_api import expect

from events import services as event_services
from events.models import CheckIn, Entry, Seat, Substitution
from tests.browser.a11y import check_page
from tests.browser.helpers import login
from tests.factories import seat_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _seat(session, table, position):
    return Seat.objects.select_related("entry").get(
        round__room__session=session, round__number=1, table__number=table, position=position
    )


def test_a_player_checks_in_and_the_director_seats_a_substitute_for_one_missing(
    live_server, laptop, phone, event, director, shot
):
    session = seat_players(event, 15)
    room = session.rooms.get()
    here, missing = _seat(session, 1, "N").entry, _seat(session, 2, "E").entry
    reserve = event_services.entry_create(event, last_name="Запасной", first_name="Иван")

    login(laptop, live_server.url)
    laptop.goto(f"{live_server.url}/director/events/{event.pk}/rooms/{room.pk}/")
    board = laptop.locator("#checkin")
    expect(board).to_contain_text("Отметились 0 из 15")
    laptop.evaluate("window.sameDocument = true")

    phone.goto(f"{live_server.url}/p/{here.key}/")
    button = phone.get_by_role("button", name="Я на месте")
    expect(button).to_be_visible()
    assert check_page(phone) == []
    shot(phone, "checkin-phone-before-360")
    button.click()
    expect(phone.locator("#checkin")).to_contain_text("Вы отметились в")
    expect(phone.get_by_role("button", name="Я на месте")).to_have_count(0)
    assert CheckIn.objects.filter(entry=here, round=0, by__isnull=True).exists()
    assert check_page(phone) == []
    shot(phone, "checkin-phone-after-360")

    # The room's page, open meanwhile, shows it without a reload (the console's poll).
    expect(board).to_contain_text("Отметились 1 из 15", timeout=8000)
    assert laptop.evaluate("window.sameDocument") is True
    expect(board.locator(f"#checkin-{here.pk}")).to_contain_text("✓")
    row = board.locator(f"#checkin-{missing.pk}")
    expect(row).to_contain_text("нет")
    assert check_page(laptop) == []
    shot(laptop, "checkin-room-1280")

    laptop.get_by_label("только отсутствующие").check()
    expect(board.locator(f"#checkin-{here.pk}")).to_be_hidden()
    expect(row).to_be_visible()

    row.get_by_label(f"Замена для: {missing.full_name}").select_option(str(reserve.pk))
    row.get_by_role("button", name="Посадить замену").click()
    # The message stands in the section the page comes back to (#checkin), in sight.
    expect(board.locator(".messages")).to_contain_text("Запасной Иван")
    expect(board).to_contain_text("Отметились 2 из 15")
    expect(board.locator(f"#checkin-{reserve.pk}")).to_contain_text("✓")
    sub = Substitution.objects.get()
    assert (sub.leaving_id, sub.arriving_id, sub.from_round) == (missing.pk, reserve.pk, 1)
    assert Entry.objects.get(pk=missing.pk).status == Entry.Status.REPLACED
    assert check_page(laptop) == []
    shot(laptop, "checkin-room-substituted-1280")
