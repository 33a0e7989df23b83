"""The table's scoring pages (/t/<key>/): the set's deals, entering and confirming sheets.

The table key is printed as a QR code on the table card; a player can also come from his own
page (?me=<his key>), which picks him as the one entering and proves it was he. On the
table's shared device a player proves it with his PIN (``scoring.proof``: the table's link
alone enters, never confirms). Rules of who may write live in scoring.services; these views
only translate.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from events import clockdoc
from events.links import table_by_key
from events.models import Round, Seat, Table
from events.rounds import room_current_round, room_round
from scoring import boxes, display, proof, services
from scoring.models import Deal, Proof, ScoreSheet, TablePlay
from scoring.scorer import ScorerStep, scorer_form, scorer_step
from scoring.views import OUTCOMES, STALE_CHECK, _seats


def _table(key: str) -> Table:
    return table_by_key(key)


#: The order the table's pages list seats in: round the table, W N E S (N E S at a table of
#: three, where W is empty).
TABLE_ORDER = "WNES"


def _in_table_order(positions):
    return sorted(positions, key=TABLE_ORDER.index)


def _round_of(table: Table, number: int | None = None) -> Round | None:
    """The round asked for (``/rounds/<n>/``), else the one the table is at: on the clock,
    else the latest over, else the first."""
    if number is None:
        return room_current_round(table.room)
    rnd = room_round(table.room, number)
    if rnd is None:
        raise Http404(_("There is no round %(n)d in this room.") % {"n": number})
    return rnd


def _play(table: Table, rnd: Round | None) -> TablePlay | None:
    if rnd is None:
        return None
    play = (
        TablePlay.objects.select_related("board_set")
        .filter(round=rnd, table=table)
        .order_by()
        .first()
    )
    if play is not None:
        # The table came with its room, session and event: no second join up to them.
        rnd.room = table.room
        play.round, play.table = rnd, table
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


def _identify(request, seats: list[Seat]) -> tuple[proof.Identity | None, str]:
    """Who writes (the seat chosen, else the player whose link it is) and how he proved it;
    with the PIN's problem, if any, in the user's language."""
    try:
        return (
            proof.identify(
                seats,
                position=request.POST.get("as") or request.GET.get("as"),
                key=request.POST.get("me") or request.GET.get("me"),
                pin=request.POST.get("pin"),
            ),
            "",
        )
    except ValidationError as error:
        return None, " ".join(error.message_dict.get("pin", error.messages))


@dataclass(frozen=True)
class _TableState:
    """What a table's pages read of its round at every request of its phone: the table (with
    room, session, event), the round (with its following round), the set and the seats."""

    table: Table
    round: Round | None
    play: TablePlay | None
    seats: tuple[Seat, ...]
    # The set's deals, in order: fixed once the session is made (only their stale mark for
    # the standings moves, which no page here reads).
    deals: tuple[Deal, ...] = ()


def _table_state(key: str, round_number: int | None) -> _TableState:
    """The table's state (the round asked for, else its current one). The phone asks for the
    same rows at every page, deal form, «Check» and «Save», each perhaps served by another
    process: they are kept in the shared cache and in this process under the tokens that
    change with them — the setup (seating, the event's details and rules), the room's clock
    (every round's state) and the table's own (its players' access, its sheets:
    ``events.clockdoc.table_key``). One round trip to the cache then, no query; a change
    bumps a token, so the next request reads the rows again. The writes read what they
    decide on again under their lock (``scoring.services``). The process's threads share
    the objects: nothing here or in the views changes them."""
    read = []  # the table, if its ids had to be read (the state below then reuses it)

    def ids_of():
        read.append(_table(key))
        return _ids_of(read[0])

    table_id, room_id = clockdoc.local_by_tokens(("table-ids", key), ids_of)
    tokens = clockdoc.tokens(
        [clockdoc.SETUP, clockdoc.clock_key(room_id), clockdoc.table_key(table_id)]
    )
    memo_key = ":".join(["table", key, str(round_number), *(tokens[k] for k in sorted(tokens))])
    return clockdoc.by_tokens(
        memo_key, lambda: _read_state(read[0] if read else _table(key), round_number)
    )


def _ids_of(table: Table) -> tuple[int, int]:
    return table.pk, table.room_id  # a table never changes rooms


def _read_state(table: Table, round_number: int | None) -> _TableState:
    rnd = _round_of(table, round_number)
    play = _play(table, rnd)
    seats = sorted(_seats(play), key=lambda s: TABLE_ORDER.index(s.position)) if play else []
    deals = ()
    if play is not None:
        play.__dict__["_seated_entries"] = [s.entry_id for s in seats]  # the writes check it
        deals = tuple(play.board_set.deals.order_by("number"))
        for deal in deals:
            deal.board_set = play.board_set
    return _TableState(table, rnd, play, tuple(seats), deals)


def _context(request, key: str, round_number: int | None = None) -> dict:
    state = _table_state(key, round_number)
    table, rnd, play, seats = state.table, state.round, state.play, list(state.seats)
    deals = list(state.deals)
    me = _me(request, seats)
    # Asked of the service before any button is offered: the page never offers what the
    # write would refuse, and says why instead.
    access = services.players_access(play) if play else None
    return {
        "table": table,
        "room": table.room,
        "event": table.room.session.event,
        "round": rnd,
        "play": play,
        "seats": seats,
        "deals": deals,
        "me": me,
        "me_key": request.GET.get("me", "") or request.POST.get("me", ""),
        # The seat of the player whose own link the page came from: proven without a PIN.
        "linked": _linked(request, seats),
        "who": _who_query(request, me),
        "access": access,
        "open_to_players": bool(access and access.open),
        "round_url": reverse("table:round", args=[table.key, rnd.number]) if rnd else "",
    }


def _result(sheet: ScoreSheet | None, deal, seats: list[Seat]) -> dict | None:
    """A recorded result as the table reads it: the contract, and for every seat in table
    order its part (declarer, whist, pass…), tricks and score."""
    if sheet is None or sheet.current is None:
        return None
    result = sheet.current.result
    essence = result.get("sheet") or {}
    scores = result.get("scores") or {}
    failed = set(result.get("failed") or [])
    passed = essence.get("contract") == "passed"
    declarer = essence.get("declarer")
    defenders = essence.get("defenders") or {}
    tricks = essence.get("tricks") or {}
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
            part = display.word(defenders.get(position))
        lines.append(
            {
                "seat": seat,
                "part": part,
                "tricks": "" if passed else tricks.get(position, ""),
                "score": scores.get(position),
                "failed": position in failed,
            }
        )
    players = {s.position: s.entry.full_name for s in seats}
    contract = essence.get("contract")
    return {
        "passed": passed,
        "declarer": declarer,
        "declarer_name": players.get(declarer, ""),
        "contract": display.word(contract),
        "trump": "" if passed else essence.get("trump") or "",
        "defence": " · ".join(
            f"{p} {display.word(defenders[p])}" for p in TABLE_ORDER if p in defenders
        ),
        "lines": lines,
    }


@never_cache
def home(request, key, round_number=None):
    return _home(request, _context(request, key, round_number))


def _home(request, ctx: dict, *, refused: dict | None = None, status: int = 200):
    """The table-round's page. ``refused``: a confirmation just refused (its sheet, the
    seat chosen and why), shown beside that deal's form (answered 400)."""
    table = ctx["table"]
    play = ctx["play"]
    rows = []
    if play:
        sheets = {
            s.deal_id: s
            for s in ScoreSheet.objects.filter(play=play).select_related(
                "current__entered_by_entry"
            )
        }
        by_entry = {s.entry_id: s.position for s in ctx["seats"]}
        for deal in ctx["deals"]:
            sheet = sheets.get(deal.pk)
            entered_by = (
                by_entry.get(sheet.current.entered_by_entry_id) if sheet and sheet.current else None
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
                        if s.position != entered_by and s.position in deal.active_seats
                    ]
                    if sheet and sheet.status == ScoreSheet.Status.ENTERED
                    else [],
                    "unproven": bool(sheet and sheet.current and sheet.current.proof == Proof.SEAT),
                    "sits_out": [
                        s.position for s in ctx["seats"] if s.position not in deal.active_seats
                    ],
                }
            )
    # Earlier rounds of this table the director opened again (their players may come back).
    reopened = (
        TablePlay.objects.filter(
            table=table,
            players_access=TablePlay.Access.OPEN,
            round__state=Round.State.FINISHED,
        )
        .exclude(round=ctx["round"])
        .select_related("round")
        .order_by("round__number")
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
        {**ctx, "rows": rows, "reopened": reopened, "refused": refused or {}},
        status=status,
    )


