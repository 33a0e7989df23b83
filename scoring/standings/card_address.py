"""A player's public score card is addressed by his participant number, never by a database
id: ``/e/<slug>/results/cards/7/``. A number can have had more than one holder (a substitute
takes it over; the replaced player keeps it for the record, ``events.models.Entry``): the
first holder is «7», the next ones «7-2», «7-3» in the order they were entered, which never
changes once they have played. The old addresses by id (``/results/players/<id>/``) lead to
the new one."""

from __future__ import annotations

import re
from collections import Counter

from events.models import Entry

#: «7» or «7-2»: a participant number and, for a later holder of it, his rank among them.
REF = r"[1-9][0-9]{0,6}(?:-(?:[2-9]|[1-9][0-9]{1,2}))?"


class CardRefConverter:
    """The path converter of a card's address (``<card:ref>``)."""

    regex = REF

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value) -> str:
        return str(value)


def card_refs(event) -> dict[int, str]:
    """Entry id → the address part of his card, for every numbered player of ``event`` (one
    query)."""
    refs: dict[int, str] = {}
    seen: Counter[int] = Counter()
    for pk, number in (
        Entry.objects.filter(event=event, number__isnull=False)
        .order_by("number", "pk")
        .values_list("pk", "number")
    ):
        seen[number] += 1
        refs[pk] = str(number) if seen[number] == 1 else f"{number}-{seen[number]}"
    return refs


def entry_by_ref(event, ref: str) -> Entry | None:
    """The player whose card ``ref`` addresses, or None."""
    match = re.fullmatch(r"(\d+)(?:-(\d+))?", str(ref))
    if match is None:
        return None
    number, rank = int(match.group(1)), int(match.group(2) or 1)
    holders = list(event.entries.filter(number=number).order_by("pk")[: rank + 1])
    return holders[rank - 1] if len(holders) >= rank else None
