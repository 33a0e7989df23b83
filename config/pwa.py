"""The phones' installable web app (docs/offline.md): its manifest and its service worker.

- ``/manifest.webmanifest``: the app's name in the reader's language («Дубликатный
  преферанс»), its icons (``static/img``: the SVG and PNGs of 192 and 512 px) and colours.
  Linked from every page (``templates/base.html``); no ``start_url``, so an installed app
  opens the page it was installed from — the player's own link, the table's round.
- ``/sw.js``: ``static/js/sw.js`` served from the site's root, so that its scope may be the
  whole site (``Service-Worker-Allowed: /``); as JavaScript, never cached (a new version is
  picked up at the next page), with the static files' prefix filled in. Only the player's
  and the table's pages register it (``static/js/offline.js``).
- :class:`OfflineMiddleware`: the one place that tells the worker which pages a phone may
  keep (``X-Offline: keep``) and which round a page belongs to (``X-Offline-Scope``).
"""

from functools import cache

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.cache import add_never_cache_headers, cc_delim_re
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

SW_SOURCE = settings.BASE_DIR / "static" / "js" / "sw.js"
THEME = "#14532d"  # the favicon's green


@cache
def _sw_text(mtime: float) -> str:
    return SW_SOURCE.read_text(encoding="utf-8").replace("__STATIC_URL__", settings.STATIC_URL)


@require_safe
def service_worker(request):
    response = HttpResponse(
        _sw_text(SW_SOURCE.stat().st_mtime), content_type="application/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = "/"
    add_never_cache_headers(response)
    return response


@require_safe
def manifest(request):
    name = _("Duplicate Preference")
    response = JsonResponse(
        {
            "name": name,
            "short_name": _("Preference"),
            "lang": get_language() or settings.LANGUAGE_CODE,
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": THEME,
            "icons": [
                {"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
                {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            ],
        },
        json_dumps_params={"ensure_ascii": False},
        content_type="application/manifest+json",
    )
    response["Cache-Control"] = "max-age=3600"
    response["Vary"] = "Accept-Language, Cookie"
    return response


#: The pages a phone may keep offline: a table's (``/t/<key>/…``) and a player's own.
OFFLINE_PREFIXES = ("/t/", "/p/")


def offline_headers(request, response) -> None:
    """The service worker's contract (docs/offline.md), set on the view's own answer.

    - ``X-Offline: keep`` on a 200 HTML answer to a GET under ``/t/`` or ``/p/`` whose
      Cache-Control has no ``no-store``: the worker keeps only such pages (a view that shows
      a deal's talon or a finished round's sheets answers ``no-store``, so it is never kept,
      and its answer deletes any copy kept before);
    - ``X-Offline-Scope: /t/<key>/`` on every HTML answer to a GET under ``/t/<key>/``: the
      pages of one round link (or of a table's gate), which the worker drops together when
      the round is over.

    It must read the view's Cache-Control before :mod:`config.headers` adds ``no-store`` to
    every ``/t/`` and ``/p/`` answer for the browser's own HTTP cache: hence its place in
    ``MIDDLEWARE``, after (inside) ``SecurityHeadersMiddleware``.
    """
    path = request.path
    if request.method != "GET" or not path.startswith(OFFLINE_PREFIXES):
        return
    if not response.get("Content-Type", "").startswith("text/html"):
        return
    scope = round_scope(path)
    if scope:
        response["X-Offline-Scope"] = scope
    if response.status_code == 200 and not _no_store(response):
        response["X-Offline"] = "keep"


def round_scope(path: str) -> str:
    """``/t/<key>/`` of a path under it ("" elsewhere): a round link's pages, or a table's
    gate (a table's key leads to nothing else)."""
    parts = path.split("/")
    if len(parts) < 4 or parts[1] != "t" or not parts[2]:
        return ""
    return f"/t/{parts[2]}/"


def _no_store(response) -> bool:
    directives = cc_delim_re.split(response.get("Cache-Control", ""))
    return any(d.split("=", 1)[0].strip().lower() == "no-store" for d in directives)


class OfflineMiddleware:
    """:func:`offline_headers` on every answer."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        offline_headers(request, response)
        return response
