"""``manage.py compare --json < results.json``: compare the results of one pocket of a deal.

``{"method": "matchpoints", "scores": [60, 30, 30, -50], "expected": 5}`` →
``{"matchpoints": [...], "percent": [...], "top": 8}`` in input order; methods ``points``,
``cross`` and ``standing`` return their own figures (see :mod:`scoring.compare`). A list of
requests gets a list of answers. Bad input prints ``{"errors": {field: rule}}`` to stdout and
exits with status 1. Without ``--json`` a readable summary is printed.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from scoring.compare import compare_json
from scoring.management.commands.settle import dump_json, read_input, readable_errors
from scoring.rules import answer_json_text


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


class Command(BaseCommand):
    help = (
        "Compare results of the same pocket of a deal (matchpoints with Neuberg, points, "
        "cross) or build a standing: JSON on stdin (or in FILE)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="read the JSON from this file, not stdin")
        parser.add_argument(
            "--json", action="store_true", help="answer in JSON (the machine contract)"
        )
        parser.add_argument(
            "--lang", choices=["ru", "en"], default="ru", help="language of error messages"
        )

    def handle(self, *args, **options):
        ok, answer = answer_json_text(read_input(options["file"]), compare_json, options["lang"])
        if options["json"]:
            self.stdout.write(dump_json(answer, self.stdout))
        elif not ok:
            self.stdout.write(readable_errors(answer["errors"]))
        else:
            answers = answer if isinstance(answer, list) else [answer]
            self.stdout.write("\n\n".join(readable_comparison(a) for a in answers))
        if not ok:
            raise CommandError("the input breaks the rules: see the errors above", returncode=1)
