"""``manage.py ladder replay --json < sessions.json``: the club ladder's grades
(``pct_grade_v1``, :mod:`scoring.ladder`) replayed from scratch over the sessions given.

In: ``{"params": {…} (optional), "sessions": [{"id", "date", "tables", "players": [{"person",
"percent", "deals"}, …]}, …]}``; out: ``{"grades", "deals", "history"}`` at full precision.
A bad request prints ``{"errors": {field: rule}}`` to stdout and exits with status 1 —
never a traceback. ``ladder`` alone, or ``ladder replay`` without ``--json``, is a usage
error. See docs/ladder.md.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from scoring.cli import dump_json, read_input
from scoring.ladder import answer_json_text


class Command(BaseCommand):
    help = (
        "The club ladder: `ladder replay --json < sessions.json` recomputes every grade "
        "(pct_grade_v1) from the sessions given."
    )
    # A pure computation: the project's checks (URLs, models) are not needed to answer.
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", metavar="{replay}", required=True)
        replay = actions.add_parser(
            "replay",
            help="recompute the grades from sessions in JSON (stdin or FILE)",
            description="Replay a ladder's sessions (JSON on stdin or in FILE) and print "
            "every grade, rated deals and the history as JSON.",
        )
        replay.add_argument("file", nargs="?", help="read the JSON from this file, not stdin")
        replay.add_argument(
            "--json", action="store_true", help="answer in JSON (the machine contract)"
        )
        replay.add_argument(
            "--lang", choices=["ru", "en"], default="ru", help="language of error messages"
        )
        self._replay_parser = replay

    def handle(self, *args, **options):
        if not options["json"]:
            self._replay_parser.error(
                "the replay answers in JSON only: `ladder replay --json < sessions.json`"
            )
        ok, answer = answer_json_text(read_input(options["file"]), options["lang"])
        self.stdout.write(dump_json(answer, self.stdout))
        if not ok:
            raise CommandError("the input breaks the rules: see the errors above", returncode=1)
