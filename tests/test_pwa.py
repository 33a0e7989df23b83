"""The phones' installable web app (config/pwa.py, docs/offline.md): the manifest and the
service worker are served with the headers browsers need, and every page links the manifest."""

import json

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_the_root_for_the_whole_site_and_never_cached(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"] and "no-store" in response["Cache-Control"]
    text = response.content.decode()
    assert "__STATIC_URL__" not in text
    assert f'var STATIC_URL = "{settings.STATIC_URL}";' in text
    assert "Content-Security-Policy" in response  # the site's policy, as every answer


def test_the_service_worker_takes_no_write(client):
    assert client.post("/sw.js").status_code == 405
    assert client.post("/manifest.webmanifest").status_code == 405


def test_the_manifest_names_the_app_in_russian_with_its_icons(client):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Дубликатный преферанс"
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert set(sizes) == {"any", "192x192", "512x512"}
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon["src"]
    assert sizes["192x192"]["type"] == "image/png"


def test_the_icons_are_the_sizes_they_say():
    import struct

    for size in (192, 512):
        head = (settings.BASE_DIR / "static" / "img" / f"icon-{size}.png").read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", head[16:24]) == (size, size)


def test_the_manifest_speaks_english_to_an_english_browser(client):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="en")
    assert json.loads(response.content)["name"] == "Duplicate Preference"


def test_every_page_links_the_manifest(client):
    response = client.get("/director/login/")
    assert b'<link rel="manifest" href="/manifest.webmanifest">' in response.content


def test_only_the_phones_pages_register_the_service_worker(client, event):
    from events import rounds
    from events.models import Entry, Round
    from tests.factories import play_of, round_link, seat_players

    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    entry = Entry.objects.get(event=event, number=1)
    for url in (f"/p/{entry.key}/", round_link(play), round_link(play, "deals/1/")):
        page = client.get(url)
        assert page.status_code == 200, url
        assert b"js/offline.js" in page.content, url
    assert b"js/outbox.js" in client.get(round_link(play, "deals/1/")).content
    assert b"js/offline.js" not in client.get("/director/login/").content


def test_the_directors_page_says_plain_http_pages_do_not_open_offline(
    client, director, event, settings
):
    from django.urls import reverse

    settings.ALLOWED_HOSTS = ["192.168.1.5"]
    settings.SITE_URL = ""
    client.force_login(director)
    url = reverse("director:event_detail", args=[event.pk])
    page = client.get(url, HTTP_HOST="192.168.1.5").content.decode()
    assert 'id="hall-offline"' in page
    assert "без связи страницы телефонов по ним не открываются" in page
    assert "Протокол, сохранённый во время обрыва, всё равно ждёт на телефоне стола" in page
    secure = client.get(url, HTTP_HOST="192.168.1.5", secure=True).content.decode()
    assert 'id="hall-offline"' not in secure
