"""The house by concept holds (docs/architecture.md, issue 33): ``scoring/`` has no flat
``views_*``/``urls_*``/``forms_*``/``api_*`` modules at its top — each concept keeps its own
in its package — no module over 600 lines outside the pure cores, and no game's name is
compared outside the games' own folder."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCORING = ROOT / "scoring"
#: What stays at scoring's top: the app's frame, not a concept.
TOP = {
    "__init__.py",
    "apps.py",
    "cli.py",
    "models.py",
    "queue.py",
    "receivers.py",
    "tasks.py",
    "urls.py",
}
#: Pure cores, where a long rule engine reads best whole.
PURE = ("scoring/solver/", "scoring/games/", "scoring/compare/", "scoring/ladder/grade.py")


def test_scoring_top_holds_the_frame_only():
    modules = {p.name for p in SCORING.glob("*.py")}
    assert modules <= TOP, sorted(modules - TOP)
    assert not [m for m in modules if re.match(r"(views|urls|forms|api)_", m)]


def test_no_module_over_600_lines_outside_the_pure_cores():
    long = []
    for path in SCORING.rglob("*.py"):
        relative = path.relative_to(ROOT).as_posix()
        if "/migrations/" in relative or relative.startswith(PURE):
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > 600:
            long.append((relative, lines))
    assert long == []


#: A game's name compared, or a table keyed by one: what only the games' folder may do.
GAME_NAME = re.compile(
    r"""game\s*(==|!=)|\.game\s+in\b|is_russian|is_austrian|SHEET_GAMES|SCORER_FORMS|"""
    r"""["'](austrian|sochi|leningrad|rostov|russian)["']\s*(==|!=|:)|"""
    r"""(==|!=)\s*["'](austrian|sochi|leningrad|rostov|russian)["']"""
)


def test_no_game_name_is_asked_outside_the_games():
    found = []
    for folder in ("config", "events", "movements", "scoring", "templates", "static/js"):
        for path in (ROOT / folder).rglob("*"):
            relative = path.relative_to(ROOT).as_posix()
            if (
                path.suffix not in (".py", ".html", ".js")
                or relative.startswith("scoring/games/")
                or "/migrations/" in relative
            ):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if GAME_NAME.search(line):
                    found.append(f"{relative}:{number}: {line.strip()}")
    assert found == []
