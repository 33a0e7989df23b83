"""The table's scoring pages (/t/<key>/): a round's deals, entering and confirming sheets.

Two keys open them (``scoring.sheets.urls``). A **round link** (``TablePlay.key``) is the
table's page of one round: its set's deals, its sheets, entering, confirming and the box
reports, and nothing of any other round. The **table link** (``Table.key``, the QR code on
the table card, which everyone who ever sat at the table has) is only a gate: it names the
table and its round now, and leads a player of that round (his seat and PIN, or his own
link) to that round's link — so a table's earlier players never read its later rounds.

A player can also come from his own page (?me=<his key>), which picks him as the one
entering and proves it was he. On the table's shared device a player proves it with his PIN
(``scoring.sheets.proof``: the round's link alone enters, never confirms). Rules of who may write
live in scoring.sheets.services; these views only translate.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Exists, OuterRef
from django.http import Http404, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from events import clockdoc
from events.boards import TABLE_ORDER
from events.links import table_by_key
from events.models import PIN_DIGITS, Seat
from scoring import games
from scoring.models import Adjustment, Deal, DealsShown, Proof, ScoreSheet, TablePlay
from scoring.sheets import boxes, display, error_summary, services
from scoring.sheets.call_box import table_call_context
from scoring.sheets.device import device_hash, with_device
from scoring.sheets.scorer import ScorerStep, scorer_form, scorer_step
from scoring.sheets.table_gate import _gate, _round_link
from scoring.sheets.table_state import (
    _SEEN_SALT,
    SEEN_SECONDS,
    _context,
    _gated,
    _identify,
    _in_table_order,
    _play_ids,
    _seen_cookie,
    _state_or_gate,
    _table_state,
)
from scoring.sheets.views import OUTCOMES, STALE_CHECK
from scoring.standings import disclosure
from scoring.standings.disclosure import DealState, Part


def _result(sheet: ScoreSheet | None, deal, seats: list[Seat]) -> dict | None:
    """A recorded result as the table reads it, in its game's words: the contract, and for
    every seat in table order its part (declarer, whist, pass…), tricks, what else he
    writes (the Russian game's пуля, гора, висты) and score."""
    if sheet is None or sheet.current is None:
        return None
    result = sheet.current.result
    game = games.of_result(result).sheets
    essence = result.get("sheet") or {}
    scores = result.get("scores") or {}
    failed = set(result.get("failed") or [])
    passed = essence.get("contract") == "passed"
    declarer = essence.get("declarer")
    defenders = essence.get("defenders") or {}
    lines = []
    for seat in seats:
        position = seat.position
        if position not in deal.active_seats:
            lines.append({"seat": seat, "sits_out": True})
            continue
        if passed:
            part = ""
        elif position == declarer:
            part = _("declarer")
        else:
            part = game.word(defenders.get(position))
        lines.append(
            {
                "seat": seat,
                "part": part,
                "tricks": game.tricks_of(essence, position),
                # (heading, text): a line under his name, so the block fits a phone.
                "figures": list(
                    zip(game.figure_heads(), display.seat_figures(result, position), strict=True)
                ),
                "score": scores.get(position),
                "failed": game.failed_word() if position in failed else "",
            }
        )
    players = {s.position: s.entry.full_name for s in seats}
    return {
        "passed": passed,
        "declarer": declarer,
        "declarer_name": players.get(declarer, ""),
        "contract": game.contract_word(essence),
        "trump": game.trump(essence),
        "defence": game.defence_text(essence, TABLE_ORDER),
        "score_head": game.score_head(),
        "lines": lines,
    }


@never_cache
def clock_json(request, key):
    """The round page's poll: its room's clock document (the player's phone has his own),
    from the cache as the phones' are; no query once the round link's ids are known."""
    ids = _play_ids(key)
    if ids is None:
        raise Http404(_("No such table round."))
    return JsonResponse(clockdoc.room_clock_doc(ids[1]))


# No ``never_cache`` on the pages a phone may keep offline: config/headers.py forbids the
# browser's cache on every /t/ answer anyway, and a view's own ``no-store`` is what tells the
# phone's offline copy to keep nothing (config/pwa.py, docs/offline.md).
@with_device
def home(request, key):
    """``/t/<key>/``: a round link's page, or under a table's key the table's gate."""
    state = _table_state(key)
    if state is None:
        return _gate(request, table_by_key(key))
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
    ctx = _context(request, state)
    if ctx["gated"]:
        return _round_over(request, ctx)
    if request.method == "POST":
        return HttpResponseNotAllowed(["GET", "HEAD"])
    return _private(_home(request, ctx), ctx)


def _private(response, ctx: dict):
    """A page that shows a finished round's sheets or a deal's talon is kept nowhere: not
    by the browser, not by the phone's offline copy (docs/offline.md)."""
    if ctx.get("round_over") or ctx.get("shows_talon"):
        patch_cache_control(response, no_store=True)
    return response


def _round_over(request, ctx: dict, *, refused=False):
    """A finished round's page on a phone nobody has proven himself on: «Тур окончен», and
    while its players may still write, «Кто вы?» — his seat and PIN show him its sheets on
    this phone for a quarter of an hour; else his own page has his results."""
    play, access = ctx["play"], ctx["access"]
    typed = {"as": "", "pin": ""}
    errors: dict[str, str] = {}
    if refused:
        # A write sent here from this phone was refused: why, and nothing of the round.
        reasons = refused if isinstance(refused, list) else []
        errors["round"] = " ".join(
            [
                *reasons,
                _(
                    "The round is over: nothing was saved. Name your seat and type your PIN "
                    "to finish its sheets, or enter them from your own page."
                ),
            ]
        )
    elif request.method == "POST":
        typed = {name: request.POST.get(name, "").strip() for name in typed}
        if not access.open:
            errors["round"] = access.reason
        elif not typed["as"]:
            errors["as"] = _("Choose your seat at this table.")
        elif not typed["pin"]:
            errors["pin"] = _("Type your PIN: the %(n)d digits printed on your name card.") % {
                "n": PIN_DIGITS
            }
        else:
            identity, problem = _identify(request, ctx, named=False)
            if identity is None or identity.proof != Proof.PIN:
                errors["pin"] = problem or _(
                    "Type your PIN: the %(n)d digits printed on your name card."
                ) % {"n": PIN_DIGITS}
            else:
                response = redirect(_round_link(play, **{"as": identity.seat.position}))
                response.set_signed_cookie(
                    _seen_cookie(play),
                    str(identity.seat.entry_id),
                    salt=_SEEN_SALT,
                    max_age=SEEN_SECONDS,
                    path=ctx["round_url"],
                    httponly=True,
                    samesite="Lax",
                    secure=request.is_secure(),
                )
                return response
    response = render(
        request,
        "table/round_over.html",
        {
            **ctx,
            "typed": typed,
            "errors": errors,
            "pin_digits": PIN_DIGITS,
            "positions": [s.position for s in ctx["seats"]],
        },
        status=400 if errors else 200,
    )
    patch_cache_control(response, no_store=True)
    return response


def _home(request, ctx: dict, *, refused: dict | None = None, status: int = 200):
    """The table-round's page. ``refused``: a confirmation just refused (its sheet, the
    seat chosen and why), shown beside that deal's form (answered 400)."""
    play = ctx["play"]
    rows = []
    if not ctx["not_started"]:
        sheets = {
            s.deal_id: s
            for s in ScoreSheet.objects.filter(play=play).select_related(
                "current__entered_by_entry"
            )
        }
        by_entry = {s.entry_id: s.position for s in ctx["seats"]}
        device = device_hash(request)
        for deal in ctx["deals"]:
            sheet = sheets.get(deal.pk)
            current = sheet.current if sheet else None
            entered_by = by_entry.get(current.entered_by_entry_id) if current else None
            # Who made the entry — its seat, and the player whose own link it came from —
            # cannot confirm it; an entry without a PIN, not from this phone (§7.2).
            entering = {entered_by, by_entry.get(current.via_entry_id) if current else None}
            same_phone = bool(
                current and current.proof == Proof.SEAT and current.device in ("", device)
            )
            rows.append(
                {
                    "deal": deal,
                    "sheet": sheet,
                    "entered_by": entered_by,
                    "result": _result(sheet, deal, ctx["seats"]),
                    "confirmers": [
                        s
                        for s in ctx["seats"]
                        if s.position not in entering and s.position in deal.active_seats
                    ]
                    if sheet and sheet.status == ScoreSheet.Status.ENTERED and not same_phone
                    else [],
                    "same_phone": same_phone and sheet.status == ScoreSheet.Status.ENTERED,
                    "unproven": bool(sheet and sheet.current and sheet.current.proof == Proof.SEAT),
                    "sits_out": [
                        s.position for s in ctx["seats"] if s.position not in deal.active_seats
                    ],
                }
            )
    linked = ctx["linked"]
    for row in rows:
        # His own link proves him: one button, no PIN (when his seat may confirm).
        row["linked"] = linked if linked is not None and linked in row["confirmers"] else None
        row["refused"] = (
            refused if refused and row["sheet"] and row["sheet"].pk == refused["sheet"] else None
        )
    return render(
        request,
        "table/home.html",
        {**ctx, "rows": rows, "refused": refused or {}, **table_call_context(ctx)},
        status=status,
    )


def _deal(ctx: dict, number: int):
    deal = next((d for d in ctx["deals"] if d.number == number), None)
    if deal is None:
        raise Http404(_("There is no deal %(n)d in the set this table plays.") % {"n": number})
    return deal


@_gated
@with_device
def deal_form(request, key, number, *, report=None):
    """The deal's scorer form. ``report``: a box report just refused (what was typed and
    why), shown in its own form below (answered 400); the scorer form is then fresh."""
    ctx = _context(request, _state_or_gate(key))
    play = ctx["play"]
    # A sheet sent to a finished round from a phone nobody proved himself on — a phone's
    # outbox after bad Wi-Fi, say — is written by the same rules as any (scoring.sheets.services);
    # only what the answer shows differs: a refusal shows «Тур окончен» with its reasons,
    # never the deal's page, its sheet or its talon.
    gated_write = ctx["gated"] and request.method == "POST" and report is None
    if (ctx["not_started"] or ctx["gated"]) and not gated_write:
        # Which says the round has not started, or that it is over («Кто вы?»).
        return redirect(ctx["round_url"])
    deal = _deal(ctx, number)
    players = {s.position: s.entry.full_name for s in ctx["seats"]}
    step, status, who_error = None, 200, ""
    me, linked = ctx["me"], ctx["linked"]
    by_link = me is not None and linked is not None and me.pk == linked.pk  # no PIN asked
    # The seat the page marks «(you)»: only a player proven, by his own link or his PIN.
    proven = me if by_link else None
    if not ctx["open_to_players"]:
        if gated_write:
            return _round_over(request, ctx, refused=[ctx["access"].reason])
        # No form to fill in: it could not be saved. The reason is on the page.
        status = 200 if request.method == "GET" else 400
    elif request.method == "POST" and report is None:
        identity, pin_error = _identify(request, ctx)
        if identity is None:
            step = ScorerStep(scorer_form(play, deal, players, request.POST), pin_error=pin_error)
            step.form.is_valid()
            if not pin_error:
                who_error = _("Choose who is entering the sheet.")
        else:
            step = scorer_step(
                request.POST,
                play,
                deal,
                players,
                by_entry=identity.entry,
                proof=identity.proof,
                device=device_hash(request),
                via_entry=linked.entry if linked is not None else None,
            )
            proven = identity.seat if identity.proven and not step.pin_error else None
        if step.recorded:
            done = step.recorded
            messages.success(
                request,
                OUTCOMES[done.outcome] % {"code": deal.code, "version": done.version.number},
            )
            return redirect(f"{ctx['round_url']}?{ctx['who']}&saved={deal.number}")
        if step.stale:
            messages.warning(request, STALE_CHECK)
        status = 200 if not step.form.errors and not step.pin_error and not who_error else 400
        if gated_write:
            problems = [who_error, step.pin_error, *step.form.non_field_errors()]
            problems += [e for f in step.form for e in f.errors]
            if step.stale or not any(problems):
                problems.append(_("The sheet was not saved: check it again and send it."))
            return _round_over(request, ctx, refused=[p for p in problems if p])
    else:
        step = ScorerStep(scorer_form(play, deal, players))
        status = 400 if report else status
    # Read after a save had its chance (a saved sheet redirects without it).
    sheet = (
        ScoreSheet.objects.filter(play=play, deal=deal)
        .select_related("current__entered_by_entry")
        .order_by()
        .first()
    )
    # The talon once this table has played the deal (docs/game.md §4.5): not when a sheet
    # merely exists — anyone at the table can save one before the play.
    ctx["shows_talon"] = Part.TALON in disclosure.may_see(
        ctx["who_asks"], _deal_state(play, deal, sheet), round_over=ctx["round_over"]
    )
    box = boxes.deal_page(play, deal, played=ctx["shows_talon"], **(report or {}))
    form = step.form if step else None
    pin_error = step.pin_error if step else ""
    # A refused form's problems at the top, each linked to its field; the first is focused.
    summary = error_summary.Summary(
        [
            *error_summary.identity_problems(
                who=who_error,
                pin=pin_error,
                seats=ctx["seats"],
                me=me,
                pin_field=not by_link,
            ),
            *(error_summary.scorer_problems(form) if form is not None else []),
            *error_summary.report_problems(
                box["report_errors"], box["report_typed"], box["report_grid"], box["report_kinds"]
            ),
        ]
    )
    error_summary.mark_autofocus(form, summary.first)
    # The table's page names the seat of its links «(you)»: not one whose PIN was refused.
    who = "" if pin_error and ctx["who"].startswith("as=") else ctx["who"]
    response = render(
        request,
        "table/deal.html",
        {
            **ctx,
            "who": who,
            "error_summary": summary,
            "autofocus": summary.first,
            "proven": proven,
            "who_error": who_error,
            "deal": deal,
            "sheet": sheet,
            "result": _result(sheet, deal, ctx["seats"]),
            "form": form,
            # A form shown fresh (not sent back with what was typed) takes the phone's draft.
            "fresh": request.method == "GET" or report is not None,
            "checked": step.checked if step else None,
            "preview": step.preview(deal, players) if step else None,
            "players": players,
            "identity": True,
            "pin_error": pin_error,
            # A right PIN stays in the form between «Check» and «Save» (never in the draft
            # the phone keeps).
            "pin_value": request.POST.get("pin", "")
            if request.method == "POST" and step and not step.pin_error
            else "",
            "playing": _in_table_order(deal.active_seats),
            "sits_out": [s for s in TABLE_ORDER if s not in deal.active_seats and s in players],
            "cancel_url": ctx["round_url"],
            "storage_key": f"sheet:{play.key}:{deal.number}",
            # The box (docs/game.md §2.7): the known talon, «the box does not match».
            **box,
            "report_url": reverse("table:box_report", args=[play.key, deal.number]),
        },
        status=status,
    )
    return _private(response, ctx)


def _deal_state(play: TablePlay, deal: Deal, sheet: ScoreSheet | None) -> DealState:
    """The deal's state at this table (``scoring.standings.disclosure``): its sheet, the table-round
    closed or not, and — only when the sheet does not make it played — the director's
    artificial score here and whether he has shown the session's deals (one query)."""
    rnd = play.round
    played = disclosure.sheet_played(sheet)
    closed = disclosure.play_closed(rnd, play.players_access, rnd.following_round)
    shown = False
    if not (played or closed):
        played, shown = (
            Deal.objects.filter(pk=deal.pk)
            .annotate(
                scored=Exists(
                    Adjustment.objects.filter(
                        play=play, deal=OuterRef("pk"), kind=Adjustment.Kind.ARTIFICIAL
                    )
                ),
                shown=Exists(DealsShown.objects.filter(session_id=rnd.room.session_id)),
            )
            .values_list("scored", "shown")
            .get()
        )
    return disclosure.deal_state(
        sheet=sheet is not None, played=played, closed=closed, played_out=False, shown=shown
    )


@require_POST
@_gated
@with_device
def box_report(request, key, number):
    """«Коробка не совпадает»: the table tells the director the box differs (scoring.sheets.boxes)."""
    ctx = _context(request, _state_or_gate(key))
    play = ctx["play"]
    if ctx["not_started"]:
        raise PermissionDenied(ctx["access"].reason)
    if ctx["gated"]:
        return _round_over(request, ctx, refused=True)
    deal = _deal(ctx, number)
    if not ctx["open_to_players"]:
        raise PermissionDenied(ctx["access"].reason)
    typed = {
        "kind": request.POST.get("kind", ""),
        "talon": request.POST.getlist("found"),
        "note": request.POST.get("report_note", ""),
    }
    try:
        _report, new = boxes.box_report_create(
            play, deal, kind=typed["kind"], talon=typed["talon"], note=typed["note"]
        )
    except ValidationError as error:
        return deal_form(
            request, key, number, report={"typed": typed, "errors": error.message_dict}
        )
    messages.success(
        request,
        (
            _("Sent to the director: the box of deal %(code)s does not match.")
            if new
            else _("The director already has this table's report on deal %(code)s.")
        )
        % {"code": deal.code},
    )
    url = reverse("table:deal", args=[key, number])
    return redirect(f"{url}?{ctx['who']}#box-report" if ctx["who"] else f"{url}#box-report")


@require_POST
@_gated
@with_device
def confirm(request, key, sheet_pk):
    state = _state_or_gate(key)
    sheet = (
        ScoreSheet.objects.filter(play_id=state.play.pk, pk=sheet_pk)
        .select_related("play__round", "deal__board_set")
        .order_by()
        .first()
    )
    if sheet is None:
        raise Http404(_("No such sheet at this table."))
    ctx = _context(request, state)
    url = f"{ctx['round_url']}?{ctx['who']}"
    identity, problem = None, ""
    if not ctx["open_to_players"]:
        # Before any PIN is looked at: a round its players may not write counts no PIN.
        problem = ctx["access"].reason
    else:
        identity, problem = _identify(request, ctx)
    try:
        if identity is None and not problem:
            raise ValidationError(_("Choose who is confirming the sheet."))
        if identity is not None:
            linked = ctx["linked"]
            services.sheet_confirm(
                sheet,
                by_entry=identity.entry,
                proof=identity.proof,
                device=device_hash(request),
                via_entry=linked.entry if linked is not None else None,
            )
    except (ValidationError, PermissionDenied) as error:
        problem = " ".join(getattr(error, "messages", None) or [str(error)])
    if problem:
        # The page again, the seat as chosen and why beside this deal's form; nothing saved.
        if ctx["gated"]:  # «Тур окончен» with why, nothing of the round's sheets
            return _round_over(request, ctx, refused=[problem])
        refused = {"sheet": sheet.pk, "as": request.POST.get("as", ""), "text": problem}
        return _private(_home(request, ctx, refused=refused, status=400), ctx)
    messages.success(request, _("Deal %(code)s confirmed.") % {"code": sheet.deal.code})
    return redirect(url)
