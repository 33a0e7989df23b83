"""On a 360 px phone: the director enters a sheet with a mistake, reads the rule next to the
field, corrects it, checks the settlement, saves; then the public traveller and standings.

The browser runs in a thread of its own: Playwright's sync API refuses a thread in which
another Playwright (tests/browser's session fixture) may already be running.
"""

from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import expect, sync_playwright

from events.models import Event
from scoring.models import ScoreSheet
from tests.browser.conftest import ARTIFACTS, CHROMIUM
from tests.factories import play_of, seat_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _no_page_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def _shot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _phone_scenario(base: str, event_pk: int, slug: str, play_pk: int, deal_pk: int) -> dict:
    seen = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(
            viewport={"width": 360, "height": 740}, locale="ru-RU", is_mobile=True, has_touch=True
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{base}/director/login/")
        page.get_by_label("Имя пользователя").fill("judge")
        page.get_by_label("Пароль").fill("s3cret-pass-1")
        page.get_by_role("button", name="Войти").click()

        page.goto(f"{base}/director/events/{event_pk}/scores/plays/{play_pk}/deals/1/")
        page.locator('label[for="id_declarer_1"]').click()  # N
        page.select_option("#id_contract", "three")
        page.select_option("#id_trump", "clubs")
        page.select_option("#id_defence_E", "whist")
        page.select_option("#id_defence_S", "pass")
        page.fill("#id_tricks_N", "7")
        page.fill("#id_tricks_E", "3")
        page.locator('button[name="check"]').click()
        expect(page.locator("#f-trump .error")).to_have_text("при «три» козырь — бубны или червы")
        seen["kept"] = page.locator("#id_tricks_N").input_value()
        seen["form_fits"] = _no_page_overflow(page)
        _shot(page, "scoring-form-error-360")

        page.select_option("#id_trump", "diamonds")
        page.locator('button[name="check"]').click()
        expect(page.locator("#settlement")).to_contain_text("70")
        _shot(page, "scoring-form-check-360")
        page.locator('button[name="save"]').click()
        expect(page.locator("#sheets")).to_contain_text("N: три ♦")

        # The deal is still being played elsewhere: the public address shows him what the
        # public sees (docs/game.md §4.5); his own view, behind its switch, has the traveller.
        page.goto(f"{base}/e/{slug}/results/deals/{deal_pk}/")
        expect(page.locator("#deal-in-play")).to_be_visible()
        page.goto(f"{base}/e/{slug}/results/deals/{deal_pk}/?view=director")
        expect(page.locator("#director-view")).to_be_visible()
        expect(page.locator("#traveller")).to_contain_text("N: три ♦")
        seen["traveller_fits"] = _no_page_overflow(page)
        _shot(page, "scoring-traveller-360")
        page.goto(f"{base}/e/{slug}/results/sessions/1/")
        expect(page.locator("#standings")).to_be_visible()
        seen["standings_fit"] = _no_page_overflow(page)
        _shot(page, "scoring-standings-360")
        context.close()
        browser.close()
    return seen


def test_a_director_scores_a_deal_on_a_phone(live_server, director, event):
    session = seat_players(event, 15)
    play = play_of(session, 1, 1)
    deal = play.board_set.deals.get(number=1)
    Event.objects.filter(pk=event.pk).update(results_public=True)
    with ThreadPoolExecutor(max_workers=1) as pool:
        seen = pool.submit(
            _phone_scenario, live_server.url, event.pk, event.slug, play.pk, deal.pk
        ).result(timeout=180)
    assert seen == {
        "kept": "7",
        "form_fits": True,
        "traveller_fits": True,
        "standings_fit": True,
    }
    assert ScoreSheet.objects.get().current.result["scores"]["N"] == 70
