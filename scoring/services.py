"""Writes of the scoring side: sheets, and what the round's end marks."""

from django.db.models import Count

from scoring.models import TablePlay


def late_tables_mark(rnd) -> list[int]:
    """At «Конец тура!»: mark the tables that have not recorded every deal of their set."""
    plays = (
        TablePlay.objects.filter(round=rnd)
        .select_related("board_set", "table")
        .annotate(recorded=Count("sheets"))
    )
    late = [p for p in plays if p.recorded < p.board_set.players]
    TablePlay.objects.filter(pk__in=[p.pk for p in late]).update(late=True)
    return sorted(p.table.number for p in late)
