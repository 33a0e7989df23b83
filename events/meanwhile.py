"""«Changed meanwhile» (issue 34: a team of directors working at once): a write made from a
page drawn before another director's change is refused, saying what changed, by whom and
when — never a silent overwrite.

A page carries what it was drawn from (a token: the ids of a table-round's adjustments, the
latest substitution of a session, a player's fields); the service compares it with what is
there now, under the row's lock, and raises :class:`Changed` naming each change. The pages
show it above the form (what was typed stays, the form is drawn again with the state of
now); the API answers it 409 ``{"detail": …}``. A write that carries no token is not
compared (the API as before).
"""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from events.models import ActionLog, Event


class Changed(ValidationError):
    """What the writer saw changed meanwhile: ``ValidationError({field: message})``, so that
    a page puts it on its form like any other problem; the API answers it 409."""

    def __init__(self, field: str, message: str):
        super().__init__({field: message})
        self.field = field
        self.text = message


def when(moment) -> str:
    """A change's time as the director reads it: «10:02» (the site's zone)."""
    return timezone.localtime(moment).strftime("%H:%M") if moment is not None else "—"


def change_line(who: str, at, what: str, old, new) -> str:
    """One change: «alice, 10:02: Иванов, deal 1-3: — → A+»."""
    return _("%(who)s, %(when)s: %(what)s: %(old)s → %(new)s") % {
        "who": who or "—",
        "when": when(at),
        "what": what,
        "old": "—" if old in (None, "") else old,
        "new": "—" if new in (None, "") else new,
    }


def refusal(changes: list[str]) -> str:
    """The whole refusal: what changed, and that nothing was saved."""
    return _(
        "Changed meanwhile: %(changes)s. Nothing was saved: look at the page as it is now "
        "and send your change again."
    ) % {"changes": "; ".join(changes)}


def last_line(event: Event, kind: str, **found) -> ActionLog | None:
    """The newest log line of ``kind`` whose data match ``found`` (``after__entry=3``…)."""
    return ActionLog.objects.filter(event=event, kind=kind, **found).order_by("-at", "-id").first()


# --- a player's entry -----------------------------------------------------------------------

#: The fields of a player the edit page changes, and so compares.
ENTRY_FIELDS = ("last_name", "first_name", "club", "number")


def entry_token(entry) -> str:
    """What the player's edit page was drawn from: his fields as they were, in JSON."""
    return json.dumps({name: getattr(entry, name) for name in ENTRY_FIELDS}, ensure_ascii=False)


def _drawn(expected) -> dict:
    if isinstance(expected, dict):
        return expected
    try:
        drawn = json.loads(expected)
    except (TypeError, ValueError):
        drawn = None
    if not isinstance(drawn, dict):
        raise ValidationError(
            {
                "expected": _(
                    "What the page was drawn from cannot be read (%(token)s): load the page again."
                )
                % {"token": str(expected)[:60]}
            }
        )
    return drawn


def check_entry(entry, expected) -> None:
    """Refuse (``Changed`` on «expected») an edit of the player ``entry`` (as he is now)
    from a page drawn before another change of his fields; ``None``: not compared."""
    if expected is None:
        return
    drawn = _drawn(expected)
    changed = [
        name for name in ENTRY_FIELDS if name in drawn and drawn[name] != getattr(entry, name)
    ]
    if not changed:
        return
    line = last_line(entry.event, "entries.change", after__entry=entry.pk)
    who, at = (line.login, line.at) if line is not None else ("", None)
    raise Changed(
        "expected",
        refusal(
            [
                change_line(
                    who,
                    at,
                    str(entry._meta.get_field(name).verbose_name),
                    drawn[name],
                    getattr(entry, name),
                )
                for name in changed
            ]
        ),
    )


def status_text(entry) -> str:
    """A withdrawal or a reinstatement asked again: the player is so already, since when and
    by whom (the log's latest line of his that made it so)."""
    line = last_line(
        entry.event, "entries.change", after__entry=entry.pk, after__status=entry.status
    )
    if entry.status == entry.Status.WITHDRAWN:
        text = _("%(name)s is withdrawn already") % {"name": entry.full_name}
    else:
        text = _("%(name)s is playing already") % {"name": entry.full_name}
    if line is None:
        return text + "."
    return _("%(state)s: %(who)s, %(when)s.") % {
        "state": text,
        "who": line.login or "—",
        "when": when(line.at),
    }
