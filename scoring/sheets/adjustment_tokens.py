"""What an adjustments page was drawn from (issue 34: directors working at once).

A page that gives or deletes an adjustment carries the ids of the adjustments it showed —
one table-round's (its page) or the event's (the adjustments page) — as a token,
«12.15.18» («-»: none). An adjustment is never edited, only given and deleted, so its id
says all of it. On submit the service compares the table-round's adjustments of now with
the token (:func:`check_adjustments`, under the table-round's lock): one given since, or one
of those shown deleted since, refuses the write with who did it, when, and old → new.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _

from events import meanwhile
from events.models import ActionLog
from scoring.models import Adjustment, TablePlay

#: The token of «no adjustment».
NONE = "-"

#: The log's kinds of an adjustment given or deleted.
KINDS = ("adjust.set", "penalty.set")


def token_of(ids: Iterable[int]) -> str:
    """The token of these adjustments' ids: sorted, joined by dots; «-» for none."""
    ids = sorted(set(ids))
    return ".".join(str(i) for i in ids) if ids else NONE


def play_token(play: TablePlay) -> str:
    """The token of one table-round's adjustments (its page)."""
    return token_of(Adjustment.objects.filter(play=play).values_list("pk", flat=True))


def event_token(event) -> str:
    """The token of the event's adjustments (the adjustments page)."""
    return token_of(
        Adjustment.objects.filter(play__round__room__session__event=event).values_list(
            "pk", flat=True
        )
    )


def parse(expected) -> set[int]:
    """The ids a token (or a list of ids, from the API) names; ``Changed`` if unreadable."""
    if isinstance(expected, str):
        text = expected.strip()
        if text in ("", NONE):
            return set()
        parts = text.split(".")
    else:
        parts = list(expected)
    ids = set()
    for part in parts:
        text = str(part).strip()
        if isinstance(part, bool) or not (text.isascii() and text.isdigit()):
            raise ValidationError(
                {
                    "expected": _(
                        "What the page was drawn from cannot be read (%(token)s): load the "
                        "page again."
                    )
                    % {"token": str(expected)[:60]}
                }
            )
        ids.add(int(text))
    return ids


def _value(kind: str, score: str, penalty) -> str:
    if kind == Adjustment.Kind.ARTIFICIAL:
        return (score or "").replace("-", "−")
    return f"−{penalty}" if penalty not in (None, "") else "—"


def _what(name: str, deal_code) -> str:
    if deal_code:
        return _("%(name)s, deal %(deal)s") % {"name": name, "deal": deal_code}
    return _("%(name)s, whole round") % {"name": name}


def changes_since(play: TablePlay, expected) -> list[str]:
    """The table-round's adjustments given, and those shown deleted, since the page of
    token ``expected`` was drawn: one line each, oldest first."""
    seen = parse(expected)
    now = {
        a.pk: a
        for a in Adjustment.objects.filter(play=play).select_related(
            "entry", "deal__board_set", "created_by"
        )
    }
    found: list[tuple] = []
    for adjustment in now.values():
        if adjustment.pk not in seen:
            who = adjustment.created_by.get_username() if adjustment.created_by else ""
            found.append(
                (
                    adjustment.created_at,
                    meanwhile.change_line(
                        who,
                        adjustment.created_at,
                        _what(
                            adjustment.entry.full_name,
                            adjustment.deal.code if adjustment.deal else None,
                        ),
                        None,
                        _value(adjustment.kind, adjustment.score, adjustment.penalty),
                    ),
                )
            )
    gone = seen - set(now)
    if gone:
        # Those still there are another table-round's (a token of the whole event).
        gone -= set(Adjustment.objects.filter(pk__in=gone).values_list("pk", flat=True))
    if gone:
        lines = ActionLog.objects.filter(
            event_id=play.round.room.session.event_id,
            kind__in=KINDS,
            before__adjustment__in=sorted(gone),
        ).filter(
            Q(before__play=play.pk)
            | Q(before__play__isnull=True, room=play.round.room.number, table=play.table.number)
        )
        for line in lines.order_by("at", "id"):
            before = line.before or {}
            if "play" not in before and before.get("round") != play.round.number:
                continue
            kind = (
                Adjustment.Kind.ARTIFICIAL if line.kind == "adjust.set" else Adjustment.Kind.PENALTY
            )
            found.append(
                (
                    line.at,
                    meanwhile.change_line(
                        line.login,
                        line.at,
                        _what(before.get("name") or "—", before.get("deal")),
                        _value(kind, before.get("score") or "", before.get("penalty")),
                        None,
                    ),
                )
            )
    found.sort(key=lambda item: item[0])
    return [text for _at, text in found]


def check_adjustments(play: TablePlay, expected) -> None:
    """Refuse (``Changed`` on «expected») a write from a page drawn before another change
    of this table-round's adjustments; ``expected`` ``None``: not compared."""
    if expected is None:
        return
    changes = changes_since(play, expected)
    if changes:
        raise meanwhile.Changed(
            "expected",
            _("Table %(table)d, round %(round)d. %(refusal)s")
            % {
                "table": play.table.number,
                "round": play.round.number,
                "refusal": meanwhile.refusal(changes),
            },
        )
