"""The event's log («Журнал», issue 34): the one writer of ``ActionLog``.

Every director's action writes one line here, in the transaction of the change itself, so
that a change rolled back leaves no line and a line never tells of a change that did not
happen. The line stores codes and data, not sentences: ``kind`` is one of ``KINDS`` below,
``before``/``after`` what the change replaced and what it made, and the page or the API
draws it in the reader's language. ``summary`` is free text (a reason the director typed).
"""

from django.db import models, transaction
from django.utils.translation import gettext_lazy as _

from events.models import ActionLog, Event

#: The kinds of line, each a short code with what it is called in the «Журнал»'s filter.
#: A kind not listed here is refused, so that a misspelled code never hides a line from
#: the filter; a new action adds its kind here (and its translation).
KINDS = {
    "staff.add": _("staff member added"),
    "staff.change": _("staff member's role changed"),
    "staff.remove": _("staff member removed"),
    "round.start": _("round started"),
    "round.end": _("round ended"),
    "round.extend": _("round extended"),
    "round.pause": _("round paused"),
    "round.resume": _("round resumed"),
    "sheet.record": _("sheet entered"),
    "sheet.correct": _("sheet corrected"),
    "box.report": _("box report handled"),
    "adjust.set": _("adjustment"),
    "penalty.set": _("penalty"),
    "seating.change": _("seating changed"),
    "substitution": _("substitution"),
    "entries.change": _("players' list changed"),
    "publish": _("publication"),
    "deals.show": _("deals shown"),
    "call.open": _("director called"),
    "call.going": _("director on the way"),
    "call.close": _("call closed"),
    "checkin": _("check-in"),
}


def _number(where) -> int | None:
    """A room or table given as its model or as its number: the number."""
    if where is None or isinstance(where, int):
        return where
    if isinstance(where, models.Model):
        return where.number
    raise TypeError(f"a room or table is a number or its model, not {where!r}")


def log_action(
    event: Event,
    user,
    kind: str,
    *,
    room=None,
    table=None,
    summary: str = "",
    before=None,
    after=None,
) -> ActionLog:
    """Write one line of the event's log: ``user`` did ``kind`` (in ``room``, at ``table``:
    numbers or their models), replacing ``before`` by ``after`` (JSON-able data).

    ``user`` may be ``None`` (or anonymous) for what no account did: the server's command
    line, a table's phone. Call it inside the change's ``transaction.atomic()``: outside one
    it refuses, as the line and the change must stand or fall together."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of log line: {kind!r} (events.actionlog.KINDS)")
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("log_action writes in the transaction of the change it records")
    if user is not None and not user.is_authenticated:
        user = None
    return ActionLog.objects.create(
        event=event,
        user=user,
        login=user.get_username() if user is not None else "",
        kind=kind,
        room=_number(room),
        table=_number(table),
        summary=summary[: ActionLog._meta.get_field("summary").max_length],
        before=before,
        after=after,
    )
