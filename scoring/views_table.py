"""The table's scoring pages (/t/<key>/): a round's deals, entering and confirming sheets.

Two keys open them (``scoring.urls_table``). A **round link** (``TablePlay.key``) is the
table's page of one round: its set's deals, its sheets, entering, confirming and the box
reports, and nothing of any other round. The **table link** (``Table.key``, the QR code on
the table card, which everyone who ever sat at the table has) is only a gate: it names the
table and its round now, and leads a player of that round (his seat and PIN, or his own
link) to that round's link — so a table's earlier players never read its later rounds.

A player can also come from his own page (?me=<his key>), which picks him as the one
entering and proves it was he. On the table's shared device a player proves it with his PIN
(``scoring.proof``: the round's link alone enters, never confirms). Rules of who may write
live in scoring.services; these views only translate.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Exists, OuterRef, Q, Subquery
from django.http import Http404, HttpResponseNotAllowed, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from events import clockdoc
from events.boards import TABLE_ORDER
from events.links import LinkNotFound, table_by_key
from events.models import PIN_DIGITS, Round, Seat, Table
from events.rounds import room_current_round
from scoring import boxes, disclosure, display, error_summary, games, proof, services
from scoring.device import device_hash, with_device
from scoring.disclosure import DealState, Part, Who
from scoring.models import Adjustment, Deal, DealsShown, Proof, ScoreSheet, TablePlay
from scoring.scorer import ScorerStep, scorer_form, scorer_step
from scoring.views import OUTCOMES, STALE_CHECK, _seats


def _in_table_order(positions):
    return sorted(positions, key=TABLE_ORDER.index)


def _play_by_key(key: str) -> TablePlay | None:
    """The table-round of a round link with its round, table, room, session, event and set,
    and the room's following round (who may still write a finished round asks it): one
    query, reading one row."""
    later = Round.objects.filter(
        room_id=OuterRef("round__room_id"), number__gt=OuterRef("round__number")
    ).order_by("number")
    play = (
        TablePlay.objects.select_related("round__room__session__event", "table", "board_set")
        .annotate(
            next_number=Subquery(later.values("number")[:1]),
            next_state=Subquery(later.values("state")[:1]),
        )
        .filter(key=key)
        .order_by()
        .first()
    )
    if play is not None:
        rnd = play.round
        play.table.room = rnd.room  # a table never changes rooms: no second join up to it
        rnd.following_round = (
            Round(room_id=rnd.room_id, number=play.next_number, state=play.next_state)
            if play.next_number is not None
            else None
        )
    return play


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


def _linked(request, seats: list[Seat]) -> Seat | None:
    key = request.POST.get("me") or request.GET.get("me")
    return next((s for s in seats if key and s.entry.key == key), None)


def _identify(request, ctx: dict, *, named: bool = True) -> tuple[proof.Identity | None, str]:
    """Who writes (the seat chosen, else the player whose link it is) and how he proved it;
    with the PIN's problem, if any, in the user's language. The round's access goes first:
    a PIN for a round its players may not write is neither compared nor counted. Wrong PINs
    are counted per phone and per player (``scoring.proof``)."""
    try:
        return (
            proof.identify(
                ctx["seats"],
                access=ctx["access"],
                position=request.POST.get("as") or request.GET.get("as"),
                key=request.POST.get("me") or request.GET.get("me"),
                pin=request.POST.get("pin"),
                named=named,
                device=device_hash(request),
            ),
            "",
        )
    except ValidationError as error:
        return None, " ".join(error.message_dict.get("pin", error.messages))


@dataclass(frozen=True)
class _TableState:
    """What a round link's pages read at every request of its phone: the table-round with
    its table (room, session, event), its round (with its following round) and set, and
    the seats."""

    table: Table
    round: Round
    play: TablePlay
    seats: tuple[Seat, ...]
    # The set's deals, in order: fixed once the session is made (only their stale mark for
    # the standings moves, which no page here reads).
    deals: tuple[Deal, ...] = ()
    set_label: str = ""  # the set as the cards print it: «3», or «A3» (BoardSet.label)


def _play_ids(key: str, read: list | None = None) -> tuple[int, int] | None:
    """The table's and the room's ids of a round link (None: no round's key), kept in this
    process (a table-round never moves). ``read``: gets the table-round if it was read."""

    def ids_of():
        play = _play_by_key(key)
        if play is None:
            return None  # not kept: a key that is no round's is looked up again
        if read is not None:
            read.append(play)
        return play.table_id, play.round.room_id

    return clockdoc.local_by_tokens(("play-ids", key), ids_of)


def _table_state(key: str) -> _TableState | None:
    """The table-round of a round link (None when ``key`` is no round's: perhaps a table's).

    The phone asks for the same rows at every page, deal form, «Check» and «Save», each
    perhaps served by another process: they are kept in the shared cache and in this
    process under the tokens that change with them — the setup (seating, the event's
    details and rules), the room's clock (every round's state) and the table's own (its
    players' access, its sheets: ``events.clockdoc.table_key``). One round trip to the cache
    then, no query; a change bumps a token, so the next request reads the rows again. The
    writes read what they decide on again under their lock (``scoring.services``). The
    process's threads share the objects: nothing here or in the views changes them."""
    read = []  # the table-round, if its ids had to be read (the state below then reuses it)
    ids = _play_ids(key, read)
    if ids is None:
        return None
    table_id, room_id = ids
    tokens = clockdoc.tokens(
        [clockdoc.SETUP, clockdoc.clock_key(room_id), clockdoc.table_key(table_id)]
    )
    memo_key = ":".join(["table-round", key, *(tokens[k] for k in sorted(tokens))])
    return clockdoc.by_tokens(memo_key, lambda: _read_state(read[0] if read else key))


