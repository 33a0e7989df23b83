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


# --- what a phone may keep offline (config.pwa.OfflineMiddleware, docs/offline.md) ---------


def _answered(method: str, path: str, response):
    """``response`` as the middleware passes it on for ``method path``."""
    from django.test import RequestFactory

    from config.pwa import OfflineMiddleware

    request = RequestFactory().generic(method, path)
    return OfflineMiddleware(lambda request: response)(request)


def _page(status: int = 200, cache_control: str = ""):
    from django.http import HttpResponse

    response = HttpResponse("<p>page</p>", status=status)
    if cache_control:
        response["Cache-Control"] = cache_control
    return response


def test_a_table_page_is_kept_with_its_round_scope_unless_it_says_no_store():
    answer = _answered("GET", "/t/abc_DEF-123/deals/2/", _page())
    assert answer["X-Offline"] == "keep"
    assert answer["X-Offline-Scope"] == "/t/abc_DEF-123/"
    assert _answered("GET", "/t/abc/", _page())["X-Offline-Scope"] == "/t/abc/"
    for cache_control in ("no-store", "max-age=0, no-cache, NO-STORE, private", "no-store=x"):
        refused = _answered("GET", "/t/abc/deals/2/", _page(cache_control=cache_control))
        assert "X-Offline" not in refused, cache_control
        assert refused["X-Offline-Scope"] == "/t/abc/"  # its scope all the same
    assert _answered("GET", "/t/abc/", _page(cache_control="no-cache, private"))["X-Offline"]


def test_a_players_page_is_kept_and_belongs_to_no_round():
    answer = _answered("GET", "/p/abc/", _page())
    assert answer["X-Offline"] == "keep" and "X-Offline-Scope" not in answer
    assert "X-Offline" not in _answered("GET", "/p/abc/", _page(cache_control="no-store"))


def test_only_a_200_html_answer_to_a_get_is_kept():
    from django.http import HttpResponseRedirect, JsonResponse

    assert "X-Offline" not in _answered("GET", "/t/abc/", _page(status=404))
    assert "X-Offline" not in _answered("GET", "/t/abc/", _page(status=400))
    redirect = _answered("GET", "/t/abc/deals/1/", HttpResponseRedirect("/t/abc/"))
    assert "X-Offline" not in redirect
    for method in ("POST", "HEAD", "PUT"):
        answer = _answered(method, "/t/abc/", _page())
        assert "X-Offline" not in answer and "X-Offline-Scope" not in answer, method
    clock = _answered("GET", "/t/abc/clock.json", JsonResponse({"rooms": []}))
    assert "X-Offline" not in clock and "X-Offline-Scope" not in clock


def test_nothing_outside_the_phones_pages_is_marked():
    for path in ("/", "/e/cup/results/", "/director/", "/api/v1/events/", "/tea/", "/pt/"):
        answer = _answered("GET", path, _page())
        assert "X-Offline" not in answer and "X-Offline-Scope" not in answer, path


def test_the_middleware_reads_the_views_answer_before_the_sites_no_store(settings):
    """config/headers.py makes every /t/ and /p/ answer no-store for the browser's HTTP
    cache: the offline mark must be set on the view's own answer, inside it."""
    order = list(settings.MIDDLEWARE)
    assert order.index("config.pwa.OfflineMiddleware") > order.index(
        "config.headers.SecurityHeadersMiddleware"
    )


def test_a_running_rounds_pages_may_be_kept_a_finished_ones_may_not(client, event):
    """Through the whole stack: the round's page and a deal not played are kept while the
    round runs (and are no-store for the browser all the same); once the round is over the
    round's page and its deals say no-store, and none is kept."""
    from events import rounds
    from events.models import Entry, Round
    from tests.factories import play_of, round_link, seat_players

    session = seat_players(event, 15)
    first = rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    scope = round_link(play)
    entry = Entry.objects.get(event=event, number=1)
    for url in (scope, f"{scope}?as=N", round_link(play, "deals/1/"), f"/p/{entry.key}/"):
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert answer["X-Offline"] == "keep", url
        assert "no-store" in answer["Cache-Control"], url  # the browser's cache: never
        if url.startswith("/t/"):
            assert answer["X-Offline-Scope"] == scope, url
    clock = client.get(round_link(play, "clock.json"))
    assert "X-Offline" not in clock and "X-Offline-Scope" not in clock

    rounds.round_end_now(first)
    answer = client.get(f"{scope}?as=N")
    assert answer.status_code == 200
    assert "X-Offline" not in answer and answer["X-Offline-Scope"] == scope
    assert "X-Offline" not in client.get(round_link(play, "deals/1/"))
    assert client.get(f"/p/{entry.key}/")["X-Offline"] == "keep"  # his own page: still
