"""What the ``settle`` and ``compare`` commands share: JSON in (stdin or a file), JSON or a
readable summary out, errors as ``{"errors": {field: rule}}`` and a non-zero exit."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

from django.core.management.base import BaseCommand, CommandError

from scoring.games.common.json_io import answer_json_text


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


class JsonCommand(BaseCommand):
    """Subclasses name the pure function that answers a request (``answer_one``) and word
    a readable summary of the answers (``readable(answers, lang, many)``)."""

    answer_one: Callable[[object], dict]

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="read the JSON from this file, not stdin")
        parser.add_argument(
            "--json", action="store_true", help="answer in JSON (the machine contract)"
        )
        parser.add_argument(
            "--lang", choices=["ru", "en"], default="ru", help="language of error messages"
        )

    def answer(self, text: str, lang: str) -> tuple[bool, object]:
        """(ok, the answer or ``{"errors": …}``) for the request ``text``."""
        return answer_json_text(text, type(self).answer_one, lang)

    def handle(self, *args, **options):
        ok, answer = self.answer(read_input(options["file"]), options["lang"])
        if options["json"]:
            self.stdout.write(dump_json(answer, self.stdout))
        elif not ok:
            self.stdout.write(readable_errors(answer["errors"]))
        else:
            many = isinstance(answer, list)
            self.stdout.write(self.readable(answer if many else [answer], options["lang"], many))
        if not ok:
            raise CommandError("the input breaks the rules: see the errors above", returncode=1)