def _deal(ctx: dict, number: int):
    deal = next((d for d in ctx["deals"] if d.number == number), None)
    if deal is None:
        raise Http404(_("There is no deal %(n)d in the set this table plays.") % {"n": number})
    return deal


@never_cache
def deal_form(request, key, number, round_number=None, *, report=None):
    """The deal's scorer form. ``report``: a box report just refused (what was typed and
    why), shown in its own form below (answered 400); the scorer form is then fresh."""
    ctx = _context(request, key, round_number)
    table = ctx["table"]
    play = ctx["play"]
    if play is None:
        raise Http404(_("This table has no set to play yet."))
    deal = _deal(ctx, number)
    players = {s.position: s.entry.full_name for s in ctx["seats"]}
    step, status = None, 200
    if not ctx["open_to_players"]:
        # No form to fill in: it could not be saved. The reason is on the page.
        status = 200 if request.method == "GET" else 400
    elif request.method == "POST" and report is None:
        identity, pin_error = _identify(request, ctx["seats"])
        if identity is None:
            step = ScorerStep(scorer_form(play, deal, players, request.POST), pin_error=pin_error)
            step.form.is_valid()
            if not pin_error:
                step.form.add_error(None, _("Choose who is entering the sheet."))
        else:
            step = scorer_step(
                request.POST,
                play,
                deal,
                players,
                by_entry=identity.entry,
                proof=identity.proof,
            )
        if step.recorded:
            done = step.recorded
            messages.success(
                request,
                OUTCOMES[done.outcome] % {"code": deal.code, "version": done.version.number},
            )
            return redirect(f"{ctx['round_url']}?{ctx['who']}&saved={deal.number}")
        if step.stale:
            messages.warning(request, STALE_CHECK)
        status = 200 if not step.form.errors and not step.pin_error else 400
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
    return render(
        request,
        "table/deal.html",
        {
            **ctx,
            "deal": deal,
            "sheet": sheet,
            "result": _result(sheet, deal, ctx["seats"]),
            "form": step.form if step else None,
            # A form shown fresh (not sent back with what was typed) takes the phone's draft.
            "fresh": request.method == "GET" or report is not None,
            "checked": step.checked if step else None,
            "preview": step.preview(deal, players) if step else None,
            "players": players,
            "identity": True,
            "pin_error": step.pin_error if step else "",
            # A right PIN stays in the form between «Check» and «Save» (never in the draft
            # the phone keeps).
            "pin_value": request.POST.get("pin", "")
            if request.method == "POST" and step and not step.pin_error
            else "",
            "playing": _in_table_order(deal.active_seats),
            "sits_out": [s for s in TABLE_ORDER if s not in deal.active_seats and s in players],
            "cancel_url": ctx["round_url"],
            "storage_key": f"sheet:{table.key}:{play.round.number}:{deal.number}",
            # The box (docs/game.md §2.7): the known talon, «the box does not match».
            **boxes.deal_page(play, deal, played=sheet is not None, **(report or {})),
            "report_url": reverse(
                "table:box_report", args=[table.key, play.round.number, deal.number]
            ),
        },
        status=status,
    )