def _read_state(play: TablePlay | str) -> _TableState:
    if isinstance(play, str):
        found = _play_by_key(play)
        if found is None:  # made again since this process learnt its ids
            raise LinkNotFound("table")
        play = found
    seats = sorted(_seats(play), key=lambda s: TABLE_ORDER.index(s.position))
    play.__dict__["_seated_entries"] = [s.entry_id for s in seats]  # the writes check it
    deals = tuple(play.board_set.deals.order_by("number"))
    for deal in deals:
        deal.board_set = play.board_set
    return _TableState(play.table, play.round, play, tuple(seats), deals, play.board_set.label)


def _state_or_gate(key: str) -> _TableState:
    """A round link's state; under a table's key (an old address of a table's page) the
    table's gate instead, which leads its players on (a redirect, raised); else a 404."""
    state = _table_state(key)
    if state is None:
        table_by_key(key)  # no table either: LinkNotFound
        raise _ToGate(key)
    return state


class _ToGate(Exception):
    def __init__(self, key: str):
        self.key = key


def _gated(view):
    """A round link's page asked under a table's key (an address of before round links, or
    typed from the card) goes to the table's gate: nothing of any round is read for it."""

    @functools.wraps(view)
    def wrapped(request, key, *args, **kwargs):
        try:
            return view(request, key, *args, **kwargs)
        except _ToGate:
            return redirect("table:home", key)

    return wrapped


#: How long a PIN typed at a finished round's page shows its sheets on that phone.
SEEN_SECONDS = 15 * 60
_SEEN_SALT = "scoring.table.seen"


def _seen_cookie(play: TablePlay) -> str:
    return f"seen_{play.pk}"


def _seen_seat(request, play: TablePlay, seats: list[Seat]) -> Seat | None:
    """The seat whose player typed his PIN at this finished round's page on this phone in
    the last :data:`SEEN_SECONDS` (a signed cookie of the round's pages only)."""
    found = request.get_signed_cookie(
        _seen_cookie(play), default=None, salt=_SEEN_SALT, max_age=SEEN_SECONDS
    )
    return next((s for s in seats if found and str(s.entry_id) == found), None)


