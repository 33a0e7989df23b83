"""``manage.py settle --json < deal.json``: settle one deal (an object) or several (a list).

The answer per deal is ``{"scores": {...}, "failed": [...]}`` plus ``"pot_after"`` for a
running pot. A bad deal or bad JSON prints ``{"errors": {field: rule}}`` to stdout and exits
with status 1 — never a traceback. Without ``--json`` a readable summary is printed.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from scoring.rules import answer_json_text, settle_json


def read_input(path: str | None) -> str:
    """The request text from ``path`` or stdin; bytes that are not UTF-8 become U+FFFD and
    are then refused by the rules like any other bad value."""
    if path is None or path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        raw = stream.read() if stream is not None else sys.stdin.read()
    else:
        try:
            with open(path, "rb") as source:
                raw = source.read()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
    return raw.decode("utf-8-sig", errors="replace") if isinstance(raw, bytes) else raw


def dump_json(answer: object, stream) -> str:
    """JSON text; Cyrillic kept as is when the output can carry it."""
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    return json.dumps(answer, ensure_ascii=encoding not in ("utf8", "utf16", "utf32"))


def readable_errors(errors: dict[str, str]) -> str:
    return "\n".join(f"{field}: {text}" for field, text in errors.items())


def _signed(value: object) -> str:
    return f"+{value}" if isinstance(value, (int, float)) and value > 0 else str(value)


def readable_settlement(answer: dict[str, object], lang: str) -> str:
    ru = lang != "en"
    parts = ["  ".join(f"{seat} {_signed(v)}" for seat, v in answer["scores"].items())]
    if answer["failed"]:
        label = "не выполнили" if ru else "failed"
        parts.append(f"{label}: {', '.join(answer['failed'])}")
    if "pot_after" in answer:
        label = "котёл после сдачи" if ru else "pot after the deal"
        parts.append(f"{label}: {answer['pot_after']}")
    return " | ".join(parts)


class Command(BaseCommand):
    help = (
        "Settle Preference deals: a JSON deal or a list of deals on stdin (or in FILE) → "
        "scores, failed obligations and the running pot."
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
        ok, answer = answer_json_text(read_input(options["file"]), settle_json, options["lang"])
        if options["json"]:
            self.stdout.write(dump_json(answer, self.stdout))
        elif not ok:
            self.stdout.write(readable_errors(answer["errors"]))
        else:
            answers = answer if isinstance(answer, list) else [answer]
            for i, one in enumerate(answers, start=1):
                prefix = f"{i}. " if isinstance(answer, list) else ""
                self.stdout.write(prefix + readable_settlement(one, options["lang"]))
        if not ok:
            raise CommandError("the input breaks the rules: see the errors above", returncode=1)
