"""How a score sheet and a figure read on a page or in a CSV file, in the user's language.

A sheet's words are its game's (``scoring.games``: ``of_result`` a stored result, or
``sheets_of`` an event), which are its pure core's, so a page says «три ♦» or «6♠» exactly
as the error messages do; the ``result_`` functions read any game's stored result.
"""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _

from scoring import games
from scoring.games.sheets import SheetGame
from scoring.models import ScoreSheet


def sheet_of(result: dict | None) -> dict | None:
    """The normalised sheet stored with a settlement."""
    return (result or {}).get("sheet") if result else None


def game_of(result: dict | None) -> SheetGame:
    """The sheets adapter of the game whose result ``result`` is (``scoring.games``)."""
    return games.of_result(result).sheets


# --- any game's stored result ------------------------------------------------------------


def result_contract(result: dict | None) -> str:
    """«N: три ♦», «N: 6♠», «распасы»."""
    return game_of(result).contract_text(sheet_of(result))


def result_defence(result: dict | None, order: str = "") -> str:
    """«E вист · S полвиста», round the table (``order``: another order of seats)."""
    return game_of(result).defence_text(sheet_of(result), order)


def result_tricks(result: dict | None, order: str = "") -> str:
    """«N 6 · E 3 · S 1», round the table."""
    return game_of(result).tricks_text(sheet_of(result), order)


def result_tricks_of(result: dict | None, position: str) -> str:
    return game_of(result).tricks_of(sheet_of(result), position)


def figure_cell(value) -> str:
    """One of the figures a seat writes (``SheetGame.seat_figures``) on a page: a number as
    :func:`number_text`, a text as it is («—» for none written), nothing for no seat."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value or "—"
    return number_text(value)


def seat_figures(result: dict | None, position: str) -> list[str]:
    """What ``position`` writes on the deal besides his tricks and score (пуля, гора, висты
    in the Russian game; nothing in the Austrian one), each as a page shows it."""
    return [figure_cell(v) for v in game_of(result).seat_figures(result, position)]


# --- the Austrian game's words (the callers of before there was a choice of game) ---------


def number_text(value, places: int = 2) -> str:
    """A figure for people: whole numbers plain, others with ``places`` decimals."""
    if value is None or value == "":
        return "—"
    value = Fraction(str(value)) if not isinstance(value, Fraction) else value
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.{places}f}"


def figure_text(num: int, den: int, method: str) -> str:
    value = Fraction(num, den)
    if method == "matchpoints":
        return f"{float(value):.2f}"
    return number_text(value)


def figure_unit(method: str) -> str:
    return {"matchpoints": "%", "points": _("points"), "cross": _("IMPs")}.get(method, "")


def status_text(status: str) -> str:
    try:
        return str(ScoreSheet.Status(status).label)
    except ValueError:
        return status


def actor_text(version) -> str:
    if version.entered_by_entry_id:
        return version.entered_by_entry.full_name
    if version.entered_by_user_id:
        return _("director %(name)s") % {"name": version.entered_by_user.get_username()}
    return "—"


def entered_text(event, data) -> str | None:
    """A sheet's data as entered (a log line's «было → стало», ``events.actionlog.READERS``)
    in its game's words: «N: три ♦ · E вист · S пас · взятки: N 7 · E 3»; ``None`` for data
    its game cannot read (the log then shows it as stored)."""
    if not isinstance(data, dict) or "contract" not in data:
        return None
    game = games.sheets_of(event)
    try:
        parts = [game.contract_text(data), game.defence_text(data)]
        tricks = game.tricks_text(data)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None
    if tricks:
        parts.append(_("tricks: %(tricks)s") % {"tricks": tricks})
    return " · ".join(p for p in parts if p) or None
