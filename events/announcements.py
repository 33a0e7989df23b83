"""The words of an announcement, in the reader's language (stored as figures, not text)."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from events.models import Announcement


def _tables(n: int) -> str:
    return ngettext("%(n)d table", "%(n)d tables", abs(n)) % {"n": abs(n)}


def line_move_text(line: str, tables: int) -> str:
    if tables == 0:
        return _("%(line)s stay at their tables") % {"line": line}
    if tables > 0:
        return _("%(line)s move %(tables)s up") % {"line": line, "tables": _tables(tables)}
    return _("%(line)s move %(tables)s down") % {"line": line, "tables": _tables(tables)}


def sets_text(sets: dict[str, list[int]], tables: int) -> str:
    """Say «one table down» when every set goes there, else table by table."""
    moves = {int(t): d for t, d in sets.items()}
    if moves and all(d == [(t - 2) % tables + 1] for t, d in moves.items()):
        return _("N passes the set to the table numbered one lower (from table 1 to the last).")
    parts = []
    for table, dest in sorted(moves.items()):
        if not dest:
            parts.append(_("table %(t)d → to the director") % {"t": table})
        else:
            parts.append(_("table %(t)d → %(to)s") % {"t": table, "to": ", ".join(map(str, dest))})
    return _("N takes the set: %(moves)s.") % {"moves": "; ".join(parts)}


def headline(a: Announcement) -> str:
    kind = a.kind
    if kind == Announcement.Kind.START:
        return _("Round start!")
    if kind == Announcement.Kind.END:
        return _("Round over!")
    if kind == Announcement.Kind.WARNING:
        minutes = a.data.get("minutes", 0)
        return ngettext("%(n)d minute left", "%(n)d minutes left", minutes) % {"n": minutes}
    if kind == Announcement.Kind.PAUSE:
        return _("The clock is stopped")
    if kind == Announcement.Kind.RESUME:
        return _("The clock runs again")
    seconds = a.data.get("seconds", 0)
    minutes = round(abs(seconds) / 60)
    if minutes:
        amount = ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
    else:
        amount = ngettext("%(n)d second", "%(n)d seconds", abs(seconds)) % {"n": abs(seconds)}
    return (
        _("Round time extended by %(amount)s")
        if seconds > 0
        else _("Round time shortened by %(amount)s")
    ) % {"amount": amount}


def details(a: Announcement) -> str:
    if a.kind == Announcement.Kind.START:
        return _("Round %(n)d.") % {"n": a.round.number}
    if a.kind != Announcement.Kind.END:
        return ""
    data = a.data
    if data.get("last"):
        return _("Round %(n)d was the last round of the session.") % {"n": data["round"]}
    parts = [
        _("Round %(n)d is over; next: round %(next)d.")
        % {"n": data["round"], "next": data["next_round"]}
    ]
    if data.get("lines"):
        parts.append("; ".join(line_move_text(m["line"], m["tables"]) for m in data["lines"]) + ".")
    else:
        parts.append(_("Everyone: see your next seat on your page or the movement card."))
    if data.get("sets"):
        parts.append(sets_text(data["sets"], a.room.tables.count()))
    return " ".join(parts)


def as_dict(a: Announcement) -> dict:
    return {
        "id": a.pk,
        "kind": a.kind,
        "round": a.round.number,
        "headline": headline(a),
        "details": details(a),
        "fired_at": a.fired_at.isoformat(),
        # A warning's minutes: the clock hides it once it is no longer true (static/js/clock.js).
        "minutes": a.data.get("minutes") if a.kind == Announcement.Kind.WARNING else None,
    }
