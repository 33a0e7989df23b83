"""Standings, personal score cards and travellers as rows of typed cells, for the files a
director opens in a spreadsheet: CSV (UTF-8 with a BOM and «;» between columns, figures with
the page's decimal separator) and XLSX, both written by ``movements.spreadsheet`` from the
same rows. A cell's type says what it is: ``int`` a number, :class:`Fixed` a figure with two
decimals, text (a deal's label «1.1», a player's number with his name) anything else."""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _

from events.spreadsheet import KINDS, Fixed, file_response
from scoring import display
from scoring.standings import Card, EventStanding, StandingRow, Traveller

__all__ = [
    "KINDS",
    "Fixed",
    "card_rows",
    "event_standing_rows",
    "figure",
    "file_response",
    "score_figure",
    "standing_rows",
    "traveller_header",
    "traveller_rows",
]


def figure(value) -> int | Fixed | str:
    """A figure as :func:`scoring.display.number_text` shows it, typed: whole numbers plain,
    others with two decimals; nothing (None) an empty cell."""
    if value is None or value == "":
        return ""
    value = value if isinstance(value, Fraction) else Fraction(str(value))
    return value.numerator if value.denominator == 1 else Fixed(float(value))


def score_figure(num: int, den: int, method: str) -> int | Fixed | str:
    """A deal's figure (:func:`scoring.display.figure_text`): matchpoints always with two
    decimals, points and IMPs as :func:`figure`."""
    value = Fraction(num, den)
    return Fixed(float(value)) if method == "matchpoints" else figure(value)


def _total(value) -> Fixed | str:
    return "" if value is None else Fixed(float(value))


def _rank(rank: str) -> int | str:
    """«3» is a number; a shared place «3–4» stays text."""
    rank = str(rank)
    return int(rank) if rank.isdigit() else rank


def standing_rows(rows: list[StandingRow]) -> list[list]:
    table = [[_("Place"), _("No."), _("Player"), _("Club"), _("Total"), _("Deals"), _("Penalty")]]
    for row in rows:
        table.append(
            [
                _rank(row.rank) if row.deals else "",
                row.number or "",
                row.name,
                row.clubs,
                _total(row.total),
                row.deals,
                figure(row.penalty) if row.penalty else "",
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
                line += [_total(part.total), part.deals]
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
                "" if row.sits_out else _count(display.tricks_of(sheet, row.position)),
                figure(score.points) if score and score.points is not None else "",
                score_figure(score.net_num, score.net_den, method) if score else "",
                score.artificial if score else "",
                figure(score.penalty) if score and score.penalty else "",
                row.version or 1,  # the version of the deal's cards (docs/game.md §2.7)
            ]
        )
    return table


POSITIONS = "WNES"  # every traveller has the same columns, whichever seats play the deal


def traveller_header(*, with_deal: bool = False) -> list:
    head = [_("Deal")] if with_deal else []
    head += [_("Round"), _("Room"), _("Table"), *POSITIONS]
    head += [_("Contract"), _("Defence"), _("Tricks")]
    for position in POSITIONS:
        head += [f"{_('Points')} {position}", f"{_('Figure')} {position}"]
    head += [_("Version")]  # of the deal's cards: a fouled deal is compared by version
    return head


def traveller_rows(
    traveller: Traveller, method: str, *, with_deal: bool = False, header: bool = True
) -> list[list]:
    table = [traveller_header(with_deal=with_deal)] if header else []
    for row in traveller.rows:
        result = row.sheet.current.result if row.sheet and row.sheet.current else None
        sheet = display.sheet_of(result)
        # The room and each player's number: tables are numbered anew in every room.
        line = [row.play.round.number, str(row.play.table.room), row.play.table.number]
        line += [_player(row.players[p]) if p in row.players else "" for p in POSITIONS]
        line += [
            display.contract_text(sheet),
            display.defence_text(sheet),
            display.tricks_text(sheet),
        ]
        for position in POSITIONS:
            score = row.scores.get(position)
            if score is None:
                line += ["", ""]
                continue
            shown = score.artificial or (figure(score.points) if score.points is not None else "")
            line += [shown, score_figure(score.net_num, score.net_den, method)]
        line += [row.version]
        table.append(([traveller.deal.code] if with_deal else []) + line)
    return table


def _count(text: str) -> int | str:
    return int(text) if text.isdigit() else text


def _player(entry) -> str:
    """«7 Иванов Игорь»: text, for a spreadsheet as for a page."""
    return f"{entry.number} {entry.full_name}" if entry.number else entry.full_name
