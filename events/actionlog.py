"""The event's log («Журнал», issue 34): the one writer of ``ActionLog``.

Every director's action writes one line here, in the transaction of the change itself, so
that a change rolled back leaves no line and a line never tells of a change that did not
happen. The line stores codes and data, not sentences: ``kind`` is one of ``KINDS`` below,
``before``/``after`` what the change replaced and what it made, and the page or the API
draws it in the reader's language. ``summary`` is free text (a reason the director typed).
"""

from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _now
from django.utils.translation import gettext_lazy as _

from events.models import (
    ActionLog,
    BoxReport,
    Entry,
    Event,
    EventStaff,
    Round,
    TableCall,
    TablePlay,
)

#: The kinds of line, each a short code with what it is called in the «Журнал»'s filter.
#: A kind not listed here is refused, so that a misspelled code never hides a line from
#: the filter; a new action adds its kind here (and its translation).
KINDS = {
    "event.create": _("event created"),
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
    "sheet.confirm": _("sheet confirmed"),
    "sheet.restore": _("sheet version accepted"),
    "sheet.access": _("players' access to the sheets"),
    "box.report": _("box report handled"),
    "adjust.set": _("adjustment"),
    "adjust.table": _("table's scores set"),
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


# --- reading the log ------------------------------------------------------------------------
#
# The «Журнал» page, its CSV and the API read the same rows through :func:`log_lines` and
# draw each one through :func:`line_row`, so the three always agree.


def log_lines(
    event: Event,
    *,
    login: str = "",
    room: int | None = None,
    kind: str = "",
    sheet: int | None = None,
    version: int | None = None,
):
    """The event's log, newest first, filtered: by the author's ``login``, the ``room``'s
    number, the ``kind`` (a code of :data:`KINDS`), a ``sheet``'s id (its lines: the
    director's records, corrections, confirmations and accepted versions of that sheet) and,
    with it, the ``version`` a line made."""
    lines = ActionLog.objects.filter(event=event).select_related("event")
    if login:
        lines = lines.filter(login=login)
    if room is not None:
        lines = lines.filter(room=room)
    if kind:
        lines = lines.filter(kind=kind)
    if sheet is not None:
        lines = lines.filter(kind__startswith="sheet.").filter(
            Q(after__sheet=sheet) | Q(before__sheet=sheet)
        )
        if version is not None:
            lines = lines.filter(after__version=version)
    return lines.order_by("-at", "-id")


def log_authors(event: Event) -> list[str]:
    """The logins that wrote a line of the event's log (the page's filter)."""
    return sorted(
        set(ActionLog.objects.filter(event=event).exclude(login="").values_list("login", flat=True))
    )


def log_rooms(event: Event) -> list[int]:
    """The rooms named in the event's log (the page's filter)."""
    return sorted(
        set(
            ActionLog.objects.filter(event=event, room__isnull=False).values_list("room", flat=True)
        )
    )


def kind_name(kind: str) -> str:
    """A kind's name in the reader's language; an unknown code (a kind retired) as is."""
    return str(KINDS[kind]) if kind in KINDS else kind


#: What each key of ``before``/``after`` is called on the page and in the file; a key not
#: listed is an id for the links (the sheet's, the adjustment's), not shown.
FIELDS = {
    "round": _("round"),
    "session": _("session"),
    "deal": _("deal"),
    "version": _("version"),
    "restored": _("version accepted"),
    "status": _("status"),
    "state": _("state"),
    "data": _("result"),
    "access": _("players' access"),
    "tables": _("tables"),
    "public": _("results public"),
    "length_seconds": _("length"),
    "remaining_seconds": _("time left"),
    "seconds": _("time added"),
    "player": _("participant"),
    "name": _("name"),
    "club": _("club"),
    "score": _("score"),
    "scores": _("scores by seat"),
    "given": _("scores given"),
    "penalty": _("penalty"),
    "what": _("what differs"),
    "talon": _("talon"),
    "from_round": _("from round"),
    "seats": _("seats"),
    "rooms": _("rooms"),
    "rounds": _("rounds"),
    "imported": _("players imported"),
    "drawn": _("numbers drawn"),
    "seed": _("seed"),
    "login": _("login"),
    "role": _("role"),
    "each_round": _("check-in before each round"),
    "by_hand": _("by the director"),
    "archive": _("from an archive"),
    "reason": _("reason"),
    "seat": _("seat"),
}

SHEET_STATUS = {
    "entered": _("entered"),
    "confirmed": _("confirmed"),
    "disputed": _("disputed"),
}


def _duration(seconds, *, signed: bool = False) -> str:
    sign = "−" if seconds < 0 else ("+" if signed else "")
    minutes, rest = divmod(abs(int(seconds)), 60)
    return f"{sign}{minutes}:{rest:02d}"


def _value(kind: str, key: str, value) -> str:
    """One value as a reader reads it: a state by its name, a length in minutes, yes/no."""
    if value is None or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return _now("yes") if value else _now("no")
    if key in ("length_seconds", "remaining_seconds", "seconds") and isinstance(value, int):
        return _duration(value, signed=key == "seconds")
    if isinstance(value, list):
        return ", ".join(_value(kind, key, item) for item in value)
    if isinstance(value, dict):  # a sheet's entered data: its own fields, as typed
        return ", ".join(
            f"{k} ({_value(kind, k, v)})" if isinstance(v, dict) else f"{k} {_value(kind, k, v)}"
            for k, v in value.items()
        )
    choices = None
    if key == "access":
        choices = TablePlay.Access
    elif key == "reason" and kind.startswith("call."):
        choices = TableCall.Reason
    elif key == "state":
        choices = (
            BoxReport.State
            if kind == "box.report"
            else TableCall.State
            if kind.startswith("call.")
            else Round.State
        )
    elif key == "what":
        choices = BoxReport.Kind
    elif key == "role":
        choices = EventStaff.Role
    elif key == "status":
        if kind.startswith("sheet."):
            return str(SHEET_STATUS.get(value, value))
        choices = Entry.Status
    if choices is not None and value in choices.values:
        return str(choices(value).label)
    return str(value)


#: How a value only a higher layer can word reads: its key → ``fn(event, value)``, the text
#: in the reader's language (or ``None`` to read it plainly). The scoring app gives a sheet's
#: entered data in its game's words («N: три ♦ · E вист · S пас · взятки N 7 · E 3»).
READERS: dict = {}


def reader(key: str, fn) -> None:
    """Word the values of ``key`` with ``fn`` (see :data:`READERS`)."""
    READERS[key] = fn


def _read(kind: str, key: str, value, event) -> str:
    fn = READERS.get(key)
    if fn is not None and event is not None and value not in (None, [], {}):
        text = fn(event, value)
        if text:
            return text
    return _value(kind, key, value)


def readable(kind: str, data, event=None) -> str:
    """``before`` or ``after`` of a line as one line of text: «тур: 2; осталось: 5:00»
    (``event``: the line's, for the values a higher layer words, :data:`READERS`)."""
    if data is None:
        return ""
    if not isinstance(data, dict):
        return _value(kind, "", data)
    return "; ".join(
        f"{FIELDS[key]}: {_read(kind, key, value, event)}"
        for key, value in data.items()
        if key in FIELDS and not (key == "seat" and not value)
    )


def line_row(line: ActionLog) -> dict:
    """A line as the page, the file and the API show it (the time in the site's zone)."""
    return {
        "line": line,
        "at": timezone.localtime(line.at),
        "login": line.login,
        "kind": line.kind,
        "kind_name": kind_name(line.kind),
        "room": line.room,
        "table": line.table,
        "summary": line.summary,
        "before": readable(line.kind, line.before, line.event),
        "after": readable(line.kind, line.after, line.event),
        "sheet": _sheet_of(line),
    }


def _sheet_of(line: ActionLog) -> int | None:
    if not line.kind.startswith("sheet."):
        return None
    for data in (line.after, line.before):
        if isinstance(data, dict) and isinstance(data.get("sheet"), int):
            return data["sheet"]
    return None
