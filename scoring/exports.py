"""Standings, personal score cards and travellers as rows: for CSV files (UTF-8 with a BOM
and «;» between columns, so that Excel opens Cyrillic names intact) and for the API."""

from __future__ import annotations

import io

from django.http import HttpResponse
from django.utils.translation import gettext as _

from events.csvsafe import csv_safe_writer
from scoring import display
from scoring.standings import Card, EventStanding, StandingRow, Traveller


def csv_response(rows: list[list], filename: str) -> HttpResponse:
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv_safe_writer(out, delimiter=";", lineterminator="\r\n")  # no formulas
    writer.writerows(rows)
    response = HttpResponse(out.getvalue().encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def standing_rows(rows: list[StandingRow]) -> list[list]:
    table = [[_("Place"), _("No."), _("Player"), _("Club"), _("Total"), _("Deals"), _("Penalty")]]
    for row in rows:
        table.append(
            [
                row.rank if row.deals else "",
                row.number or "",
                row.name,
                row.clubs,
                "" if row.total is None else f"{float(row.total):.2f}",
                row.deals,
                display.number_text(row.penalty) if row.penalty else "",
            ]
        )
    return table


def event_standing_rows(found: EventStanding) -> list[list]:
    """The event standing (:func:`standing_rows`) with, for each session, his figure and his
    deals in that session's standing (empty: he did not play it)."""
    table = standing_rows(found.rows)
    for session in found.sessions:
        table[0] += [
            _("%(session)s: total") % {"session": session},
            _("%(session)s: deals") % {"session": session},
        ]
    for line, row in zip(table[1:], found.rows, strict=True):
        for session in found.sessions:
            part = found.of(row, session)
            if part is None or not part.deals:
                line += ["", part.deals if part else ""]
            else:
                line += [f"{float(part.total):.2f}", part.deals]
    return table


def card_rows(card: Card, method: str) -> list[list]:
    table = [
        [
            _("Session"),
            _("Round"),
            _("Table"),
            _("Position"),
            _("Deal"),
            _("Contract"),
            _("Defence"),
            _("Tricks"),
            _("His tricks"),
            _("Points"),
            _("Figure"),
            _("Artificial score"),
            _("Penalty"),
            _("Version"),
        ]
    ]
    for row in card.rows:
        if row.deal is None:
            table.append([row.session.number, row.round_number, "", "", "", _("pause")] + [""] * 8)
            continue
        result = row.sheet.current.result if row.sheet and row.sheet.current else None
        sheet = display.sheet_of(result)
        score = row.score
        table.append(
            [
                row.session.number,
                row.round_number,
                row.table_number,
                row.position,
                row.deal.code,
                _("sits out")
                if row.sits_out
                else _("still in play")
                if row.hidden
                else display.contract_text(sheet),
                "" if row.sits_out else display.defence_text(sheet),
                "" if row.sits_out else display.tricks_text(sheet),
                "" if row.sits_out else display.tricks_of(sheet, row.position),
                display.number_text(score.points) if score and score.points is not None else "",
                display.figure_text(score.net_num, score.net_den, method) if score else "",
                score.artificial if score else "",
                display.number_text(score.penalty) if score and score.penalty else "",
                row.version or 1,  # the version of the deal's cards (docs/game.md §2.7)
            ]
        )
    return table


def traveller_rows(
    traveller: Traveller, method: str, *, with_deal: bool = False, header: bool = True
) -> list[list]:
    positions = "WNES"  # every file has the same columns, whichever seats play the deal
    head = [_("Round"), _("Room"), _("Table"), "W", "N", "E", "S"]
    head += [_("Contract"), _("Defence"), _("Tricks")]
    for position in positions:
        head += [f"{_('Points')} {position}", f"{_('Figure')} {position}"]
    head += [_("Version")]  # of the deal's cards: a fouled deal is compared by version
    table = [([_("Deal")] if with_deal else []) + head] if header else []
    for row in traveller.rows:
        result = row.sheet.current.result if row.sheet and row.sheet.current else None
        sheet = display.sheet_of(result)
        # The room and each player's number: tables are numbered anew in every room.
        line = [row.play.round.number, str(row.play.table.room), row.play.table.number]
        line += [_player(row.players[p]) if p in row.players else "" for p in "WNES"]
        line += [
            display.contract_text(sheet),
            display.defence_text(sheet),
            display.tricks_text(sheet),
        ]
        for position in positions:
            score = row.scores.get(position)
            if score is None:
                line += ["", ""]
                continue
            shown = score.artificial or (
                display.number_text(score.points) if score.points is not None else ""
            )
            line += [shown, display.figure_text(score.net_num, score.net_den, method)]
        line += [row.version]
        table.append(([traveller.deal.code] if with_deal else []) + line)
    return table


def _player(entry) -> str:
    return f"{entry.number} {entry.full_name}" if entry.number else entry.full_name
