"""``movement plan``: its ranking rule, its legend, ``--seats`` and its ``--help``."""

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

from django.core.management import call_command

from movements import planner
from movements.management.commands import movement

ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    out = StringIO()
    call_command("movement", "plan", *args, stdout=out)
    return out.getvalue()


def test_it_prints_its_ranking_rule_in_the_order_of_the_sort_key():
    text = run("--participants", "33")
    flat = " ".join(text.split())
    assert "Ranking, best first: 1. nobody plays a set twice; 2. every deal is compared" in flat
    steps = [movement.RANKING_WORDS[code] for code in planner.RANKING]
    positions = [flat.index(f"{i}. {step}") for i, step in enumerate(steps, 1)]
    assert positions == sorted(positions)


def test_every_ranking_code_has_words():
    assert set(movement.RANKING_WORDS) == set(planner.RANKING)


def test_it_prints_a_table_with_one_name_per_movement_and_a_legend():
    text = run("--participants", "33", "--minutes-per-deal", "3")
    lines = text.splitlines()
    header = next(line for line in lines if line.lstrip().startswith("#"))
    for column in ("movement", "rooms", "tables × seats", "rounds", "deals", "length", "pauses"):
        assert column in header, column
    first = lines[lines.index(header) + 1].split()
    assert first[:4] == ["1", "prime", "rule", "1"] and "11" in first and "1:39" in first
    assert any("skip procedure + special scheme for 9" in line for line in lines)
    for term in ("prime rule", "skip procedure", "special scheme for N", "pauses", "skips"):
        assert f"\n  {term}" in text, term
    assert "Length at 3 min per deal." in text
    assert "scheme 9 (" not in text  # the old second name


def test_it_says_why_no_single_room_seats_31_and_the_nearest_that_do():
    text = " ".join(run("--participants", "31").split())
    assert "No single room:" in text and "31 is divisible by neither 3 nor 4" in text
    assert "30 (-1): skip procedure, 10 tables of 3" in text
    assert "32 (+1): skip procedure, 8 tables of 4" in text
    assert "No single room" not in run("--participants", "33")


def test_seats_keeps_only_tables_of_that_size():
    doc = json.loads(run("--participants", "33", "--seats", "3", "--json"))
    assert doc["seats"] == 3
    assert all(r["seats"] == 3 for o in doc["options"] for r in o["rooms"])
    text = run("--participants", "33", "--seats", "4")
    assert "at tables of 4 only" in text and "33 is not divisible by 4" in " ".join(text.split())


def test_nothing_seats_the_count_at_those_tables():
    text = run("--participants", "10", "--seats", "3")
    assert "10 participants at tables of 3 only: no exact seating; nearest: 12" in text


def test_the_json_only_adds_keys():
    doc = json.loads(run("--participants", "26", "--json"))
    assert {"participants", "options", "nearest", "single_room"} <= set(doc)
    assert {"seats", "ranking", "one_room"} <= set(doc)
    assert doc["seats"] is None and doc["one_room"]["fits"] is False
    assert "promises" in doc["options"][0]


def test_help_explains_the_terms_the_columns_and_the_ranking():
    result = subprocess.run(
        [sys.executable, "manage.py", "movement", "plan", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "Ranking, best first: 1. nobody plays a set twice" in text
    for words in (
        "--seats {3,4} only rooms whose tables all seat 3 (or all 4) players",
        "skip procedure any T ≥ 4 tables",
        "special scheme for N the seed's fixed routes",
        "pauses player-rounds of rest",
        "coverage pairs of players who meet at least once",
    ):
        assert words in text, words
