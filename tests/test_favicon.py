"""/favicon.ico answers, and every kind of page links the app's icon (issue 21, finding 14)."""

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from events.models import Seat
from tests.factories import play_of

pytestmark = pytest.mark.django_db


def test_favicon_ico_leads_to_the_apps_icon(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 302 and answer["Location"].endswith("/img/favicon.svg")
    icon = client.get(answer["Location"])
    assert icon.status_code == 200 and b"<svg" in b"".join(icon.streaming_content)


def test_every_kind_of_page_links_the_icon(director_client, session15):
    client = Client()
    play = play_of(session15, 1, 1)
    entry = Seat.objects.filter(round=play.round).first().entry
    pages = [
        (director_client, f"/director/events/{session15.event.pk}/"),
        (client, "/director/login/"),
        (client, f"/e/{session15.event.slug}/clock"),
        (client, f"/e/{session15.event.slug}/results/"),  # not published yet: 403
        (client, f"/p/{entry.key}/"),
        (client, f"/t/{play.table.key}/"),
        (client, "/p/no-such-link/"),  # 404
    ]
    for who, url in pages:
        body = who.get(url).content.decode()
        assert 'rel="icon" href="/static/img/favicon.svg"' in body, url
    error_page = Path(settings.BASE_DIR, "templates", "500.html").read_text()
    assert '<link rel="icon" href="/favicon.ico">' in error_page
