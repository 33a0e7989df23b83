"""A player's private pages (/p/<key>/): no account, the unguessable key is the pass."""

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from events import clockdoc, qr
from events.links import entry_by_key
from events.models import Entry
from events.player import player_places
from events.services import last_substitution


def _entry(key: str) -> Entry:
    return entry_by_key(key)


def _context(entry: Entry) -> dict:
    from scoring.display import figure_unit
    from scoring.services import entry_open_plays
    from scoring.standings import player_card

    places = player_places(entry)
    card = player_card(entry) if places["room"] else None
    # A replaced player's seats from that round on are his substitute's: say so.
    replaced = last_substitution(entry) if entry.status == Entry.Status.REPLACED else None
    return {
        "entry": entry,
        "event": entry.event,
        **places,
        "replaced": replaced,
        # After «Конец тура!» his last table may still write its sheets: link it.
        "open_plays": entry_open_plays(entry) if places["room"] else [],
        # His own points always; percentages and the standing once the director publishes.
        "card": card,
        "published": entry.event.results_public,
        "method": entry.event.scoring_method,
        "unit": figure_unit(entry.event.scoring_method),
    }


@never_cache
def home(request, key):
    entry = _entry(key)
    return render(request, "player/home.html", _context(entry))


@never_cache
def places_fragment(request, key):
    """The seat blocks alone, re-fetched by the page when the round changes."""
    entry = _entry(key)
    return render(request, "player/_places.html", _context(entry))


@never_cache
def clock_json(request, key):
    """The phone's poll: his room's clock document from the cache (events/clockdoc.py), no
    query of his seats; a wrong key is the links' 404."""
    return JsonResponse(clockdoc.player_clock(key))


def qr_svg(request, key):
    entry = _entry(key)
    url = request.build_absolute_uri(f"/p/{entry.key}/")
    return HttpResponse(qr.qr_svg(url), content_type="image/svg+xml")
