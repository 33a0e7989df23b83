"""`manage.py analyse --json`, run as the contract says (docs/analysis.md): a position or a
list of them in, tricks (and the discard) out; a ten-card deal without declarer and trump
gets its whole table; a bad position gets ``{"errors": {field: rule}}`` and a non-zero exit,
never a traceback. No database."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from events.cards import card_name, deal_from_seed
from scoring.solver import deal_table

ROOT = Path(__file__).resolve().parents[1]


def analyse(payload, *extra: str) -> subprocess.CompletedProcess:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run(
        [sys.executable, "manage.py", "analyse", *extra],
        input=text,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=120,
    )


def answered(run: subprocess.CompletedProcess):
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout)


def refused(run: subprocess.CompletedProcess) -> dict[str, str]:
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    return json.loads(run.stdout)["errors"]


def test_positions_in_a_list_get_answers_in_order():
    positions = [
        {"hands": {"N": ["SA"], "E": ["S7"], "S": ["S8"]}, "declarer": "N", "trump": "hearts"},
        {
            "hands": {"N": ["SA", "S7"], "E": ["S8", "H7"], "S": ["S9", "S10"]},
            "declarer": "N",
            "trump": "hearts",
        },
        {
            "hands": {"N": ["HA", "HK"], "E": ["H7", "S7"], "S": ["H8", "S8"]},
            "declarer": "N",
            "trump": "hearts",
        },
        {
            "hands": {"N": ["S7", "C7"], "E": ["SK", "CK"], "S": ["SQ", "CQ"]},
            "declarer": "N",
            "trump": "diamonds",
            "talon": ["SA", "CA"],
        },
        # Both defending, S ruffs the SA; S out of play (E a lone whister), N takes SA.
        {
            "hands": {"N": ["SA", "S7"], "E": ["SK", "SQ"], "S": ["H7", "H8"]},
            "declarer": "N",
            "trump": "hearts",
        },
        {
            "hands": {"N": ["SA", "S7"], "E": ["SK", "SQ"], "S": ["H7", "H8"]},
            "declarer": "n",
            "trump": "hearts",
            "defence": "E",
        },
        # Any three seats: W, N, S (W → N → S clockwise).
        {"hands": {"W": ["H7"], "N": ["S9"], "S": ["S8"]}, "declarer": "N", "trump": "hearts"},
    ]
    assert answered(analyse(positions, "--json")) == [
        {"tricks": 1},
        {"tricks": 1},
        {"tricks": 2},
        {"tricks": 2, "discard": ["S7", "C7"]},
        {"tricks": 0},
        {"tricks": 1},
        {"tricks": 0},
    ]
    assert answered(analyse(positions[3], "--json")) == {"tricks": 2, "discard": ["S7", "C7"]}


def test_a_deal_without_declarer_and_trump_gets_its_whole_table():
    deal = deal_from_seed("analyse-cli", 1, 1, 1, ("W", "N", "E"))
    hands = {seat: [card_name(c) for c in hand] for seat, hand in deal.by_seat()}
    got = answered(analyse({"hands": hands, "talon": [card_name(c) for c in deal.talon]}, "--json"))
    assert got == deal_table({s: list(h) for s, h in deal.by_seat()}, list(deal.talon))
    assert set(got) == {"W", "N", "E"}
    assert all(set(row) == {"spades", "clubs", "diamonds", "hearts"} for row in got.values())
    readable = analyse({"hands": hands, "talon": [card_name(c) for c in deal.talon]})
    assert readable.returncode == 0 and "♠" in readable.stdout and "прикуп" in readable.stdout


def test_bad_positions_are_refused_by_field():
    good = {"N": ["SA", "S7"], "E": ["SK", "SQ"], "S": ["H7", "H8"]}
    positions = [
        {
            "hands": {"N": ["SA", "SA"], "E": ["S7", "S8"], "S": ["S9", "S10"]},
            "declarer": "N",
            "trump": "hearts",
        },
        {
            "hands": {"N": ["SA", "S7"], "E": ["SK"], "S": ["H7", "H8"]},
            "declarer": "N",
            "trump": "hearts",
        },
        {
            "hands": {"N": ["SA", "S1"], "E": ["SK", "SQ"], "S": ["H7", "H8"]},
            "declarer": "N",
            "trump": "hearts",
        },
        {"hands": {"N": ["SA"], "E": ["SK"], "X": ["H7"]}, "declarer": "N", "trump": "hearts"},
        {"hands": {"N": ["SA"], "E": ["SK"]}, "declarer": "N", "trump": "hearts"},
        {"hands": good, "declarer": "W", "trump": "notrump", "defence": "N"},
        {"hands": good, "declarer": "N", "trump": "hearts", "talon": ["C7"]},
        {"hands": good, "declarer": "N", "trump": "hearts", "talon": ["C7", "SA"]},
        {"hands": good, "declarer": "N"},
        {"hands": good, "trump": "hearts"},
        {"hands": good, "declarer": "N", "trump": "hearts", "defence": "whist"},
        {
            "hands": {
                s: [f"{x}{r}" for x in "SC" for r in ("7", "8", "9", "10", "J", "Q")] for s in ()
            },
            "declarer": "N",
            "trump": "hearts",
        },
        "N plays",
        {"hands": good, "talon": ["C7", "C8"]},
        {
            "hands": {
                "N": [f"S{r}" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]
                + ["C7", "C8", "C9"],
                "E": ["D7"] * 11,
                "S": ["H7"] * 11,
            },
            "declarer": "N",
            "trump": "hearts",
        },
    ]
    errors = refused(analyse(positions, "--json", "--lang", "en"))
    assert "card is given twice: SA" in errors["0.hands"]
    assert "as many cards" in errors["1.hands"]
    assert "«S1» is not a card" in errors["2.hands.N"]
    assert "not a seat" in errors["3.hands.X"]
    assert "three seats, not 2" in errors["4.hands"]
    assert {"5.declarer", "5.trump", "5.defence"} <= set(errors)
    assert "exactly 2 cards" in errors["6.talon"]
    assert "twice: SA" in errors["7.hands"]
    assert "8.trump" in errors and "8.declarer" not in errors
    assert "9.declarer" in errors and "9.trump" not in errors
    assert "10.defence" in errors
    assert "three seats, not 0" in errors["11.hands"]
    assert errors["12.position"] == "a JSON object is expected"
    assert "three hands of 10" in errors["13.hands"]
    assert "1 to 10 cards" in errors["14.hands.N"]
    # In Russian by default, from the catalogue (English where a text is not translated).
    ru = refused(analyse(positions[0], "--json"))
    assert set(ru) == {"hands"}


def test_not_json_and_empty_input_are_refused():
    assert set(refused(analyse("{not json", "--json"))) == {"json"}
    assert set(refused(analyse("", "--json"))) == {"json"}
    assert set(refused(analyse("[" * 100_000, "--json"))) == {"json"}
    run = analyse('{"hands": 5}')
    assert run.returncode != 0 and "Traceback" not in run.stderr and "hands" in run.stdout
