"""Session 2 seated (dealt by the app) while round 2 of session 1 runs, in Chromium: the hall
screen, the room's console and a phone keep showing session 1's round 2, «Конец тура!» comes
when its time is up (the worker fires it), the phone goes on to round 3 and only after the
session's last round to session 2; the hall changes to session 2 when its first round starts
(issue 21, finding 2; docs/game.md §7.4)."""

import pytest
from playwright.sync_api import expect

from events import rounds
from events.models import Entry, Event, Round
from movements import planner
from movements.services import session_create
from tests.browser.helpers import login, new_laptop, new_phone
from tests.factories import seat_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROUND_2_SECONDS = 20  # long enough to open the three pages before it ends


def _panel(page):
    """The clock's panels as they are now: (room id, session shown, round shown, state)."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('[data-clock-url] [data-room]'))
             .filter(el => !el.closest('template'))
             .map(el => {
               const part = el.querySelector('[data-session-part]');
               const name = el.querySelector('[data-session]');
               return [el.getAttribute('data-room'),
                       (part && part.hidden) || !name ? '' : name.textContent,
                       el.querySelector('[data-round]').textContent,
                       el.getAttribute('data-state')];
             })"""
    )


def _seen(page) -> tuple[list[str], list[str], list[str]]:
    """What the clock says: the rounds, the states and the headlines shown."""
    clock = page.locator("[data-clock-url]")
    return (
        clock.locator("[data-round]:visible").all_text_contents(),
        clock.locator("[data-state-label]:visible").all_text_contents(),
        clock.locator("[data-headline]:visible").all_text_contents(),
    )


def test_seating_the_next_session_mid_round_changes_nothing_on_the_running_sessions_screens(
    live_server, browser, director, worker_factory, event, shot
):
    worker_factory()  # the real clock: round 2 ends by its timer
    first = seat_players(event, 15, rounds=3)
    rounds.round_end_now(rounds.round_start(Round.objects.get(room__session=first, number=1)))
    rounds.round_start(
        Round.objects.get(room__session=first, number=2), length_seconds=ROUND_2_SECONDS
    )
    room1 = first.rooms.get()
    base = live_server.url

    hall_ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="ru-RU")
    hall = hall_ctx.new_page()
    hall.set_default_timeout(15_000)
    hall.goto(f"{base}/e/{event.slug}/clock")  # open before session 2 is seated
    expect(hall.locator("[data-digits]")).not_to_have_text("--:--")
    assert _panel(hall) == [[str(room1.pk), "", "2", "running"]]

    option = planner.plan(15).as_dict()["options"][0]
    second = session_create(Event.objects.get(pk=event.pk), option, dealing="app")
    room2 = second.rooms.get()
    assert room1.number == room2.number == 1

    # The hall still shows session 1's round 2 (no «не начат» of session 2's room 1 over
    # it), and now names the session: there are two.
    hall.wait_for_timeout(2500)  # the polls after the seating
    assert _seen(hall) == (["2"], ["идёт"], ["Начало тура!"])
    assert _panel(hall) == [[str(room1.pk), "Сессия 1", "2", "running"]]

    desk_ctx, desk = new_laptop(browser)
    login(desk, base)
    desk.goto(f"{base}/director/events/{event.pk}/rooms/{room1.pk}/")
    expect(desk.locator("[data-clock-url] [data-digits]")).not_to_have_text("--:--")
    desk.wait_for_timeout(1500)  # a poll more: the clock shows what its document says
    assert _seen(desk)[:2] == (["2"], ["идёт"])
    assert _panel(desk) == [[str(room1.pk), "Сессия 1", "2", "running"]]

    phone_ctx, phone = new_phone(browser)
    entry = Entry.objects.get(event=event, number=4)
    phone.goto(f"{base}/p/{entry.key}/")
    expect(phone.get_by_text("Сейчас — сессия 1, тур 2")).to_be_visible()
    expect(phone.get_by_text("Затем — сессия 1, тур 3")).to_be_visible()
    expect(phone.locator("[data-digits]")).not_to_have_text("--:--")
    assert _seen(phone)[:2] == (["2"], ["идёт"])
    assert _panel(phone) == [[str(room1.pk), "Сессия 1", "2", "running"]]
    shot(hall, "next-session-01-hall-round-2")

    # Round 2's time is up: the worker fires «Конец тура!»; every screen shows it.
    expect(hall.locator("[data-headline]")).to_have_text(
        "Конец тура!", timeout=(ROUND_2_SECONDS + 15) * 1000
    )
    assert _panel(hall) == [[str(room1.pk), "Сессия 1", "2", "finished"]]
    assert Round.objects.get(room=room1, number=2).state == "finished"
    expect(desk.locator("[data-clock-url] [data-headline]")).to_have_text(
        "Конец тура!", timeout=5000
    )
    phone.locator("#banner").wait_for(state="visible", timeout=5000)
    assert "Конец тура!" in phone.locator("#banner").text_content()
    phone.get_by_text("Далее — сессия 1, тур 3: идите").wait_for(timeout=8000)
    shot(hall, "next-session-02-hall-end")

    # The session's last round: then the phone's seats are session 2's; the hall and the
    # phone's clock keep session 1's last «Конец тура!» until session 2 starts.
    last = rounds.round_start(Round.objects.get(room=room1, number=3))
    phone.get_by_text("Сейчас — сессия 1, тур 3").wait_for(timeout=8000)
    rounds.round_end_now(last)
    phone.get_by_text("Далее — сессия 2, тур 1: идите").wait_for(timeout=8000)
    assert _panel(phone) == [[str(room1.pk), "Сессия 1", "3", "finished"]]
    assert _panel(hall) == [[str(room1.pk), "Сессия 1", "3", "finished"]]
    shot(phone, "next-session-03-phone-between")

    rounds.round_start(Round.objects.get(room=room2, number=1))
    expect(hall.locator(f'[data-rooms] [data-room="{room2.pk}"]')).to_be_attached(timeout=5000)
    expect(hall.locator("[data-headline]")).to_have_text("Начало тура!", timeout=5000)
    assert _panel(hall) == [[str(room2.pk), "Сессия 2", "1", "running"]]
    phone.get_by_text("Сейчас — сессия 2, тур 1").wait_for(timeout=8000)
    assert _panel(phone) == [[str(room2.pk), "Сессия 2", "1", "running"]]
    assert _panel(desk) == [[str(room1.pk), "Сессия 1", "3", "finished"]]  # its own room
    shot(hall, "next-session-04-hall-session-2")
    for ctx in (hall_ctx, desk_ctx, phone_ctx):
        ctx.close()
