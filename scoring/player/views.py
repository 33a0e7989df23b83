"""A player's phone page (/p/<key>/) and its seat fragment, re-fetched when the round changes.

These two views are scoring's, not events': they show the sets, the sheets and the figures
(``scoring.player.page``), and events never imports scoring. ``scoring.player.urls`` serves
them under the same URLs together with events' clock document and QR code.

The fragment is what the phones poll (at every change of the clock, and every 20 s for the
results), so it is rendered once per change and served from the shared cache
(``scoring.player.page.places_html``, whose docstring says what its key holds).
"""

from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import checkin as checkin_service
from events.links import entry_by_key
from events.models import Session
from events.params import BadQueryParam, query_int
from scoring.player.calls import player_call_context
from scoring.player.page import places_html, player_page
from scoring.sheets import proof


# No ``never_cache``: config/headers.py forbids the browser's cache on every /p/ answer, and
# the phone may keep this page offline (config/pwa.py).
def home(request, key):
    entry = entry_by_key(key)
    # His own link proves him: a lock of his PIN across phones (others guessing it) goes.
    proof.link_proven(entry.pk)
    # «Позвать судью» while he sits at a table in the round now (scoring.player.calls).
    page = player_page(entry)
    return render(request, "player/home.html", {**page, **player_call_context(entry, page)})


def places_fragment(request, key):
    """The seat blocks alone, re-fetched by the page when the round changes."""
    return HttpResponse(places_html(entry_by_key(key)))


@require_POST
def checkin(request, key):
    """«Я на месте» from his own page: the check-in asked now in his room (``session`` and
    ``round`` as the page showed them; a tap sent late by the phone's outbox, once that
    check-in is over, is refused with the reason). Back to his page; a refusal is his page
    with the reason above the button."""
    entry = entry_by_key(key)
    try:
        number = query_int(request.POST, "session")
        round_number = query_int(request.POST, "round", minimum=0)
    except BadQueryParam:
        number = round_number = None
    session = Session.objects.filter(event_id=entry.event_id, number=number).first()
    try:
        if session is None or round_number is None:
            raise ValidationError(_("This check-in is not open now: open your page again."))
        checkin_service.checkin_mark(session, entry, round=round_number)
    except ValidationError as error:
        page = player_page(entry)
        context = {**page, **player_call_context(entry, page)}
        context["checkin_error"] = " ".join(error.messages)
        return render(request, "player/home.html", context, status=400)
    return redirect("player:home", key=entry.key)
