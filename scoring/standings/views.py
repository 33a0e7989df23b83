"""Public results of an event (/e/<slug>/results/…): standings, travellers, personal score
cards, and their files (CSV and XLSX).

Shown only once the director publishes the results; before that the pages answer 403 with
a plain «not published yet» page (the event exists — its clock is public — but its results
are not). The director of the event sees them anyway, marked as a preview.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from events.models import Session
from scoring import games, standings
from scoring.hands import records as hand_records
from scoring.ladder.links import ladder_links
from scoring.models import Deal
from scoring.standings import card_address, disclosure, exports
from scoring.standings.public_access import base_context as _base
from scoring.standings.public_access import deal_in_play, public_results
from scoring.standings.traveller_note import traveller_note


def _session(event, number) -> Session:
    return get_object_or_404(event.sessions.select_related("event"), number=number)


def _deal(event, deal_pk) -> Deal:
    return get_object_or_404(
        Deal.objects.filter(board_set__session__event=event).select_related(
            "board_set__session__event"
        ),
        pk=deal_pk,
    )


def _entry(event, entry_pk):
    return get_object_or_404(event.entries.all(), pk=entry_pk)


@public_results
def results(request, event, preview):
    """The event standing over every session, and a link to each session's standing."""
    found = standings.event_standing_by_session(event, disclosure.viewer(request, event))
    extra = {
        "rows": found.rows,
        "several_sessions": len(found.sessions) > 1,
        # Each row with its line of every session's standing (None: he did not play it).
        "lines": [(row, [found.of(row, s) for s in found.sessions]) for row in found.rows],
        "ladder_links": _ladder_links(event),
    }
    return render(request, "scoring/public/results.html", _base(event, preview, request) | extra)


@public_results
def session_results(request, event, preview, number):
    """One session's standing and the list of its deals (travellers)."""
    session = _session(event, number)
    seen = disclosure.viewer(request, event)
    rows = standings.session_standings(session, seen)
    deals = _session_deals(session)
    shown = [d for d in deals if seen.shows(d)]
    return render(
        request,
        "scoring/public/session.html",
        _base(event, preview, request)
        | {
            "session": session,
            "rows": rows,
            # Each deal with whether its traveller may be shown to this viewer yet.
            "deals": [(d, seen.shows(d)) for d in deals],
            "deals_shown": len(shown),
            "seed_shown": seen.seed_shown(session),
            "hands_shown": any(d.cards for d in shown),
            "ladder_links": _ladder_links(event),
        },
    )


def _ladder_links(event):
    """Each player's page on the owner's club ladder ({{ ladder_links|get:player.pk }}),
    one query when the standings read it."""
    return SimpleLazyObject(lambda: ladder_links(event))


def _session_deals(session) -> list[Deal]:
    return list(
        Deal.objects.filter(board_set__session=session)
        .select_related("board_set")
        .order_by("board_set__family", "board_set__number", "number")
    )


@public_results
def traveller(request, event, preview, deal_pk):
    """Every table's result on one deal side by side, with each pocket's figure."""
    deal = _deal(event, deal_pk)
    if not disclosure.viewer(request, event).shows(deal):
        return deal_in_play(request, event, preview, deal)
    found = standings.deal_traveller(deal)
    extra = {
        "traveller": found,
        "note": traveller_note(found, event.scoring_method),
        "multi_room": len({row.play.table.room_id for row in found.rows}) > 1,
        "hand_record": hand_records.traveller_hands(found, event),
    }
    return render(request, "scoring/public/traveller.html", _base(event, preview, request) | extra)


def _card_entry(event, ref):
    entry = card_address.entry_by_ref(event, ref)
    if entry is None:
        raise Http404(_("No such player in this event."))
    return entry


def _card_page(request, event, preview, entry):
    seen = disclosure.viewer(request, event)
    found = disclosure.card_hide(standings.player_card(entry, seen), seen)
    extra = {"card": found, "card_hands": hand_records.card_hands(found, event)}
    return render(request, "scoring/public/card.html", _base(event, preview, request) | extra)


