"""Who may see the public results (/e/<slug>/results/…): anyone once the director publishes
them; before that the director of the event (a preview), and everyone else a plain «not
published yet» page with status 403. One place for the public pages of every scoring
module (views_public, views_hands)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from events.models import Event
from scoring.console.progress import event_progress
from scoring.sheets.display import figure_unit
from scoring.standings import public_cache
from scoring.standings.card_address import card_refs
from scoring.standings.disclosure import DIRECTOR_VIEW, VIEW_PARAM, director_view, is_director


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
    """Run ``view(request, event, preview, …)`` if the results may be shown.

    A public address shows everyone — its director too — what the public sees; the director
    has his own view of it behind a switch (``?view=director``, ``scoring.standings.disclosure``),
    marked on the page. An answer that is not the public's (his view, or his preview of
    results not published yet) is never stored by a browser or a proxy (``no-store``)."""

    def wrapped(request, slug, **kwargs):
        read = getattr(request, "public_stamp", None)  # config.public_early's, if it read it
        found, stamp = read[1:] if read and read[0] == slug else public_cache.version(slug)
        if found is None:
            raise Http404(_("No such event."))
        # The page follows the results by itself: it asks this small document and reloads
        # when the version it was drawn at is no longer the current one.
        request.public_version = public_cache.short(stamp)
        request.public_version_url = reverse("public:version", args=[slug])

        def draw():
            try:
                event, preview = _event(request, slug)
            except _Hidden:
                return _hidden(request, slug)
            return view(request, event, preview, **kwargs)

        if public_cache.shared(request):
            return public_cache.serve(request, stamp, draw)
        try:
            event, preview = _event(request, slug)
        except _Hidden:
            return _hidden(request, slug)
        response = view(request, event, preview, **kwargs)
        if preview or director_view(request, event) or is_director(request.user, event):
            # His own answers, and the public's answer to him (the page's switch is his):
            # never kept where another viewer could be served them.
            add_never_cache_headers(response)
            patch_cache_control(response, no_store=True, private=True)
        return response

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def deal_in_play(request, event, preview, deal):
    """The answer for a deal not played out yet (``scoring.standings.disclosure``): status 403, a
    plain page that says when it opens, in the page's language."""
    return render(
        request,
        "scoring/public/deal_in_play.html",
        base_context(event, preview, request) | {"deal": deal},
        status=403,
    )


def director_switch(request, event) -> dict:
    """The switch between the public's view of a page and the director's own (shown to the
    director only): whether this is his view, and the two addresses."""
    if not is_director(getattr(request, "user", None), event):
        return {}
    query = request.GET.copy()
    query.pop(VIEW_PARAM, None)
    public = request.path + (f"?{query.urlencode()}" if query else "")
    query[VIEW_PARAM] = DIRECTOR_VIEW
    return {
        "director_view": director_view(request, event),
        "public_url": public,
        "director_url": f"{request.path}?{query.urlencode()}",
    }


def base_context(event, preview, request=None) -> dict:
    """What every public results page shows around its own content. ``progress``: how far
    each session is played (``scoring.console.progress``, one query), read only by a page that shows
    it — the standings' headings say «после тура 2 из 11», «предварительно» or «итоговая»."""
    return {
        **(director_switch(request, event) if request is not None else {}),
        "event": event,
        "preview": preview,
        "method": event.scoring_method,
        "unit": figure_unit(event.scoring_method),
        "sessions": list(event.sessions.order_by("number")),
        "progress": SimpleLazyObject(lambda: event_progress(event)),
        # Each player's card address by his number ({% card_url %}), one query when read.
        "card_refs": SimpleLazyObject(lambda: card_refs(event)),
    }


def version_json(request, slug):
    """``/e/<slug>/results/version.json`` (``public_cache.version_answer``); answered before
    the middleware stack by ``config.public_early``, here only when that is not in place."""
    found, stamp = public_cache.version(slug)
    response = public_cache.version_answer(request, found, stamp)
    if response is None:
        raise Http404(_("No such event."))
    return response
