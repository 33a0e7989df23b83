"""Reading JSON values both games' readers (and the comparison's) take alike: a bad value
as the user typed it for a message, an exact amount, a whole number; and a JSON text of one
request or a list of them answered by a handler (the ``settle`` and ``compare`` commands).

Part of the games' pure kernel ``scoring.games.common``: imports nothing from Django."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from scoring.games.common.messages import InvalidInput, Problems


def shown(value: object) -> str:
    """A bad input value as the user typed it, for a message."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)


def parse_amount(value: object) -> Fraction | None:
    """A JSON number (or numeric string) as an exact Fraction; None if it is not one."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        return None
    try:
        parsed = value if isinstance(value, Decimal) else Decimal(str(value).strip())
    except InvalidOperation:
        return None
    # Amounts are money: a huge exponent would only make Fraction slow (10**10**8).
    if not parsed.is_finite() or parsed.adjusted() > 15:
        return None
    if parsed and parsed.normalize().as_tuple().exponent < -15:
        return None
    return Fraction(parsed)


def parse_whole(value: object) -> int | None:
    """A JSON whole number (6 or 6.0); None otherwise (booleans are not numbers)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, Decimal) and value.is_finite() and value.adjusted() <= 15:
        return int(value) if value == value.to_integral_value() else None
    return None


def answer_json_text(
    text: str, handle: Callable[[object], dict[str, object]], lang: str = "ru"
) -> tuple[bool, object]:
    """Answer a JSON text holding one request (an object) or a list of them.

    Returns (ok, answer): the answer (a list for a list) or ``{"errors": {field: text}}``;
    in a list, field names are prefixed with the request's index (``0.tricks``). Never
    raises on bad input.
    """
    problems = Problems()
    if not text.strip():
        problems.add("json", "empty")
        return False, {"errors": problems.render(lang)}
    try:
        data = json.loads(text, parse_float=Decimal)
    except (ValueError, RecursionError) as error:
        problems.add("json", "json", detail=str(error))
        return False, {"errors": problems.render(lang)}
    if isinstance(data, list):
        answers = []
        for i, item in enumerate(data):
            try:
                answers.append(handle(item))
            except InvalidInput as error:
                problems.merge(error.problems, prefix=f"{i}.")
        if problems:
            return False, {"errors": problems.render(lang)}
        return True, answers
    try:
        return True, handle(data)
    except InvalidInput as error:
        return False, {"errors": error.render(lang)}


__all__ = ["answer_json_text", "parse_amount", "parse_whole", "shown"]
