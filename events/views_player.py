"""A player's private pages (/p/<key>/): no account, the unguessable key is the pass.

Events serves the clock document and the QR code; the page and its seat fragment show sets
and figures, so they are ``scoring.player.views`` (events never imports scoring).
"""

from django.http import HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache

from events import clockdoc, qr
from events.links import entry_by_key, player_url
from events.models import Entry


def _entry(key: str) -> Entry:
    return entry_by_key(key)


@never_cache
def clock_json(request, key):
    """The phone's poll: his room's clock document from the cache (events/clockdoc.py), no
    query of his seats; a wrong key is the links' 404."""
    return JsonResponse(clockdoc.player_clock(key))


def qr_svg(request, key):
    entry = _entry(key)
    url = player_url(request, entry.key)
    return HttpResponse(qr.qr_svg(url), content_type="image/svg+xml")
