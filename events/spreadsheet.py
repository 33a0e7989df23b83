"""Spreadsheet files — CSV and XLSX — written from one list of typed rows.

The rows are built once, by whoever knows the data (``scoring.standings.exports`` for the results,
``movements.cards`` for the session's grid and cards); each cell's Python type says what it
is, and both writers read it the same way:

- ``int`` is a number (a round, a table, a player's number, a count of deals);
- :class:`Fixed` is a figure with a fixed number of decimals (a percentage, points): an
  XLSX number cell with the format ``0.00``; in a CSV ``77.50`` in English and ``77,50`` in
  Russian, the decimal separator of the page's language, so that a Russian-locale spreadsheet
  reads it as a number;
- anything else (``str``, a lazy translation, a room) is text: a deal's label «1.1» or
  «11.3», a player's number with his name. In XLSX a text cell is a string cell, never a
  number, a date or a formula; in a CSV it passes ``events.csvsafe`` (formula-like text gets
  a leading «'»). ``None`` and ``""`` are empty cells.

The first row is the header (bold and frozen in XLSX). The module lives in the lowest layer,
beside ``events.csvsafe``, so that the movement files and the results files share it.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse
from django.urls import path
from django.utils import formats
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from events.csvsafe import FORMULA_STARTS, csv_safe_writer

KINDS = ("csv", "xlsx")
CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
BOM = "\ufeff"  # so that Excel reads UTF-8 (Cyrillic names) without asking
DELIMITER = ";"  # Excel in a Russian locale splits on «;», not on «,»
TEXT_FORMAT = "@"  # a text cell stays text when someone edits it in Excel
MAX_TEXT = 32767  # Excel's limit for one cell
MIN_WIDTH, MAX_WIDTH = 4, 60
SHEET_TITLE_BAD = str.maketrans({c: " " for c in "[]:*?/\\"})


@dataclass(frozen=True)
class Fixed:
    """A number shown with ``places`` decimals (a percentage, points)."""

    value: float
    places: int = 2

    def text(self, separator: str = ".") -> str:
        return f"{self.value:.{self.places}f}".replace(".", separator)

    @property
    def number_format(self) -> str:
        return "0." + "0" * self.places if self.places else "0"


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


# --- CSV ------------------------------------------------------------------------------------


def csv_text(rows: Iterable[Sequence[Any]]) -> str:
    """UTF-8 text with a BOM and «;» between columns; figures with the decimal separator of
    the current language («77,50» in Russian)."""
    separator = formats.get_format("DECIMAL_SEPARATOR")
    out = io.StringIO()
    out.write(BOM)
    writer = csv_safe_writer(out, delimiter=DELIMITER, lineterminator="\r\n")  # no formulas
    for row in rows:
        writer.writerow(
            [value.text(separator) if isinstance(value, Fixed) else value for value in row]
        )
    return out.getvalue()


# --- XLSX -----------------------------------------------------------------------------------


def _text(value: Any) -> str:
    return ILLEGAL_CHARACTERS_RE.sub("", str(value))[:MAX_TEXT]


def _put(cell, value: Any) -> str:
    """Write ``value`` into ``cell`` as its type says; return how it reads (for the width)."""
    if value is None or value == "":
        return ""
    if isinstance(value, Fixed):
        cell.value = value.value
        cell.number_format = value.number_format
        return value.text()
    if _is_number(value):
        cell.value = value
        return str(value)
    text = _text(value)
    cell.value = text
    # openpyxl takes a string that starts with «=» for a formula: a name like
    # «=HYPERLINK(…)» must stay the text it is.
    cell.data_type = "s"
    cell.number_format = TEXT_FORMAT
    if text.startswith(FORMULA_STARTS):
        cell.quotePrefix = True  # and stays text if someone edits the cell
    return text


def sheet_title(title: str) -> str:
    """A worksheet's name as Excel allows it: at most 31 characters, none of []:*?/\\."""
    return " ".join(_text(title).translate(SHEET_TITLE_BAD).split())[:31].strip() or "Sheet"


def xlsx_bytes(rows: Iterable[Sequence[Any]], title: str) -> bytes:
    """One worksheet named ``title``: the first row a bold, frozen header; numbers as numbers,
    text as text, no formula; each column as wide as its longest cell (within bounds)."""
    book = Workbook()
    sheet = book.active
    sheet.title = sheet_title(title)
    widths: dict[int, int] = {}
    bold = Font(bold=True)
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            cell = sheet.cell(row=r, column=c)
            shown = _put(cell, value)
            if r == 1:
                cell.font = bold
            widths[c] = max(widths.get(c, 0), len(shown))
    for c, width in widths.items():
        sheet.column_dimensions[get_column_letter(c)].width = min(
            max(width + 2, MIN_WIDTH), MAX_WIDTH
        )
    sheet.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# --- the answer -----------------------------------------------------------------------------


def file_response(kind: str, rows: Sequence[Sequence[Any]], name: str, title: str) -> HttpResponse:
    """The rows as a download: ``name.csv`` or ``name.xlsx`` (its sheet named ``title``)."""
    if kind == "xlsx":
        body = xlsx_bytes(rows, title)
    elif kind == "csv":
        body = csv_text(rows).encode("utf-8")
    else:
        raise ValueError(f"unknown spreadsheet kind {kind!r}")
    response = HttpResponse(body, content_type=CONTENT_TYPES[kind])
    response["Content-Disposition"] = f'attachment; filename="{name}.{kind}"'
    return response


def file_paths(route: str, view, name: str) -> list:
    """The URLs of one file: ``route.csv`` and ``route.xlsx``, named ``name_csv`` and
    ``name_xlsx``, both served by ``view`` with ``kind`` — one view, so one set of rows and
    one access rule for the two."""
    return [path(f"{route}.{kind}", view, {"kind": kind}, name=f"{name}_{kind}") for kind in KINDS]
