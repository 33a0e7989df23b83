"""A player's «Позвать судью» (issue 34): while he sits at a table in his room's round now,
his own page (/p/<key>/) offers the table's call, posting as his seat — his own link proves
who he is (``/p/<key>/call/``). The state is the table's (``events.calls``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import calls
from events.links import entry_by_key
from events.models import Entry
from scoring.player.page import player_page
from scoring.sheets.call_box import call_box
from scoring.sheets.table_calls import said


def player_call_context(entry: Entry, page: dict, *, errors=None, typed=None) -> dict:
    """The call box of his page (``table/_call.html``) while he sits at a table in the round
    on his room's clock, or nothing: read off his page's own context (``page``: its seat
    now, with its round link), so no query but the call's document, from the cache."""
    current, now = page.get("current"), page.get("now")
    if (
        current is None
        or now is None
        or now.is_pause
        or now.round_id != current.pk
        or not now.play_key
    ):
        return {}
    home = reverse("player:home", args=[entry.key])
    return call_box(
        table_id=now.table_id,
        play_key=now.play_key,
        post_url=reverse("player:call", args=[entry.key]),
        next_url=home,
        fixed=_Seat(now.position, entry),
        errors=errors,
        typed=typed,
    )


@dataclass(frozen=True)
class _Seat:
    """His seat as the call's form names it: «Вы зовёте судью как E …»."""

    position: str
    entry: Entry


@require_POST
def call(request, key):
    """He calls the director to his table, as his seat."""
    entry = entry_by_key(key)
    home = reverse("player:home", args=[entry.key])
    seat = calls.seat_now(entry)
    if seat is None:
        messages.error(request, _("You sit at no table now: there is no table to call to."))
        return redirect(home)
    try:
        made = calls.call_open(
            seat.table,
            reason=request.POST.get("reason", ""),
            position=seat.position,
            entry=entry,
            client_id=request.POST.get("client_id", ""),
        )
    except ValidationError as error:
        ctx = player_page(entry)
        ctx.update(
            player_call_context(
                entry,
                ctx,
                errors=error.message_dict,
                typed={"reason": request.POST.get("reason", "")},
            )
        )
        return render(request, "player/home.html", ctx, status=400)
    said(request, made)
    return redirect(home)