def _context(request, state: _TableState) -> dict:
    table, rnd, play, seats = state.table, state.round, state.play, list(state.seats)
    following = rnd.following_round
    not_started = rnd.state == Round.State.PENDING
    if not_started:
        # A round not started shows neither its set nor its seats.
        seats, deals = [], []
    else:
        deals = list(state.deals)
    me = _me(request, seats)
    linked = _linked(request, seats)
    # Asked of the service before any button is offered: the page never offers what the
    # write would refuse, and says why instead.
    access = services.players_access(play)
    # Once «Конец тура!» is given, a round's page shows its sheets only to someone who
    # proves he sat there (docs/game.md §4.5): his own link, or his PIN typed here lately.
    round_over = rnd.state == Round.State.FINISHED
    proven = linked or (_seen_seat(request, play, seats) if round_over else None)
    who = Who.TABLE_PROVEN if proven is not None else Who.TABLE
    # The seat the page marks «(you)»: his own link's or the one proven here, or the seat
    # the gate led him to after his PIN (?as=); never a seat merely chosen in a form whose
    # PIN was refused.
    you = proven or next((s for s in seats if s.position == request.GET.get("as")), None)
    return {
        "table": table,
        "room": table.room,
        "event": table.room.session.event,
        "round": rnd,
        "play": play,
        "not_started": not_started,
        # Over, and the table has moved on to its next round: this link shows this round only.
        "moved_on": rnd.state == Round.State.FINISHED
        and following is not None
        and following.state != Round.State.PENDING,
        "seats": seats,
        "deals": deals,
        "me": me,
        "me_key": request.GET.get("me", "") or request.POST.get("me", ""),
        # The seat of the player whose own link the page came from: proven without a PIN.
        "linked": linked,
        "you": you,
        "set_label": state.set_label,
        "who": _who_query(request, me),
        "access": access,
        "open_to_players": access.open,
        "round_url": reverse("table:round", args=[play.key]),
        "round_over": round_over,
        "who_asks": who,
        "proven_seat": proven,
        # Nothing of the round's sheets for this phone: «Тур окончен» and the gate.
        "gated": not not_started
        and not disclosure.may_see(who, DealState.ENTERED, round_over=round_over),
    }


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
        {**ctx, "rows": rows, "refused": refused or {}},
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
    # outbox after bad Wi-Fi, say — is written by the same rules as any (scoring.services);
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
    """The deal's state at this table (``scoring.disclosure``): its sheet, the table-round
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
    """«Коробка не совпадает»: the table tells the director the box differs (scoring.boxes)."""
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


# --- the table's gate (/t/<table key>/) ------------------------------------------------------


@dataclass(frozen=True)
class _GateRound:
    """A table-round the gate may lead to: the round at the table now, or one the director
    opened again; with whether its players may write it now (only then is a PIN taken)."""

    play: TablePlay
    access: services.PlayersAccess
    now: bool  # the round at the table now (else an earlier one, opened again)

    @property
    def round(self) -> Round:
        return self.play.round


def _gate_rounds(table: Table) -> tuple[Round | None, list[_GateRound]]:
    """The round at the table now (on the clock, else the latest over, else the first) and
    the table-rounds the gate offers: that round's once it has started, then the earlier
    ones the director opened again. Three queries, whatever the rounds planned."""
    rnd = room_current_round(table.room)
    if rnd is None:
        return None, []
    reopened = Q(players_access=TablePlay.Access.OPEN, round__state=Round.State.FINISHED)
    wanted = reopened if rnd.state == Round.State.PENDING else Q(round=rnd) | reopened
    plays = list(TablePlay.objects.filter(wanted, table=table).select_related("round").order_by())
    for play in plays:
        play.table = table
        if play.round_id == rnd.pk:
            play.round = rnd  # read with its following round: no query for its access
    access = services.plays_access([p for p in plays if p.round_id != rnd.pk])
    found = [
        _GateRound(
            p,
            services.players_access(p) if p.round_id == rnd.pk else access[p.pk],
            now=p.round_id == rnd.pk,
        )
        for p in plays
    ]
    found.sort(key=lambda g: (not g.now, g.round.number))
    return rnd, found


def _gate_seats(offered: list[_GateRound]) -> dict[int, list[Seat]]:
    """The seats of the offered table-rounds, by round: one query."""
    if not offered:
        return {}
    table_id = offered[0].play.table_id
    by_round: dict[int, list[Seat]] = {g.play.round_id: [] for g in offered}
    seats = Seat.objects.filter(table_id=table_id, round_id__in=list(by_round)).select_related(
        "entry"
    )
    for seat in seats.order_by():
        by_round[seat.round_id].append(seat)
    return by_round


def _round_link(play: TablePlay, **query) -> str:
    url = reverse("table:round", args=[play.key])
    return f"{url}?{urlencode(query)}" if query else url


def _gate(request, table: Table):
    """The table's QR code: a gate to the round at the table now (and to a round the
    director opened again). It shows no sheet, set or seat; it asks «Кто вы?» — a seat of
    that round and its player's PIN, or his own link (``?me=``) — and leads him to that
    round's link. A PIN is compared, and counted when wrong, only for a round its players
    may write now (``scoring.proof``)."""
    rnd, offered = _gate_rounds(table)
    writable = [g for g in offered if g.access.open]
    errors: dict[str, str] = {}
    typed = {"round": "", "as": "", "pin": ""}
    me_key = request.GET.get("me", "")
    if request.method == "POST":
        typed = {name: request.POST.get(name, "").strip() for name in typed}
        found = _gate_post(offered, typed, device_hash(request))
        if isinstance(found, str):
            return redirect(found)
        errors = found
    elif me_key:
        seats = _gate_seats(offered)
        for gate_round in offered:
            seat = next((s for s in seats[gate_round.play.round_id] if s.entry.key == me_key), None)
            if seat is not None:
                return redirect(_round_link(gate_round.play, me=me_key))
        errors["me"] = _(
            "The player of this link does not sit at table %(t)d in the round at the table "
            "now: open your table from your own page, or name your seat and type your PIN."
        ) % {"t": table.number}
    positions = TABLE_ORDER if table.seats == 4 else TABLE_ORDER[1:]
    if not typed["round"] and writable:
        typed["round"] = str(writable[0].round.number)
    return render(
        request,
        "table/gate.html",
        {
            "table": table,
            "room": table.room,
            "event": table.room.session.event,
            "round": rnd,
            "now": next((g for g in offered if g.now), None),
            "writable": writable,
            "positions": positions,
            "typed": typed,
            "errors": errors,
            "pin_digits": PIN_DIGITS,
        },
        status=400 if errors and request.method == "POST" else 200,
    )


def _gate_post(
    offered: list[_GateRound], typed: dict[str, str], device: str = ""
) -> str | dict[str, str]:
    """The gate's «Кто вы?» sent: the round link to go to, or the problems by field. The
    round's access is asked before the PIN: for a round its players may not write, the PIN
    is neither compared nor counted."""
    errors: dict[str, str] = {}
    writable = [g for g in offered if g.access.open]
    chosen = next((g for g in offered if str(g.round.number) == typed["round"]), None)
    if chosen is None and not typed["round"] and len(writable) == 1:
        chosen = writable[0]
    if chosen is None:
        if writable:
            errors["round"] = _("Choose the round you play at this table: %(rounds)s.") % {
                "rounds": ", ".join(str(g.round.number) for g in writable)
            }
        elif offered:
            errors["round"] = offered[0].access.reason
        else:
            errors["round"] = _(
                "No round of this table can be written now: the director records its sheets."
            )
        return errors
    if not chosen.access.open:
        # Before the PIN is looked at: nothing of this round to prove, nothing counted.
        return {"round": chosen.access.reason}
    if not typed["as"]:
        errors["as"] = _("Choose your seat at this table.")
    if not typed["pin"]:
        errors["pin"] = _("Type your PIN: the %(n)d digits printed on your name card.") % {
            "n": PIN_DIGITS
        }
    if errors:
        return errors
    seats = _gate_seats([chosen])[chosen.play.round_id]
    if not any(s.position == typed["as"] for s in seats):
        return {
            "as": _("There is no player at seat %(seat)s of this table in round %(n)d.")
            % {"seat": typed["as"], "n": chosen.round.number}
        }
    try:
        identity = proof.identify(
            seats,
            access=chosen.access,
            position=typed["as"],
            pin=typed["pin"],
            named=False,
            device=device,
        )
    except ValidationError as error:
        return {"pin": " ".join(error.message_dict.get("pin", error.messages))}
    return _round_link(chosen.play, **{"as": identity.seat.position})
