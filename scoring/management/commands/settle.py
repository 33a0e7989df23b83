"""``manage.py settle --json < deal.json``: settle one deal (an object) or several (a list),
each by its game (``scoring.games``: the Austrian one unless ``rules.game`` names another).

The answer per deal is ``{"scores": {...}, "failed": [...]}`` plus ``"pot_after"`` for a
running pot (the Austrian game), or ``{"scores", "pool", "mountain", "whists", "failed"}``
(the Russian one). A bad deal or bad JSON prints ``{"errors": {field: rule}}`` to stdout and
exits with status 1 — never a traceback. Without ``--json`` a readable summary is printed.
"""

from __future__ import annotations

from scoring.cli import JsonCommand
from scoring.games import settle_json


def _signed(value: object) -> str:
    return f"+{value}" if isinstance(value, (int, float)) and value > 0 else str(value)


def readable_settlement(answer: dict[str, object], lang: str) -> str:
    ru = lang != "en"
    parts = ["  ".join(f"{seat} {_signed(v)}" for seat, v in answer["scores"].items())]
    if answer["failed"]:
        label = "не выполнили" if ru else "failed"
        parts.append(f"{label}: {', '.join(answer['failed'])}")
    if "pool" in answer:
        for key, ru_label in (("pool", "пуля"), ("mountain", "гора")):
            written = [f"{seat} {v}" for seat, v in answer[key].items() if v]
            if written:
                parts.append(f"{ru_label if ru else key}: {', '.join(written)}")
        whists = [
            f"{writer}→{on} {v}"
            for writer, on_whom in answer["whists"].items()
            for on, v in on_whom.items()
        ]
        if whists:
            parts.append(f"{'висты' if ru else 'whists'}: {', '.join(whists)}")
    if "pot_after" in answer:
        label = "котёл после сдачи" if ru else "pot after the deal"
        parts.append(f"{label}: {answer['pot_after']}")
    return " | ".join(parts)


class Command(JsonCommand):
    help = (
        "Settle Preference deals, Austrian or Russian: a JSON deal or a list of deals on stdin "
        "(or in FILE) → scores, failed obligations and the running pot, or пуля, гора, висты."
    )
    answer_one = settle_json

    def readable(self, answers, lang, many):
        return "\n".join(
            (f"{i}. " if many else "") + readable_settlement(one, lang)
            for i, one in enumerate(answers, start=1)
        )
