"""A player's phone page (/p/<key>/) and its seat fragment, re-fetched when the round changes.

These two views are scoring's, not events': they show the sets, the sheets and the figures
(``scoring.player_page``), and events never imports scoring. ``scoring.urls_player`` serves
them under the player's URLs together with events' clock document and QR code.

The fragment is what the phones poll (at every change of the clock, and every 20 s for the
results), so it is rendered once per change and served from the shared cache. Its key holds
everything it is built from, read *before* building (a change meanwhile makes a new key):

- before publishing: the clock token of every room of the sessions he played in (his
  seats, sets and the clock) and his own token (``events.clockdoc.entry_key``: bumped by a
  sheet, confirmation, adjustment or table access at one of his tables) — his open sheets
  and points; so another table's save leaves his fragment as it is;
- once published: the console token of each of those rooms (bumped on every clock change,
  sheet, confirmation, adjustment and table access of the room, at once and again after
  commit): the figures and places compare with the other tables (and twin rooms);
- the setup token (seating, substitutes, rooms, players' details);
- his entry's status and the event's ``updated_at`` (publishing, the method, the rules),
  read with the entry in the one query every request makes; the language.
"""

import hashlib

from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.views.decorators.cache import never_cache

from events import clockdoc
from events.links import entry_by_key
from events.models import Entry, Room
from scoring.player_page import player_page

#: A fragment lives unread this long; a new key makes it unreachable anyway.
FRAGMENT_TIMEOUT = 3600


def _rooms_key(entry: Entry) -> str:
    return f"phone:rooms:{entry.key}"


def _fragment_key(entry: Entry) -> str:
    """The cache key of his fragment as of now (see the module's docstring)."""
    found = clockdoc.tokens([clockdoc.SETUP], also=(_rooms_key(entry),))
    setup, rooms = found[clockdoc.SETUP], found.get(_rooms_key(entry))
    if rooms is None or rooms["setup"] != setup:
        ids = (
            Room.objects.filter(session__rooms__rounds__placements__entry=entry)
            .order_by("pk")
            .values_list("pk", flat=True)
            .distinct()
        )
        rooms = {"setup": setup, "rooms": list(ids)}
        cache.set(_rooms_key(entry), rooms, FRAGMENT_TIMEOUT)
    if entry.event.results_public:
        # Published: his figures and place compare with every table of the session.
        keys = [clockdoc.console_key(pk) for pk in rooms["rooms"]]
    else:
        # Before: his seats, sets and clock, and his own tables' sheets, points and access
        # only — another table's save does not make his fragment stale.
        keys = [clockdoc.clock_key(pk) for pk in rooms["rooms"]]
        keys.append(clockdoc.entry_key(entry.pk))
    tokens = clockdoc.tokens(keys)
    parts = [
        entry.key,
        entry.status,
        entry.event.updated_at.isoformat(),
        str(entry.event.results_public),
        setup,
        translation.get_language() or "",
        *(f"{key}={tokens[key]}" for key in keys),
    ]
    return "phone:places:" + hashlib.sha256("|".join(parts).encode()).hexdigest()


@never_cache
def home(request, key):
    entry = entry_by_key(key)
    return render(request, "player/home.html", player_page(entry))


@never_cache
def places_fragment(request, key):
    """The seat blocks alone, re-fetched by the page when the round changes."""
    entry = entry_by_key(key)
    cache_key = _fragment_key(entry)
    html = cache.get(cache_key)
    if html is None:
        html = render_to_string("player/_places.html", player_page(entry), request)
        cache.set(cache_key, html, FRAGMENT_TIMEOUT)
    return HttpResponse(html)
