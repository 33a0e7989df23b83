"""How a score sheet and a figure read on a page or in a CSV file, in the user's language.

The words are the pure core's (``rules.word``), so a page says «три ♦» exactly as the error
messages do.
"""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _

from scoring import rules
from scoring.models import ScoreSheet
from scoring.services import lang

SUIT_SYMBOLS = {"spades": "♠", "clubs": "♣", "diamonds": "♦", "hearts": "♥"}


def word(value: str | None) -> str:
    """A contract, suit, decision or bid value («three», «whist») as a word of the language."""
    if not value:
        return ""
    for kind in (rules.Contract, rules.Defence, rules.Suit, rules.Bid):
        try:
            return rules.word(kind(value), lang())
        except ValueError:
            continue
    return str(value)


def suit(value: str | None) -> str:
    return SUIT_SYMBOLS.get(value or "", "")


def sheet_of(result: dict | None) -> dict | None:
    """The normalised sheet stored with a settlement."""
    return (result or {}).get("sheet") if result else None


def contract_text(sheet: dict | None) -> str:
    """«N: три ♦», «S: червы», «распас»."""
    if not sheet:
        return ""
    if sheet.get("contract") == "passed":
        return word("passed")
    contract = sheet.get("contract")
    symbol = "" if contract == "hearts" else f" {suit(sheet.get('trump'))}"
    return f"{sheet.get('declarer')}: {word(contract)}{symbol}"


def defence_text(sheet: dict | None) -> str:
    """«E вист · S пас»."""
    if not sheet or not sheet.get("defenders"):
        return ""
    return " · ".join(f"{seat} {word(d)}" for seat, d in sheet["defenders"].items())


def tricks_text(sheet: dict | None) -> str:
    """«N 6 · E 4 · S 0»."""
    if not sheet or not sheet.get("tricks"):
        return ""
    return " · ".join(f"{seat} {n}" for seat, n in sheet["tricks"].items())


def tricks_of(sheet: dict | None, position: str) -> str:
    if not sheet or sheet.get("contract") == "passed":
        return ""
    value = (sheet.get("tricks") or {}).get(position)
    return "" if value is None else str(value)


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
