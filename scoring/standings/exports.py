"""Standings, personal score cards and travellers as rows of typed cells, for the files a
director opens in a spreadsheet: CSV (UTF-8 with a BOM and «;» between columns, figures with
the page's decimal separator) and XLSX, both written by ``movements.spreadsheet`` from the
same rows. A cell's type says what it is: ``int`` a number, :class:`Fixed` a figure with two
decimals, text (a deal's label «1.1», a player's number with his name) anything else.

The words and the columns of a result are its game's (``scoring.games``): a Russian
event's card and travellers carry what each seat writes (пуля, гора, висты) and name his
score the balance, and its files' header ends with the game's line (:func:`with_game`);
an Austrian event's files are exactly what they were before there was a choice of game."""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _

from events.boards import TABLE_ORDER
from events.spreadsheet import KINDS, Fixed, file_response
from scoring import games
from scoring.games.sheets import SheetGame
from scoring.sheets import display
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
    "with_game",
]


def figure(value) -> int | Fixed | str:
    """A figure as :func:`scoring.sheets.display.number_text` shows it, typed: whole numbers plain,
    others with two decimals; nothing (None) an empty cell."""
    if value is None or value == "":
        return ""
    value = value if isinstance(value, Fraction) else Fraction(str(value))
    return value.numerator if value.denominator == 1 else Fixed(float(value))


def score_figure(num: int, den: int, method: str) -> int | Fixed | str:
    """A deal's figure (:func:`scoring.sheets.display.figure_text`): matchpoints always with two
    decimals, points and IMPs as :func:`figure`."""
    value = Fraction(num, den)
    return Fixed(float(value)) if method == "matchpoints" else figure(value)


def with_game(event, rows: list[list]) -> list[list]:
    """The file's rows with its header naming the event's game at its end (the Russian
    game's line; nothing is added for the Austrian game)."""
    heads = games.sheets_of(event).file_heads(event)
    if rows and heads:
        rows[0] = [*rows[0], *heads]
    return rows


def _figure_cells(game: SheetGame, result: dict | None, position: str) -> list:
    """What ``position`` writes besides tricks and score (``SheetGame.seat_figures``),
    typed: numbers as :func:`figure`, texts as they are, nothing empty."""
    if result is None:
        return [""] * len(game.figure_heads())
    cells = []
    for value in game.seat_figures(result, position):
        cells.append("" if value is None else value if isinstance(value, str) else figure(value))
    return cells


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


def card_rows(card: Card, method: str, game: SheetGame) -> list[list]:
    heads = game.figure_heads()
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
            *heads,
            game.score_head(),
            _("Figure"),
            _("Artificial score"),
            _("Penalty"),
            _("Version"),
        ]
    ]
    for row in card.rows:
        if row.deal is None:
            blank = [""] * (8 + len(heads))
            table.append([row.session.number, row.round_number, "", "", "", _("pause")] + blank)
            continue
        result = row.sheet.current.result if row.sheet and row.sheet.current else None
        shown = None if row.sits_out or row.hidden else result
        sheet = display.sheet_of(result)
        words = games.of_result(result).sheets
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
                else words.contract_text(sheet),
                "" if row.sits_out else words.defence_text(sheet),
                "" if row.sits_out else words.tricks_text(sheet),
                "" if row.sits_out else _count(words.tricks_of(sheet, row.position)),
                *_figure_cells(game, shown, row.position),
                figure(score.points) if score and score.points is not None else "",
                score_figure(score.net_num, score.net_den, method) if score else "",
                score.artificial if score else "",
                figure(score.penalty) if score and score.penalty else "",
                row.version or 1,  # the version of the deal's cards (docs/game.md §2.7)
            ]
        )
    return table


#: Every traveller has the same columns, whichever seats play the deal: round the table.
POSITIONS = TABLE_ORDER


def traveller_header(*, game: SheetGame, with_deal: bool = False) -> list:
    head = [_("Deal")] if with_deal else []
    head += [_("Round"), _("Room"), _("Table"), *POSITIONS]
    head += [_("Contract"), _("Defence"), _("Tricks")]
    for position in POSITIONS:
        head += [f"{name} {position}" for name in game.figure_heads()]
        head += [f"{game.score_head()} {position}", f"{_('Figure')} {position}"]
    head += [_("Version")]  # of the deal's cards: a fouled deal is compared by version
    return head


def traveller_rows(
    traveller: Traveller,
    method: str,
    *,
    with_deal: bool = False,
    header: bool = True,
    game: SheetGame,
) -> list[list]:
    table = [traveller_header(with_deal=with_deal, game=game)] if header else []
    for row in traveller.rows:
        result = row.sheet.current.result if row.sheet and row.sheet.current else None
        sheet = display.sheet_of(result)
        words = games.of_result(result).sheets
        # The room and each player's number: tables are numbered anew in every room.
        line = [row.play.round.number, str(row.play.table.room), row.play.table.number]
        line += [_player(row.players[p]) if p in row.players else "" for p in POSITIONS]
        line += [words.contract_text(sheet), words.defence_text(sheet), words.tricks_text(sheet)]
        for position in POSITIONS:
            line += _figure_cells(game, result, position)
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
