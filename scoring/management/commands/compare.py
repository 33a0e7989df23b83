"""``manage.py compare --json < results.json``: compare the results of one pocket of a deal.

``{"method": "matchpoints", "scores": [60, 30, 30, -50], "expected": 5}`` →
``{"matchpoints": [...], "percent": [...], "top": 8}`` in input order; methods ``points``,
``cross`` and ``standing`` return their own figures (see :mod:`scoring.compare`). A list of
requests gets a list of answers. Bad input prints ``{"errors": {field: rule}}`` to stdout and
exits with status 1. Without ``--json`` a readable summary is printed.
"""

from __future__ import annotations

from scoring.cli import JsonCommand
from scoring.compare import compare_json


def readable_comparison(answer: dict[str, object]) -> str:
    lines = []
    for name, values in answer.items():
        if name == "standing":
            lines.extend(
                f"{row['rank']:>6}  {row['player']}  {row['total']}  ({row['deals']})"
                for row in values
            )
        elif isinstance(values, list):
            lines.append(f"{name}: " + ", ".join(str(v) for v in values))
        else:
            lines.append(f"{name}: {values}")
    return "\n".join(lines)


class Command(JsonCommand):
    help = (
        "Compare results of the same pocket of a deal (matchpoints with Neuberg, points, "
        "cross) or build a standing: JSON on stdin (or in FILE)."
    )
    answer_one = compare_json

    def readable(self, answers, lang, many):
        return "\n\n".join(readable_comparison(a) for a in answers)
