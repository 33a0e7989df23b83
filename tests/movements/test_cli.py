"""The ``movement`` management command: its JSON contract, its cards, its refusals."""

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    out = StringIO()
    call_command("movement", *args, stdout=out)
    return out.getvalue()


def run_json(*args):
    return json.loads(run(*args, "--json"))


def manage(*args):
    return subprocess.run(
        [sys.executable, "manage.py", "movement", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_show_prints_the_prime_movement_as_json():
    doc = run_json("show", "--tables", "5", "--seats", "4")
    assert (doc["kind"], doc["tables"], doc["seats"], doc["rounds"], doc["participants"]) == (
        "prime",
        5,
        4,
        5,
        20,
    )
    assert len(doc["schedule"]) == 5
    first = doc["schedule"][0]
    assert first["round"] == 1 and first["pauses"] == []
    assert first["tables"][0] == {"table": 1, "set": 1, "seats": {"N": 1, "E": 6, "S": 11, "W": 16}}
    second = {t["table"]: t for t in doc["schedule"][1]["tables"]}
    assert second[1]["set"] == 2
    assert second[2]["seats"]["E"] == 6 and second[2]["seats"]["N"] == 2
    assert doc["metrics"]["set_repeats"] == 0


def test_show_stops_after_the_rounds_asked_for():
    doc = run_json("show", "--tables", "7", "--seats", "3", "--rounds", "4")
    assert doc["rounds"] == 4 and len(doc["schedule"]) == 4
    assert set(doc["schedule"][0]["tables"][0]["seats"]) == {"N", "E", "S"}


def test_show_with_skip_builds_any_table_count_from_four():
    doc = run_json("show", "--tables", "6", "--seats", "4", "--skip")
    assert doc["kind"] == "skip" and doc["rounds"] == 6
    assert doc["metrics"]["set_repeats"] == 0
    assert doc["metrics"]["skips"] == sum(s["extra"] for s in doc["skips"]) > 0


def test_show_prints_a_special_scheme():
    doc = run_json("show", "--scheme", "8")
    assert doc["kind"] == "scheme" and doc["participants"] == 8
    assert len(doc["schedule"]) == 7
    first = {t["table"]: t for t in doc["schedule"][0]["tables"]}
    assert first[1]["seats"]["S"] == 1 and first[1]["seats"]["N"] == 8
    assert first[1]["set"] == first[2]["set"]


def test_show_prints_readable_cards_without_json():
    text = run("show", "--tables", "5", "--seats", "4")
    assert "Round 1" in text and "Round 5" in text
    assert "set goes to" in text
    # table 1, set 1: N1 E6 S11 W16, the set goes to table 5
    assert any(
        line.split()[:6] == ["1", "1", "1", "6", "11", "16"] and "table 5" in line
        for line in text.splitlines()
    )
    assert "coverage" in text


def test_show_cards_mark_the_skips():
    text = run("show", "--tables", "6", "--skip")
    assert "skip +1" in text


def test_show_cards_of_a_scheme_list_the_pauses():
    text = run("show", "--scheme", "9")
    assert "pause: 1" in text


def test_plan_prints_ranked_options_as_json():
    doc = run_json("plan", "--participants", "20")
    assert doc["participants"] == 20 and doc["nearest"] == []
    first = doc["options"][0]["rooms"]
    assert len(first) == 1
    assert {k: first[0][k] for k in ("kind", "tables", "seats", "participants", "rounds")} == {
        "kind": "prime",
        "tables": 5,
        "seats": 4,
        "participants": 20,
        "rounds": 5,
    }
    assert "coverage" in doc["options"][0]["metrics"]


def test_plan_json_adds_deals_length_tables_per_deal_and_single_rooms_to_its_keys():
    doc = run_json("plan", "--participants", "26")
    assert {"participants", "options", "nearest"} <= set(doc)
    assert doc["single_room"] == {"prime": [], "skip": [], "scheme": False}
    best = doc["options"][0]
    for room in best["rooms"]:
        assert {"kind", "tables", "seats", "participants", "rounds", "metrics"} <= set(room)
        assert (room["deals_per_set"], room["deals"], room["minutes"]) == (4, 52, 260)
    m = best["metrics"]
    assert {"coverage", "pair_meetings", "set_repeats", "tables_per_set", "rounds"} <= set(m)
    # One room of the 13 scheme plays a set at 1 or 2 tables; its twin plays copies.
    assert m["tables_per_set"] == {"min": 1, "max": 2}
    assert m["tables_per_deal"] == {"min": 2, "max": 4}
    assert m["deals_per_set"] == {"min": 4, "max": 4}
    assert m["session"] == {"minutes_per_deal": 5, "minutes": 260}


def test_plan_gives_the_nearest_counts_when_nothing_fits():
    doc = run_json("plan", "--participants", "19")
    assert doc["options"] == [] and doc["nearest"] == [18, 20]
    assert "18 or 20" in run("plan", "--participants", "19")


def test_plan_prints_readable_options():
    text = run("plan", "--participants", "26")
    assert "2 × special scheme for 13" in text and "coverage" in text


@pytest.mark.parametrize(
    "args, hint",
    [
        (["show", "--tables", "6", "--seats", "4"], "use --skip, or 5 or 7 tables"),
        (["show", "--tables", "3", "--skip"], "at least 4 tables"),
        (["show", "--tables", "5", "--seats", "5"], "3 or 4"),
        (["show", "--tables", "5", "--rounds", "6"], "1 to 5"),
        (["show", "--tables", "5", "--rounds", "0"], "1 to 5"),
        (["show", "--scheme", "10"], "8, 9, 12, 13, 16, 18, 24"),
        (["show", "--scheme", "8", "--tables", "2"], "--scheme takes no"),
        (["show"], "--tables"),
        (["plan", "--participants", "0"], "positive"),
        ([], "movement show"),
    ],
)
def test_it_refuses_bad_arguments_with_a_hint(args, hint):
    with pytest.raises(CommandError, match=hint.replace("+", r"\+")):
        run(*args)


def test_it_exits_non_zero_with_a_hint_and_no_traceback_on_the_command_line():
    result = manage("show", "--tables", "6", "--seats", "4")
    assert result.returncode != 0
    assert "6 tables is not prime: use --skip, or 5 or 7 tables" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_it_exits_non_zero_without_a_subcommand():
    result = manage()
    assert result.returncode != 0
    assert "movement show" in result.stderr and "Traceback" not in result.stderr


def test_it_prints_the_json_contract_on_the_command_line():
    result = manage("show", "--tables", "5", "--seats", "4", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["schedule"][0]["tables"][0]["seats"] == {
        "N": 1,
        "E": 6,
        "S": 11,
        "W": 16,
    }
