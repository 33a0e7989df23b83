"""``manage.py analyse --json < position.json``: the double-dummy analysis of a position
(an object) or of several (a list), by :mod:`scoring.solver`.

- A position ``{"hands": {...}, "declarer": "N", "trump": "hearts", "defence": "both",
  "talon": [...]}`` → ``{"tricks": 7}`` (and ``"discard": [two cards]`` with a talon).
- Without declarer and trump, a ten-card deal and its talon → the whole table: seat →
  trump → ``{"talon": n, "no_talon": m}``.
- ``"rules": {"game": "sochi"}`` (or ``leningrad``, ``rostov``): the Russian game's play —
  ``"leader"`` (first hand) leads, ``"trump": "notrump"`` or ``"contract": "misere"``; its
  whole table has the columns ``notrump`` and ``misere`` too.
- A bad position or bad JSON prints ``{"errors": {field: rule}}`` to stdout and exits with
  status 1 — never a traceback. Without ``--json`` a readable summary is printed.

See docs/analysis.md.
"""

from __future__ import annotations

from events.cards import SUIT_NAMES, SUIT_SYMBOLS
from scoring.cli import JsonCommand


def _readable_position(answer: dict, lang: str) -> str:
    ru = lang != "en"
    line = f"{'взяток' if ru else 'tricks'}: {answer['tricks']}"
    if "discard" in answer:
        line += f"; {'снос' if ru else 'discard'}: {' '.join(answer['discard'])}"
    return line


#: The heads of a whole table's columns beyond the suits (the Russian game's).
_HEADS = {"notrump": ("БК", "NT"), "misere": ("мизер", "misere")}


def _readable_table(answer: dict, lang: str) -> str:
    ru = lang != "en"
    head = "с прикупом/без" if ru else "talon/no talon"
    columns = list(next(iter(answer.values()), {}))
    symbols = dict(zip(SUIT_NAMES, SUIT_SYMBOLS, strict=True))
    heads = [symbols.get(c) or _HEADS[c][0 if ru else 1] for c in columns]
    lines = ["    " + "".join(f"{h:>7}" for h in heads) + f"   ({head})"]
    for seat, row in answer.items():
        cells = [f"{row[name]['talon']}/{row[name]['no_talon']}" for name in columns]
        lines.append(f"{seat:>4}" + "".join(f"{c:>7}" for c in cells))
    return "\n".join(lines)


def readable_analysis(answer: dict, lang: str) -> str:
    if "tricks" in answer:
        return _readable_position(answer, lang)
    return _readable_table(answer, lang)


class Command(JsonCommand):
    help = (
        "Double-dummy analysis of Preference positions: a JSON position or a list of them on "
        "stdin (or in FILE) → the declarer's tricks against the best defence (and the best "
        "discard with a talon); a ten-card deal without declarer and trump → its whole table. "
        'With "rules": {"game": "sochi"} (leningrad, rostov), by the Russian game\'s play.'
    )

    # A pure computation: the project's checks (URLs, models) are not needed to answer.
    requires_system_checks = []

    def answer(self, text: str, lang: str) -> tuple[bool, object]:
        # Imported here: numpy and the compiled engine load only when a position is analysed.
        from scoring.solver.json_io import answer_json_text

        return answer_json_text(text, lang=lang)

    def readable(self, answers, lang, many):
        return "\n\n".join(
            (f"{i}. " if many else "") + readable_analysis(one, lang)
            for i, one in enumerate(answers, start=1)
        )
