"""Issue 32's pages as people use them, in Chromium: the table's shared phone after
«Конец тура!» (360 px) shows «Тур окончен» and asks who holds it before it shows a sheet,
and the director's laptop (1280 px) shows the public what the public sees, with a switch to
his own view, marked."""

import pytest
from playwright.sync_api import expect

from events import rounds
from events.models import Round, Seat
from events.services import event_set_results_public
from scoring.models import Proof, ScoreSheet
from scoring.sheets import services
from tests.browser.helpers import login, new_laptop, new_phone
from tests.factories import THREE_DIAMONDS, play_of, round_link, seat_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _entry(play, position):
    return (
        Seat.objects.select_related("entry")
        .get(round=play.round, table=play.table, position=position)
        .entry
    )


def test_the_shared_phone_asks_who_holds_it_once_the_round_is_over(
    live_server, browser, event, shot
):
    session = seat_players(event, 15)
    rnd = Round.objects.get(room__session=session, number=1)
    rounds.round_start(rnd)
    play = play_of(session, 1, 1)
    north, south = _entry(play, "N"), _entry(play, "S")
    services.sheet_record(
        play, play.board_set.deals.get(number=1), THREE_DIAMONDS, by_entry=north, proof=Proof.PIN
    )
    sheet = ScoreSheet.objects.get()
    services.sheet_confirm(sheet, by_entry=south, proof=Proof.PIN, device="south")
    context, page = new_phone(browser)
    url = f"{live_server.url}{round_link(play)}"
    page.goto(url)
    expect(page.locator("#result-1")).to_be_visible()  # the round runs: the table reads it
    rounds.round_end_now(Round.objects.get(pk=rnd.pk))
    page.goto(url)
    expect(page.locator("#round-over")).to_be_visible()
    expect(page.locator("#result-1")).to_have_count(0)
    expect(page.locator("#gate")).to_be_visible()
    shot(page, "round-over-gate-360")
    # A wrong PIN: refused under its field, still nothing shown.
    page.locator('label[for="as-N"]').click()
    page.locator("#id_pin").fill("0000" if north.pin != "0000" else "1111")
    page.locator("#gate button[type=submit]").click()
    expect(page.locator("#pin-error")).to_be_visible()
    expect(page.locator("#result-1")).to_have_count(0)
    shot(page, "round-over-wrong-pin-360")
    page.locator('label[for="as-N"]').click()
    page.locator("#id_pin").fill(north.pin)
    page.locator("#gate button[type=submit]").click()
    expect(page.locator("#result-1")).to_be_visible()
    expect(page.locator("#access")).to_be_visible()  # after the bell: marked late
    shot(page, "round-over-proven-360")
    # Another phone on the same table is still asked.
    other_context, other = new_phone(browser)
    other.goto(url)
    expect(other.locator("#round-over")).to_be_visible()
    other_context.close()
    context.close()


def test_the_directors_laptop_shows_the_public_and_his_own_view_behind_a_switch(
    live_server, browser, event, director, shot
):
    session = seat_players(event, 15)
    rnd = Round.objects.get(room__session=session, number=1)
    rounds.round_start(rnd)
    play = play_of(session, 1, 1)
    services.sheet_record(
        play, play.board_set.deals.get(number=1), THREE_DIAMONDS, by_user=director
    )
    event_set_results_public(event, True)
    context, page = new_laptop(browser)
    login(page, live_server.url)
    page.goto(f"{live_server.url}/e/{event.slug}/results/sessions/1/")
    switch = page.locator(".director-switch")
    expect(switch).to_be_visible()
    expect(page.locator(".director-view")).to_have_count(0)
    expect(page.locator("#deals-in-play")).to_be_visible()
    shot(page, "public-session-director-sees-public-1280")
    switch.get_by_role("link").click()
    banner = page.locator(".director-view")
    expect(banner).to_be_visible()
    expect(page.locator("#deals-in-play")).to_have_count(0)
    shot(page, "public-session-director-view-1280")
    banner.get_by_role("link").click()
    expect(page.locator(".director-switch")).to_be_visible()
    context.close()
