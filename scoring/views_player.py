"""A player's phone page (/p/<key>/) and its seat fragment, re-fetched when the round changes.

These two views are scoring's, not events': they show the sets, the sheets and the figures
(``scoring.player_page``), and events never imports scoring. ``scoring.urls_player`` serves
them under the player's URLs together with events' clock document and QR code.
"""

from django.shortcuts import render
from django.views.decorators.cache import never_cache

from events.links import entry_by_key
from scoring.player_page import player_page


@never_cache
def home(request, key):
    entry = entry_by_key(key)
    return render(request, "player/home.html", player_page(entry))


@never_cache
def places_fragment(request, key):
    """The seat blocks alone, re-fetched by the page when the round changes."""
    entry = entry_by_key(key)
    return render(request, "player/_places.html", player_page(entry))
