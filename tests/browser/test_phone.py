"""A player's phone at 360 px: the seat, the countdown, and «Конец тура!» within 5 s."""

import re

import pytest
from playwright.sync_api import expect

from events import rounds
from events.models import Entry, Round
from tests.factories import seat_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_phone_shows_the_seat_and_the_end_of_the_round(live_server, phone, event, shot):
    session = seat_players(event, 15)
    rnd = rounds.round_start(Round.objects.get(room__session=session, number=1), length_seconds=300)
    entry = Entry.objects.get(event=event, number=1)  # N at table 1
    phone.goto(f"{live_server.url}/p/{entry.key}/")
    expect(phone.get_by_text("Сейчас — тур 1")).to_be_visible()
    expect(
        phone.get_by_text("По команде «Конец тура!» отнесите комплект на стол 5.")
    ).to_be_visible()
    expect(phone.locator("[data-digits]").first).to_have_text(re.compile(r"^04:"))
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    shot(phone, "phone-round-1")
    rounds.round_end_now(rnd)
    banner = phone.locator("#banner")
    banner.wait_for(state="visible", timeout=5000)
    assert "Конец тура!" in banner.text_content()
    phone.get_by_text("Следующий тур 2: идите").wait_for(timeout=5000)
    shot(phone, "phone-round-over")


def test_the_phone_fetches_its_seats_once_per_announcement(live_server, phone, event):
    session = seat_players(event, 15)
    rnd = rounds.round_start(Round.objects.get(room__session=session, number=1), length_seconds=300)
    entry = Entry.objects.get(event=event, number=1)
    fetched = []
    phone.on("request", lambda r: fetched.append(r.url) if r.url.endswith("/places") else None)
    phone.goto(f"{live_server.url}/p/{entry.key}/")
    expect(phone.locator("[data-digits]").first).to_have_text(re.compile(r"^04:"))
    assert fetched == []  # the page came with its seats
    rounds.round_end_now(rnd)  # «Конец тура!»: a new announcement and a new round state
    phone.locator("#banner").wait_for(state="visible", timeout=5000)
    phone.get_by_text("Следующий тур 2: идите").wait_for(timeout=5000)
    phone.wait_for_timeout(4500)  # two more clock answers: nothing new, no fetch
    assert len(fetched) == 1
    rounds.round_start(Round.objects.get(room__session=session, number=2))
    phone.get_by_text("Сейчас — тур 2").wait_for(timeout=5000)
    phone.wait_for_timeout(4500)
    assert len(fetched) == 2
