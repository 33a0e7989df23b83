"""The pages satisfy their own Content-Security-Policy in Chromium: opened, scripts run
(the clock counts, the console polls, «Печать» prints, the hall's sound is switched on),
and not one violation is reported — neither a ``securitypolicyviolation`` event nor a
«Content Security Policy» message on the console."""

import re

import pytest
from playwright.sync_api import expect

from events import rounds
from events.models import Entry, Round
from scoring.models import TablePlay
from scoring.sheets import services
from tests.browser.helpers import login
from tests.factories import THREE_DIAMONDS, seat_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Injected by the browser before any page script (not subject to the page's policy):
#: records every violation, and stands in for the print dialog.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline")
    + " at " + (e.sourceFile || "") + ":" + e.lineNumber);
});
window.__printed = 0;
window.print = function () { window.__printed += 1; };
"""


class Watcher:
    def __init__(self, page):
        self.page = page
        self.console = []
        page.add_init_script(WATCH)
        page.on("console", self._console)

    def _console(self, message):
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.console.append(message.text)

    def visit(self, url: str, *, status: int = 200, then=None) -> list[str]:
        response = self.page.goto(url)
        assert response.status == status, url
        assert "default-src 'self'" in response.headers["content-security-policy"], url
        if then is not None:
            then(self.page)
        self.page.wait_for_timeout(300)  # a poll or two of the pages that poll
        found = self.page.evaluate("window.__violations") + self.console
        self.console = []
        return found


def _prints(page):
    button = page.locator("[data-print]").first
    button.click()
    # Polled with evaluate(): wait_for_function evaluates a string, which the policy forbids.
    for _ in range(50):
        if page.evaluate("window.__printed") == 1:
            break
        page.wait_for_timeout(100)
    assert page.evaluate("window.__printed") == 1


def _digits(page):
    """The clock has counted: its digits read «mm:ss» (expect() polls without eval)."""
    expect(page.locator("[data-digits]").first).to_have_text(re.compile(r"\d\d:\d\d"))


def _sound_on(page):
    page.locator("[data-sound-toggle]").click()
    expect(page.locator("[data-sound-toggle]")).to_have_attribute("aria-pressed", "true")
    _digits(page)


def test_the_main_pages_report_no_policy_violation(live_server, browser, event, django_user_model):
    session = seat_players(event, 15)
    first = rounds.round_start(Round.objects.get(room__session=session, number=1))
    room = session.rooms.get()
    entry = Entry.objects.get(event=event, number=1)
    play = TablePlay.objects.filter(round=first).select_related("table").first()
    services.sheet_record(
        play, play.board_set.deals.get(number=1), THREE_DIAMONDS, by_user=event.owner
    )
    event.results_public = True
    event.save()
    owner = event.owner
    owner.is_staff = owner.is_superuser = True  # the admin's pages too
    owner.save()

    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(15_000)
    watch = Watcher(page)
    base, director = live_server.url, f"{live_server.url}/director/events/{event.pk}"
    found = {}

    def check(url, **kwargs):
        if problems := watch.visit(url, **kwargs):
            found[url] = problems

    check(f"{base}/director/login/")
    login(page, base)
    check(f"{director}/")
    check(f"{director}/cards/names/", then=_prints)
    check(f"{director}/players/{entry.pk}/qr/")
    check(f"{director}/sessions/1/")
    check(f"{director}/sessions/1/tables/", then=_prints)
    check(f"{director}/sessions/1/participants/", then=_prints)
    check(
        f"{director}/rooms/{room.pk}/",
        then=_digits,
    )
    check(f"{director}/scores/")
    check(f"{base}/admin/")
    check(f"{base}/api/docs/")
    check(f"{base}/e/{event.slug}/clock", then=_sound_on)
    check(f"{base}/p/{entry.key}/")
    check(f"{base}/t/{play.table.key}/")
    check(f"{base}/e/{event.slug}/results/")
    check(f"{base}/e/{event.slug}/results/sessions/1/")
    check(f"{base}/e/{event.slug}/results/cards/{entry.number}/")
    context.close()
    assert found == {}, "\n".join(f"{url}: {p}" for url, ps in found.items() for p in ps)
