"""A player's phone page (/p/<key>/) and its seat fragment, re-fetched when the round changes.

These two views are scoring's, not events': they show the sets, the sheets and the figures
(``scoring.player.page``), and events never imports scoring. ``scoring.player.urls`` serves
them under the same URLs together with events' clock document and QR code.

The fragment is what the phones poll (at every change of the clock, and every 20 s for the
results), so it is rendered once per change and served from the shared cache
(``scoring.player.page.places_html``, whose docstring says what its key holds).
"""

from django.http import HttpResponse
from django.shortcuts import render

from events.links import entry_by_key
from scoring.player.page import places_html, player_page
from scoring.sheets import proof


# No ``never_cache``: config/headers.py forbids the browser's cache on every /p/ answer, and
# the phone may keep this page offline (config/pwa.py).
def home(request, key):
    entry = entry_by_key(key)
    # His own link proves him: a lock of his PIN across phones (others guessing it) goes.
    proof.link_proven(entry.pk)
    return render(request, "player/home.html", player_page(entry))


def places_fragment(request, key):
    """The seat blocks alone, re-fetched by the page when the round changes."""
    return HttpResponse(places_html(entry_by_key(key)))
