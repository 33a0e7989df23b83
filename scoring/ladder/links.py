"""Links from an event's public standings to its players' pages on the owner's ladder
(docs/ladder.md «The ladder in the app»)."""

from __future__ import annotations

from django.urls import reverse

from scoring.models import LadderGrade


def ladder_links(event) -> dict[int, str]:
    """Event's player id → his page on the owner's ladder, for each player linked to a
    person graded there and not hidden. One query, whatever the number of players."""
    found = list(
        LadderGrade.objects.filter(
            ladder__owner_id=event.owner_id,
            person__hidden=False,
            person__merged_into__isnull=True,
            person__entries__event_id=event.pk,
        )
        .order_by()  # the grades' own order (by grade, by name) is not needed here
        .values_list("person__entries__pk", "person_id", "ladder__slug")
    )
    if not found:
        return {}
    base = reverse("ladder:ladder", args=[found[0][2]])
    return {entry: f"{base}{person}/" for entry, person, _slug in found}
