"""The table's scoring pages (/t/<key>/): the set's deals, entering and confirming sheets.

The table key is printed as a QR code on the table card; a player can also come from his own
page (?me=<his key>), which picks him as the one entering. Rules of who may write live in
scoring.services; these views only translate.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from events import clock
from events.links import table_by_key
from events.models import Round, Seat, Table
from scoring import services
from scoring.models import ScoreSheet, TablePlay
from scoring.scorer import ScorerStep, scorer_form, scorer_step
from scoring.views import OUTCOMES, STALE_CHECK, _seats


def _table(key: str) -> Table:
    return table_by_key(key)


def _round_of(table: Table) -> Round | None:
    """The round the table is at: on the clock, else the latest over, else the first."""
    return clock.current_round(table.room.rounds.order_by("number"))


def _play(table: Table, rnd: Round | None) -> TablePlay | None:
    if rnd is None:
        return None
    return (
        TablePlay.objects.select_related("round__room__session__event", "table", "board_set")
        .filter(round=rnd, table=table)
        .first()
    )


def _me(request, seats: list[Seat]) -> Seat | None:
    """The player entering: chosen seat (POST «as»), else the player's own key (?me=)."""
    chosen = request.POST.get("as") or request.GET.get("as")
    if chosen:
        return next((s for s in seats if s.position == chosen), None)
    key = request.POST.get("me") or request.GET.get("me")
    if key:
        return next((s for s in seats if s.entry.key == key), None)
    return None


def _who_query(request, me: Seat | None) -> str:
    """How links name the player: by his own key if he came with it, else by his seat (the
    table's shared device must not learn a player's private key)."""
    if me is None:
        return ""
    key = request.POST.get("me") or request.GET.get("me")
    return f"me={key}" if key == me.entry.key else f"as={me.position}"


def _context(request, table: Table) -> dict:
    rnd = _round_of(table)
    play = _play(table, rnd)
    seats = _seats(play) if play else []
    me = _me(request, seats)
    return {
        "table": table,
        "room": table.room,
        "event": table.room.session.event,
        "round": rnd,
        "play": play,
        "seats": seats,
        "me": me,
        "me_key": request.GET.get("me", "") or request.POST.get("me", ""),
        "who": _who_query(request, me),
        "open_to_players": rnd is not None and rnd.state in clock.ON_CLOCK,
    }


@never_cache
def home(request, key):
    table = _table(key)
    ctx = _context(request, table)
    rows = []
    if ctx["play"]:
        sheets = {
            s.deal_id: s
            for s in ScoreSheet.objects.filter(play=ctx["play"]).select_related(
                "current__entered_by_entry"
            )
        }
        by_entry = {s.entry_id: s.position for s in ctx["seats"]}
        for deal in ctx["play"].board_set.deals.order_by("number"):
            sheet = sheets.get(deal.pk)
            entered_by = (
                by_entry.get(sheet.current.entered_by_entry_id) if sheet and sheet.current else None
            )
            rows.append(
                {
                    "deal": deal,
                    "sheet": sheet,
                    "entered_by": entered_by,
                    "confirmers": [
                        s
                        for s in ctx["seats"]
                        if s.position != entered_by and s.position in deal.active_seats
                    ]
                    if sheet and sheet.status == ScoreSheet.Status.ENTERED
                    else [],
                    "sits_out": [
                        s.position for s in ctx["seats"] if s.position not in deal.active_seats
                    ],
                }
            )
    return render(request, "table/home.html", {**ctx, "rows": rows})


def _deal(play: TablePlay, number: int):
    deal = play.board_set.deals.filter(number=number).select_related("board_set").first()
    if deal is None:
        raise Http404(_("There is no deal %(n)d in the set this table plays.") % {"n": number})
    return deal


@never_cache
def deal_form(request, key, number):
    table = _table(key)
    ctx = _context(request, table)
    play = ctx["play"]
    if play is None:
        raise Http404(_("This table has no set to play yet."))
    deal = _deal(play, number)
    players = {s.position: s.entry.full_name for s in ctx["seats"]}
    sheet = ScoreSheet.objects.filter(play=play, deal=deal).select_related("current").first()
    if request.method == "POST":
        me = ctx["me"]
        if me is None:
            step = ScorerStep(scorer_form(play, deal, players, request.POST))
            step.form.is_valid()
            step.form.add_error(None, _("Choose who is entering the sheet."))
        else:
            step = scorer_step(request.POST, play, deal, players, by_entry=me.entry)
        if step.recorded:
            done = step.recorded
            messages.success(
                request,
                OUTCOMES[done.outcome] % {"code": deal.code, "version": done.version.number},
            )
            url = reverse("table:home", args=[table.key])
            return redirect(f"{url}?{ctx['who']}&saved={deal.number}")
        if step.stale:
            messages.warning(request, STALE_CHECK)
        status = 200 if not step.form.errors else 400
    else:
        step = ScorerStep(scorer_form(play, deal, players))
        status = 200
    return render(
        request,
        "table/deal.html",
        {
            **ctx,
            "deal": deal,
            "sheet": sheet,
            "form": step.form,
            "checked": step.checked,
            "preview": step.preview(deal, players),
            "players": players,
            "identity": True,
            "sits_out": [s for s in "WNES" if s not in deal.active_seats and s in players],
            "cancel_url": reverse("table:home", args=[table.key]),
            "storage_key": f"sheet:{table.key}:{play.round.number}:{deal.number}",
        },
        status=status,
    )


@require_POST
def confirm(request, key, sheet_pk):
    table = _table(key)
    ctx = _context(request, table)
    sheet = (
        get_object_or_404(ScoreSheet.objects.filter(play=ctx["play"]), pk=sheet_pk)
        if ctx["play"]
        else None
    )
    if sheet is None:
        raise Http404(_("No such sheet at this table."))
    me = ctx["me"]
    url = f"{reverse('table:home', args=[table.key])}?{ctx['who']}"
    try:
        if me is None:
            raise ValidationError(_("Choose who is confirming the sheet."))
        services.sheet_confirm(sheet, by_entry=me.entry)
    except (ValidationError, PermissionDenied) as error:
        messages.error(request, " ".join(getattr(error, "messages", None) or [str(error)]))
        return redirect(url)
    messages.success(request, _("Deal %(code)s confirmed.") % {"code": sheet.deal.code})
    return redirect(url)
