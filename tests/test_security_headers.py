"""What every answer tells the browser (config/headers.py): a page that carries a player's
key or PIN, or the director's event, is never stored (``Cache-Control: no-store``); every
page carries the site's Content-Security-Policy; and no template runs inline script."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from events.models import Table

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent


def _no_store(response) -> bool:
    directives = {d.strip() for d in response.get("Cache-Control", "").split(",")}
    return "no-store" in directives and "private" in directives


@pytest.fixture
def day(session15):
    event = session15.event
    return {
        "event": event,
        "entry": event.entries.order_by("number").first(),
        "table": Table.objects.filter(room__session=session15).order_by("number").first(),
        "room": session15.rooms.get(),
    }


def test_the_directors_pages_are_never_stored(director_client, day):
    event, entry, room = day["event"], day["entry"], day["room"]
    base = f"/director/events/{event.pk}"
    for url in (
        "/director/",
        f"{base}/",
        f"{base}/cards/names/",  # every player's PIN
        f"{base}/players/{entry.pk}/qr/",
        f"{base}/sessions/1/",
        f"{base}/sessions/1/participants/",
        f"{base}/sessions/1/participants.csv",
        f"{base}/sessions/1/tables/",
        f"{base}/rooms/{room.pk}/",
        f"{base}/rooms/{room.pk}/console.html",  # the console's poll
        f"{base}/scores/",
    ):
        response = director_client.get(url)
        assert response.status_code == 200, url
        assert _no_store(response), (url, response.get("Cache-Control"))


def test_the_login_page_and_a_foreign_address_under_director_are_never_stored(client):
    assert _no_store(client.get("/director/login/"))
    assert _no_store(client.get("/director/events/999999/"))  # the login redirect


def test_the_admin_is_never_stored(client, superuser):
    client.force_login(superuser)
    for url in ("/admin/", "/admin/events/entry/", "/admin/login/"):
        response = client.get(url)
        assert response.status_code in (200, 302), url
        assert _no_store(response), url


def test_a_players_pages_are_never_stored(client, day):
    key = day["entry"].key
    for url in (f"/p/{key}/", f"/p/{key}/places", f"/p/{key}/clock.json", f"/p/{key}/qr.svg"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert _no_store(response), url
    assert _no_store(client.get("/p/not-a-key/"))  # a wrong link too


def test_a_tables_pages_are_never_stored(client, day):
    response = client.get(f"/t/{day['table'].key}/")
    assert response.status_code < 500
    assert _no_store(response)
    assert _no_store(client.get("/t/not-a-key/"))


def test_the_public_pages_keep_their_own_caching(client, day):
    """The hall screen and its clock carry no key: the middleware leaves them as their
    views answer (the clock's poll was never cached and still is not)."""
    event = day["event"]
    page = client.get(f"/e/{event.slug}/clock")
    assert page.status_code == 200 and "no-store" not in page.get("Cache-Control", "")
    poll = client.get(f"/e/{event.slug}/clock.json")
    assert poll.status_code == 200
    assert poll["Cache-Control"] == "max-age=0, no-cache, no-store, must-revalidate, private"


def test_every_page_carries_the_content_security_policy(director_client, client, day):
    event = day["event"]
    for response in (
        director_client.get(f"/director/events/{event.pk}/"),
        client.get(f"/p/{day['entry'].key}/"),
        client.get(f"/e/{event.slug}/clock"),
        client.get("/director/login/"),
        client.get("/p/not-a-key/"),
    ):
        policy = response["Content-Security-Policy"]
        assert policy == settings.CONTENT_SECURITY_POLICY
        assert "default-src 'self'" in policy and "unsafe-inline" not in policy


#: What a Content-Security-Policy without 'unsafe-inline' refuses to run or apply.
INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an inline event handler (onclick=…)"),
    (re.compile(r"\sstyle\s*=", re.I), "a style= attribute"),
    (re.compile(r"<style", re.I), "a <style> block"),
    (re.compile(r"""(href|src|action)\s*=\s*["']?\s*javascript:""", re.I), "a javascript: URL"),
]


def test_no_template_runs_inline_script_or_style():
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text()
        for pattern, what in INLINE:
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert found == []


def test_the_print_buttons_are_handled_by_the_print_script(director_client, day):
    event = day["event"]
    page = director_client.get(f"/director/events/{event.pk}/cards/names/").content.decode()
    assert "data-print" in page and "/static/js/print.js" in page
