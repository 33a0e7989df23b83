"""The README is a front door (issue 33): short, its two commands, and links to documents
the repository holds; and the project cites only files it contains — never a design note
kept outside it."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def test_the_readme_is_short_and_names_the_two_commands():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 150
    assert "make run" in text and "make test" in text


def test_every_document_the_readme_names_exists():
    named = set(re.findall(r"docs/[\w./-]+?\.(?:md|png)", README.read_text(encoding="utf-8")))
    assert {"docs/director-guide.md", "docs/operations.md", "docs/architecture.md"} <= named
    assert "docs/api.md" in named
    missing = sorted(name for name in named if not (ROOT / name).is_file())
    assert missing == []


def test_the_documents_cited_in_the_docs_exist():
    cited = set()
    for doc in (ROOT / "docs").glob("*.md"):
        cited |= set(re.findall(r"\bdocs/[\w-]+\.md", doc.read_text(encoding="utf-8")))
    assert sorted(name for name in cited if not (ROOT / name).is_file()) == []


def test_nothing_cites_a_design_note_outside_the_repository():
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    outside = re.compile(r"shared/design|shared/seeds|russian-game\.md|domain\.md")
    found = []
    for name in tracked:
        if not name.endswith((".py", ".md", ".html", ".js", ".toml", ".yml", ".conf")):
            continue
        if name == "tests/test_docs_front_door.py":
            continue
        for number, line in enumerate((ROOT / name).read_text(encoding="utf-8").splitlines()):
            if outside.search(line):
                found.append(f"{name}:{number + 1}")
    assert found == []