@require_POST
def box_report(request, key, round_number, number):
    """«Коробка не совпадает»: the table tells the director the box differs (scoring.boxes)."""
    ctx = _context(request, key, round_number)
    play = ctx["play"]
    if play is None:
        raise Http404(_("This table has no set to play yet."))
    deal = _deal(ctx, number)
    if not ctx["open_to_players"]:
        raise PermissionDenied(ctx["access"].reason if ctx["access"] else "")
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
            request,
            key,
            number,
            round_number,
            report={"typed": typed, "errors": error.message_dict},
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
    url = reverse("table:round_deal", args=[key, round_number, number])
    return redirect(f"{url}?{ctx['who']}#box-report" if ctx["who"] else f"{url}#box-report")


@require_POST
def confirm(request, key, sheet_pk):
    table_id, _room_id = clockdoc.local_by_tokens(("table-ids", key), lambda: _ids_of(_table(key)))
    sheet = (
        ScoreSheet.objects.filter(play__table_id=table_id, pk=sheet_pk)
        .select_related("play__round", "deal__board_set")
        .order_by()
        .first()
    )
    if sheet is None:
        raise Http404(_("No such sheet at this table."))
    ctx = _context(request, key, sheet.play.round.number)
    url = f"{ctx['round_url']}?{ctx['who']}"
    identity, problem = _identify(request, ctx["seats"])
    try:
        if identity is None and not problem:
            raise ValidationError(_("Choose who is confirming the sheet."))
        if identity is not None:
            services.sheet_confirm(sheet, by_entry=identity.entry, proof=identity.proof)
    except (ValidationError, PermissionDenied) as error:
        problem = " ".join(getattr(error, "messages", None) or [str(error)])
    if problem:
        # The page again, the seat as chosen and why beside this deal's form; nothing saved.
        refused = {"sheet": sheet.pk, "as": request.POST.get("as", ""), "text": problem}
        return _home(request, ctx, refused=refused, status=400)
    messages.success(request, _("Deal %(code)s confirmed.") % {"code": sheet.deal.code})
    return redirect(url)
