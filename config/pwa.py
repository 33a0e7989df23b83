"""The phones' installable web app (docs/offline.md): its manifest and its service worker.

- ``/manifest.webmanifest``: the app's name in the reader's language («Дубликатный
  преферанс»), its icons (``static/img``: the SVG and PNGs of 192 and 512 px) and colours.
  Linked from every page (``templates/base.html``); no ``start_url``, so an installed app
  opens the page it was installed from — the player's own link, the table's round.
- ``/sw.js``: ``static/js/sw.js`` served from the site's root, so that its scope may be the
  whole site (``Service-Worker-Allowed: /``); as JavaScript, never cached (a new version is
  picked up at the next page), with the static files' prefix filled in. Only the player's
  and the table's pages register it (``static/js/offline.js``).
"""

from functools import cache

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.cache import add_never_cache_headers
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
