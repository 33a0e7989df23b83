"""«Позвать судью» (issue 34): a table calls the director, a director answers «Иду», then
«Решено». The one writer of ``TableCall``.

- :func:`call_open` — a phone (the table's round page, a player's own page) calls: no
  account, so its log line has no author; the seat and the player, when known, are in it.
  One call open (or going) per table: a second call meanwhile is the first one
  (``call.created`` is False: the pages say «Судья уже вызван»), never a second row, also
  when two phones press at the same instant (the database's one-open constraint decides,
  the loser gets the winner's call). The same ``client_id`` (the outbox sends a call again
  after a lost answer) is the same call, whatever its state now.
- :func:`call_going`, :func:`call_close` — a director of the room (``events.staff``, action
  «calls»: the chief, a director, a room director in his rooms) answers. «Иду» on a call
  already going is a no-op; on a closed call it is refused. «Решено» on a closed call is a
  no-op (two directors pressing it together both succeed; one log line).
- :func:`open_calls` — the room's open and going calls for the console: one query.

Every change writes its log line in its transaction and bumps the room's console token and
the table's token (``events.clockdoc``): the console shows it at its next poll, the table's
and its players' pages learn «Судья идёт» from their call poll (:func:`table_call_doc`).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from events import clockdoc, staff
from events.actionlog import log_action
from events.models import Entry, Round, Seat, Table, TableCall

OPEN_STATES = (TableCall.State.OPEN, TableCall.State.GOING)
CLIENT_ID_MAX = TableCall._meta.get_field("client_id").max_length


def round_now(room_id: int) -> Round | None:
    """The room's round now: the one on the clock, else the last started (finished) one;
    None before the first starts."""
    return (
        Round.objects.filter(room_id=room_id)
        .exclude(state=Round.State.PENDING)
        .order_by("-number")
        .first()
    )


def _table(table) -> Table:
    """The table with its room, session and event (one query, unless given so)."""
    room = getattr(table, "_state", None) and table._state.fields_cache.get("room")
    if room is not None and "session" in room._state.fields_cache:
        session = room.session
        if "event" in session._state.fields_cache:
            return table
    return Table.objects.select_related("room__session__event").get(pk=table.pk)


def _after(call: TableCall) -> dict:
    """What a call is, as its log lines keep it."""
    data = {"reason": call.reason, "seat": call.position, "state": call.state}
    if call.round_id is not None and call.round is not None:
        data["round"] = call.round.number
    if call.entry_id is not None:
        data["player"] = call.entry.full_name
    return data


def _changed(call: TableCall, room_id: int) -> None:
    """The console of the room and the table's pages (and its players' call poll)."""
    clockdoc.room_and_entries_changed(room_id, [], call.table_id)


def _existing(table: Table, client_id: str) -> TableCall | None:
    calls = TableCall.objects.filter(table=table).select_related("round", "entry")
    if client_id:
        same = calls.filter(client_id=client_id).order_by("-id").first()
        if same is not None:
            return same
    return calls.filter(state__in=OPEN_STATES).order_by().first()


def call_open(
    table: Table,
    *,
    reason: str,
    position: str = "",
    entry: Entry | None = None,
    client_id: str = "",
) -> TableCall:
    """The table calls the director (see the module). Returns the call, with ``created``
    True when this request made it, False when it was made already (open or going, or the
    same ``client_id`` before). Raises ``ValidationError`` naming ``reason`` or ``position``
    (in the user's language) for a reason not known or a seat not at this table in its
    round now."""
    if reason not in TableCall.Reason.values:
        raise ValidationError(
            {
                "reason": _("Choose why you call the director: one of %(reasons)s.")
                % {"reasons": ", ".join(str(label) for label in TableCall.Reason.labels)}
            }
        )
    client_id = (client_id or "").strip()[:CLIENT_ID_MAX]
    table = _table(table)
    room = table.room
    rnd = round_now(room.pk)
    position = (position or "").strip()
    if position or entry is not None:
        seats = (
            {
                s.position: s.entry_id
                for s in Seat.objects.filter(round=rnd, table=table).only("position", "entry_id")
            }
            if rnd is not None
            else {}
        )
        if entry is not None and not position:
            position = next((p for p, e in seats.items() if e == entry.pk), "")
        if position not in seats or (entry is not None and seats[position] != entry.pk):
            raise ValidationError(
                {
                    "position": _("Seat «%(seat)s» is not a seat of table %(table)s now.")
                    % {"seat": position, "table": table.number}
                }
            )
    found = _existing(table, client_id)
    if found is not None:
        found.created = False
        return found
    try:
        with transaction.atomic():
            call = TableCall.objects.create(
                table=table,
                round=rnd,
                position=position,
                entry=entry,
                reason=reason,
                client_id=client_id,
            )
            log_action(
                room.session.event, None, "call.open", room=room, table=table, after=_after(call)
            )
            _changed(call, room.pk)
    except IntegrityError:
        # Another phone of the table called at the same instant: its call is ours.
        found = _existing(table, client_id)
        if found is None:
            raise
        found.created = False
        return found
    call.created = True
    return call


def _answer(call: TableCall, by, kind: str, state: str) -> TableCall:
    table = _table(call.table)
    room = table.room
    event = room.session.event
    staff.require(by, event, "calls", room=room)
    with transaction.atomic():
        locked = (
            TableCall.objects.select_for_update(of=("self",))
            .filter(pk=call.pk)
            .select_related("round", "entry")
            .first()
        )
        if locked is None:
            raise ValidationError({"call": _("This call exists no more.")})
        locked.table = table
        if locked.state == state or locked.state == TableCall.State.CLOSED:
            if locked.state == TableCall.State.CLOSED and state == TableCall.State.GOING:
                raise ValidationError({"state": _("This call is resolved already.")})
            return locked  # pressed twice, or by two directors: nothing more to do
        before = _after(locked)
        now = timezone.now()
        locked.state = state
        if state == TableCall.State.GOING:
            locked.going_at, locked.going_by = now, by
            fields = ["state", "going_at", "going_by"]
        else:
            locked.closed_at, locked.closed_by = now, by
            fields = ["state", "closed_at", "closed_by"]
        locked.save(update_fields=fields)
        log_action(event, by, kind, room=room, table=table, before=before, after=_after(locked))
        _changed(locked, room.pk)
    return locked


def call_going(call: TableCall, *, by) -> TableCall:
    """«Иду»: a director of the call's room is on the way. Refused (``PermissionDenied``)
    to an account that may not answer calls in that room; a call going already stays as it
    is; a resolved one is refused (``ValidationError`` on ``state``)."""
    return _answer(call, by, "call.going", TableCall.State.GOING)


def call_close(call: TableCall, *, by) -> TableCall:
    """«Решено»: the call is resolved (from open or going). Closing a resolved call is a
    no-op (no second log line). Refused as :func:`call_going`."""
    return _answer(call, by, "call.close", TableCall.State.CLOSED)


def open_calls(room) -> list[TableCall]:
    """The room's calls waiting or answered «Иду», oldest first, with their table, player
    and the director on the way: one query, whatever their number."""
    return list(
        TableCall.objects.filter(table__room=room, state__in=OPEN_STATES)
        .select_related("table", "entry", "going_by")
        .order_by("opened_at", "id")
    )


# --- the phones' poll -------------------------------------------------------------------


def _call_doc(table_id: int) -> dict:
    call = (
        TableCall.objects.filter(table_id=table_id, state__in=OPEN_STATES)
        .order_by()
        .values("id", "state", "reason", "position", "opened_at", "going_at")
        .first()
    )
    if call is None:
        return {"state": "", "id": None}
    return {
        "id": call["id"],
        "state": call["state"],
        "reason": call["reason"],
        # Within a sentence: «Судья вызван (спор)».
        "reason_name": str(TableCall.Reason(call["reason"]).label).lower(),
        "seat": call["position"],
        "opened_at": call["opened_at"].isoformat(),
        "going_at": call["going_at"].isoformat() if call["going_at"] else None,
    }


def table_call_doc(table_id: int) -> dict:
    """What the table's and its players' pages poll while a call is open: the table's call
    now (``state`` «» when none), built once per change of the table's token and language,
    then answered from the cache (one round trip, no query). With ``now``."""
    token = clockdoc.tokens([clockdoc.table_key(table_id)])[clockdoc.table_key(table_id)]
    lang = translation.get_language() or ""
    doc = clockdoc.by_tokens(f"call:doc1:{table_id}:{token}:{lang}", lambda: _call_doc(table_id))
    return {**doc, "now": timezone.now().isoformat()}


def seat_now(entry: Entry) -> Seat | None:
    """The player's seat at a table in his room's round now (None: not seated at a table in
    it), with its table, room, session and event: one query, and one for the round now."""
    seat = (
        Seat.objects.filter(entry=entry, table__isnull=False)
        .exclude(round__state=Round.State.PENDING)
        .select_related("round", "table__room__session__event")
        .order_by("-round__room__session__number", "-round__number")
        .first()
    )
    if seat is None:
        return None
    now = round_now(seat.round.room_id)
    return seat if now is not None and now.pk == seat.round_id else None
