"""Who may see the public results (/e/<slug>/results/…): anyone once the director publishes
them; before that the director of the event (a preview), and everyone else a plain «not
published yet» page with status 403. One place for the public pages of every scoring
module (views_public, views_hands)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.utils.functional import SimpleLazyObject

from events.models import Event
from scoring.card_address import card_refs
from scoring.display import figure_unit
from scoring.progress import event_progress


class _Hidden(Exception):
    pass


def _event(request, slug) -> tuple[Event, bool]:
    """The event and whether this is the director's preview of unpublished results."""
    event = get_object_or_404(Event, slug=slug)
    if event.results_public:
        return event, False
    user = request.user
    if user.is_authenticated and (user.is_superuser or event.owner_id == user.pk):
        return event, True
    raise _Hidden


def _hidden(request, slug):
    event = get_object_or_404(Event, slug=slug)
    return render(request, "scoring/public/hidden.html", {"event": event}, status=403)


def public_results(view):
    """Run ``view(request, event, preview, …)`` if the results may be shown."""

    def wrapped(request, slug, **kwargs):
        try:
            event, preview = _event(request, slug)
        except _Hidden:
            return _hidden(request, slug)
        return view(request, event, preview, **kwargs)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def deal_in_play(request, event, preview, deal):
    """The answer for a deal not played out yet (``scoring.disclosure``): status 403, a
    plain page that says when it opens, in the page's language."""
    return render(
        request,
        "scoring/public/deal_in_play.html",
        base_context(event, preview) | {"deal": deal},
        status=403,
    )


def base_context(event, preview) -> dict:
    """What every public results page shows around its own content. ``progress``: how far
    each session is played (``scoring.progress``, one query), read only by a page that shows
    it — the standings' headings say «после тура 2 из 11», «предварительно» or «итоговая»."""
    return {
        "event": event,
        "preview": preview,
        "method": event.scoring_method,
        "unit": figure_unit(event.scoring_method),
        "sessions": list(event.sessions.order_by("number")),
        "progress": SimpleLazyObject(lambda: event_progress(event)),
        # Each player's card address by his number ({% card_url %}), one query when read.
        "card_refs": SimpleLazyObject(lambda: card_refs(event)),
    }
