"""The table's gate (/t/<table key>/, the QR code on the table card): it names the table and its round now and asks «Кто вы?» — a seat of that round with its player's PIN, or his own link — before it leads to that round's link; it shows no sheet, set or seat."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from events import checkin
from events.boards import TABLE_ORDER
from events.models import PIN_DIGITS, Round, Seat, Table
from events.rounds import room_current_round
from scoring.models import TablePlay
from scoring.sheets import proof, services
from scoring.sheets.device import device_hash

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


@dataclass
class _GateCheckIn:
    """The check-in asked now in the table's room (``events.checkin``), as the gate shows
    it: the seats of this table in that round, by position, and who has checked in — no
    names (the gate shows none)."""

    round: int
    seats: list[Seat]
    done: set[int]  # entry ids checked in

    @property
    def marks(self) -> list[tuple[str, bool]]:
        return [(s.position or "—", s.entry_id in self.done) for s in self.seats]

    @property
    def present(self) -> int:
        return sum(s.entry_id in self.done for s in self.seats)

    def seat_of(self, *, position: str = "", key: str = "") -> Seat | None:
        for seat in self.seats:
            if (position and seat.position == position) or (key and seat.entry.key == key):
                return seat
        return None


def _gate_checkin(table: Table) -> _GateCheckIn | None:
    """The check-in open now at this table, if any, with its seats: three queries."""
    room = table.room
    asked = checkin.room_asked_round(room)
    if asked is None:
        return None
    seating = asked or 1  # before the session: his seat in the first round
    seats, done = checkin.table_checkins(table.pk, room.session, asked, seating)
    seats.sort(key=lambda s: TABLE_ORDER.index(s.position) if s.position in TABLE_ORDER else 9)
    return _GateCheckIn(asked, seats, done) if seats else None


def _checkin_post(request, table: Table, check: _GateCheckIn | None, typed: dict) -> str | dict:
    """«Я на месте» sent from the gate: back to the gate (his own link kept), or the
    problems by field. His own link (``me``) proves him; else his seat and his PIN."""
    if check is None:
        return {"checkin": _("Check-in is not open at this table now: tell the director.")}
    me = request.POST.get("me", "")
    seat = check.seat_of(key=me) if me else None
    if seat is None:
        if not typed["as"]:
            return {"as": _("Choose your seat at this table.")}
        seat = check.seat_of(position=typed["as"])
        if seat is None:
            return {
                "as": _("There is no player at seat %(seat)s of this table.")
                % {"seat": typed["as"]}
            }
        try:
            proof.checkin_pin(seat, typed["pin"], device=device_hash(request))
        except ValidationError as error:
            return {"pin": " ".join(error.message_dict.get("pin", error.messages))}
    try:
        checkin.checkin_mark(table.room.session, seat.entry, round=check.round)
    except ValidationError as error:
        return {"checkin": " ".join(error.messages)}
    back = reverse("table:home", args=[table.key])
    return f"{back}?{urlencode({'me': me})}#checkin" if me else f"{back}#checkin"


def _round_link(play: TablePlay, **query) -> str:
    url = reverse("table:round", args=[play.key])
    return f"{url}?{urlencode(query)}" if query else url


def _gate(request, table: Table):
    """The table's QR code: a gate to the round at the table now (and to a round the
    director opened again). It shows no sheet, set or seat; it asks «Кто вы?» — a seat of
    that round and its player's PIN, or his own link (``?me=``) — and leads him to that
    round's link. A PIN is compared, and counted when wrong, only for a round its players
    may write now (``scoring.sheets.proof``)."""
    rnd, offered = _gate_rounds(table)
    writable = [g for g in offered if g.access.open]
    errors: dict[str, str] = {}
    typed = {"round": "", "as": "", "pin": ""}
    me_key = request.GET.get("me", "")
    check = _gate_checkin(table)
    checkin_typed = {"as": "", "pin": ""}
    checkin_errors: dict[str, str] = {}
    if request.method == "POST" and request.POST.get("checkin"):
        checkin_typed = {name: request.POST.get(name, "").strip() for name in checkin_typed}
        found = _checkin_post(request, table, check, checkin_typed)
        if isinstance(found, str):
            return redirect(found)
        checkin_errors = found
    elif request.method == "POST":
        typed = {name: request.POST.get(name, "").strip() for name in typed}
        found = _gate_post(offered, typed, device_hash(request))
        if isinstance(found, str):
            return redirect(found)
        errors = found
    elif me_key and check is not None and check.seat_of(key=me_key) is not None:
        pass  # he checks in here by his own link (the round's sheets are not open yet)
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
            "checkin": check,
            "checkin_me": check.seat_of(key=me_key) if check is not None and me_key else None,
            "me_key": me_key,
            "checkin_typed": checkin_typed,
            "checkin_errors": checkin_errors,
        },
        status=400 if (errors or checkin_errors) and request.method == "POST" else 200,
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