@public_results
def card(request, event, preview, ref):
    """A player's personal score card: every deal with his result and figure. Addressed by
    his participant number (``scoring.standings.card_address``)."""
    return _card_page(request, event, preview, _card_entry(event, ref))


def _by_id(event, entry_pk, name: str, **kwargs):
    """The card's address by number for the old address by id; None for a player with no
    number (his card stays at the old address)."""
    entry = _entry(event, entry_pk)
    ref = card_address.card_refs(event).get(entry.pk)
    if ref is None:
        return entry, None
    return entry, redirect(reverse(name, args=[event.slug, ref]), **kwargs)


@public_results
def card_by_id(request, event, preview, entry_pk):
    """The old address of a card, by the player's id: leads to the one by his number."""
    entry, moved = _by_id(event, entry_pk, "public:card")
    return moved or _card_page(request, event, preview, entry)


# --- files: CSV and XLSX ------------------------------------------------------------------
#
# Each file is one set of rows (scoring.standings.exports) written as CSV or as XLSX (``kind``, from
# the URL): the two follow the same access rules because they are the same view. Each one's
# header names the event's game where the game names itself (``exports.with_game``).


@public_results
def results_file(request, event, preview, kind):
    rows = exports.event_standing_rows(
        standings.event_standing_by_session(event, disclosure.viewer(request, event))
    )
    rows = exports.with_game(event, rows)
    return exports.file_response(kind, rows, f"standings-{event.slug}", _("Standings"))


@public_results
def session_file(request, event, preview, number, kind):
    session = _session(event, number)
    seen = disclosure.viewer(request, event)
    rows = exports.with_game(
        event, exports.standing_rows(standings.session_standings(session, seen))
    )
    title = _("Standings, session %(number)s") % {"number": session.number}
    return exports.file_response(kind, rows, f"standings-{event.slug}-s{session.number}", title)


@public_results
def session_travellers_file(request, event, preview, number, kind):
    session = _session(event, number)
    game = games.sheets_of(event)
    # The header even with no deal shown yet.
    rows = exports.with_game(event, [exports.traveller_header(with_deal=True, game=game)])
    seen = disclosure.viewer(request, event)
    for deal in [d for d in _session_deals(session) if seen.shows(d)]:
        found = standings.deal_traveller(deal)
        rows += exports.traveller_rows(
            found, event.scoring_method, with_deal=True, header=False, game=game
        )
    title = _("Travellers, session %(number)s") % {"number": session.number}
    return exports.file_response(kind, rows, f"travellers-{event.slug}-s{session.number}", title)


@public_results
def traveller_file(request, event, preview, deal_pk, kind):
    deal = _deal(event, deal_pk)
    if not disclosure.viewer(request, event).shows(deal):
        return deal_in_play(request, event, preview, deal)
    found = standings.deal_traveller(deal)
    rows = exports.traveller_rows(found, event.scoring_method, game=games.sheets_of(event))
    rows = exports.with_game(event, rows)
    title = _("Deal %(code)s") % {"code": deal.code}
    return exports.file_response(kind, rows, f"traveller-{event.slug}-{deal.code}", title)


@public_results
def card_file(request, event, preview, ref, kind):
    return _card_file(request, event, _card_entry(event, ref), kind)


@public_results
def card_by_id_file(request, event, preview, entry_pk, kind):
    entry, moved = _by_id(event, entry_pk, f"public:card_{kind}")
    return moved or _card_file(request, event, entry, kind)


def _card_file(request, event, entry, kind):
    seen = disclosure.viewer(request, event)
    found = disclosure.card_hide(standings.player_card(entry, seen), seen)
    rows = exports.with_game(
        event, exports.card_rows(found, event.scoring_method, games.sheets_of(event))
    )
    name = entry.number or entry.pk
    return exports.file_response(kind, rows, f"card-{event.slug}-{name}", _("Score card"))


__all__ = [
    "card",
    "card_by_id",
    "card_by_id_file",
    "card_file",
    "results",
    "results_file",
    "session_file",
    "session_results",
    "session_travellers_file",
    "traveller",
    "traveller_file",
]
