"""A substitution from a page drawn before another one (issue 34: directors at once).

The session page carries the id of the session's latest substitution it showed («0»: none);
:func:`check_substitution` refuses a substitution when one made since concerns the same
participant number or the same players, saying who made it, when and what it did."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _

from events import meanwhile
from events.models import Entry, Session, Substitution


def substitution_token(session: Session) -> str:
    """The id of the session's latest substitution, «0» for none."""
    latest = (
        Substitution.objects.filter(session=session)
        .order_by("-id")
        .values_list("pk", flat=True)
        .first()
    )
    return str(latest or 0)


def _seen(expected) -> int:
    text = str(expected).strip()
    if not (text.isascii() and text.isdigit()):
        raise ValidationError(
            {
                "expected": _(
                    "What the page was drawn from cannot be read (%(token)s): load the page again."
                )
                % {"token": text[:60]}
            }
        )
    return int(text)


def changes_since(session: Session, expected, players: list[Entry] | None) -> list[str]:
    """The substitutions of the session made after the one ``expected`` names that concern
    the participant numbers or the players of ``players`` (``None``: any): one line each."""
    found = Substitution.objects.filter(session=session, pk__gt=_seen(expected))
    if players is not None:
        numbers = [p.number for p in players if p.number is not None]
        ids = [p.pk for p in players]
        found = found.filter(Q(number__in=numbers) | Q(leaving__in=ids) | Q(arriving__in=ids))
    found = found.select_related("leaving", "arriving", "made_by").order_by("id")
    return [
        meanwhile.change_line(
            s.made_by.get_username() if s.made_by else "",
            s.made_at,
            _("participant %(number)d from round %(round)d")
            % {"number": s.number, "round": s.from_round},
            s.leaving.full_name,
            s.arriving.full_name,
        )
        for s in found
    ]


def check_substitution(session: Session, expected, players: list[Entry]) -> None:
    """Refuse (``Changed`` on «expected») a substitution from a page drawn before another
    one of these players or numbers; ``expected`` ``None``: not compared."""
    if expected is None:
        return
    changes = changes_since(session, expected, players)
    if changes:
        raise meanwhile.Changed("expected", meanwhile.refusal(changes))


def session_author(event, number: int) -> str:
    """« Created by alice at 10:02.»: who seated the session ``number`` (a second director's
    choice of a seating after it), or «» if nobody is known."""
    found = (
        Session.objects.filter(event=event, number=number)
        .select_related("created_by")
        .order_by()
        .first()
    )
    if found is None or found.created_by is None:
        return ""
    return " " + _("Created by %(who)s at %(when)s.") % {
        "who": found.created_by.get_username(),
        "when": meanwhile.when(found.created_at),
    }
