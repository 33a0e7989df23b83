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
from scoring.solver import RUSSIAN_PLAY, deal_table

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


# --- The Russian game (docs/analysis.md «Russian play rules») ------------------------------

SOCHI = {"game": "sochi"}


def test_russian_positions_notrump_misere_and_the_talon():
    """The literal positions of tests/scoring/solver/test_solver_russian.py, through the command."""
    positions = [
        # БК: N cashes SA and S7, the others discard; first hand E would cash his hearts.
        {
            "rules": SOCHI,
            "hands": {"N": ["SA", "S7"], "E": ["H7", "H8"], "S": ["C7", "C8"]},
            "declarer": "N",
            "trump": "notrump",
            "leader": "N",
        },
        {
            "rules": {"game": "leningrad"},
            "hands": {"N": ["SA", "S7"], "E": ["H7", "H8"], "S": ["C7", "C8"]},
            "declarer": "n",
            "trump": "NoTrump",
            "leader": "e",
        },
        # No duty to beat: N plays D7 under E's D8 and keeps DQ over S's DJ.
        {
            "rules": {"game": "rostov"},
            "hands": {"N": ["D7", "DQ"], "E": ["D8", "D9"], "S": ["DJ", "DA"]},
            "declarer": "N",
            "trump": "notrump",
            "leader": "E",
        },
        # Мизер: first hand E catches N's bare SA; with the talon N discards S9 and SA.
        {
            "rules": SOCHI,
            "hands": {"N": ["SA", "D7"], "E": ["S7", "D8"], "S": ["S8", "D9"]},
            "declarer": "N",
            "contract": "misere",
            "leader": "E",
        },
        {
            "rules": SOCHI,
            "hands": {"N": ["SA", "D7"], "E": ["S7", "D8"], "S": ["S8", "D9"]},
            "declarer": "N",
            "contract": "мизер",
            "leader": "E",
            "talon": ["D10", "S9"],
        },
        # A contract stands for its strain; hearts: E ruffs the SA.
        {
            "rules": SOCHI,
            "hands": {"N": ["SA", "S7"], "E": ["H7", "H8"], "S": ["C7", "C8"]},
            "declarer": "N",
            "contract": "6H",
            "trump": "hearts",
            "leader": "N",
            "defence": "both",
        },
        # «austrian» names today's game: the declarer leads, the card led must be beaten.
        {
            "rules": {"game": "austrian"},
            "hands": {"N": ["D7", "DQ"], "E": ["D8", "D9"], "S": ["DJ", "DA"]},
            "declarer": "E",
            "trump": "hearts",
        },
    ]
    assert answered(analyse(positions, "--json")) == [
        {"tricks": 2},
        {"tricks": 0},
        {"tricks": 1},
        {"tricks": 1},
        {"tricks": 0, "discard": ["S9", "SA"]},
        {"tricks": 0},
        {"tricks": 0},
    ]


def test_a_russian_deal_without_declarer_gets_its_whole_table_with_notrump_and_misere():
    deal = deal_from_seed("analyse-cli-russian", 1, 1, 1, ("N", "E", "S"))
    hands = {seat: [card_name(c) for c in hand] for seat, hand in deal.by_seat()}
    payload = {
        "rules": SOCHI,
        "hands": hands,
        "talon": [card_name(c) for c in deal.talon],
        "leader": "E",
    }
    got = answered(analyse(payload, "--json"))
    assert got == deal_table(
        {s: list(h) for s, h in deal.by_seat()},
        list(deal.talon),
        rules=RUSSIAN_PLAY,
        leader="E",
    )
    columns = ["spades", "clubs", "diamonds", "hearts", "notrump", "misere"]
    assert all(list(row) == columns for row in got.values())
    assert all(row["misere"]["talon"] <= row["misere"]["no_talon"] for row in got.values())
    readable = analyse(payload)
    assert readable.returncode == 0 and "БК" in readable.stdout and "мизер" in readable.stdout


def test_bad_russian_positions_are_refused_by_field():
    hands = {"N": ["SA", "S7"], "E": ["SK", "SQ"], "S": ["H7", "H8"]}
    one = {"rules": SOCHI, "hands": hands, "declarer": "N", "leader": "E"}
    positions = [
        {**one, "trump": "notrump", "leader": None},  # 0: no leader
        {**one, "trump": "notrump", "leader": "W"},  # 1: the leader has no hand
        {**one, "contract": "passed"},  # 2: распасы
        {**one, "contract": "7Z"},  # 3: no contract
        {**one, "contract": "misere", "trump": "spades"},  # 4: both, disagreeing
        {**one, "trump": "notrump", "defence": "E"},  # 5: a lone whister
        one,  # 6: neither trump nor contract
        {"rules": SOCHI, "hands": hands, "trump": "notrump", "leader": "E"},  # 7: no declarer
        {**one, "rules": {"game": "whist"}, "trump": "notrump"},  # 8: an unknown game
        {**one, "rules": {"game": "sochi", "ten": "x", "pot": 1}, "trump": "hearts"},  # 9
        {**one, "rules": "sochi", "trump": "hearts"},  # 10
        {**one, "rules": {}, "trump": "hearts"},  # 11
        {**one, "trump": "trumps"},  # 12
        {"rules": SOCHI, "hands": hands, "talon": ["C7", "C8"], "leader": "E"},  # 13: not 10
        {**one, "trump": "notrump", "leader": 5},  # 14
        # 15: Austrian, as today: no leader, no notrump, no contract
        {"hands": hands, "declarer": "N", "trump": "notrump", "leader": "E", "contract": "6S"},
    ]
    errors = refused(analyse(positions, "--json", "--lang", "en"))
    assert set(errors) == {
        "0.leader",
        "1.leader",
        "2.contract",
        "3.contract",
        "4.contract",
        "5.defence",
        "6.trump",
        "7.declarer",
        "8.rules.game",
        "9.rules.ten",
        "9.rules.pot",
        "10.rules",
        "11.rules.game",
        "12.trump",
        "13.hands",
        "14.leader",
        "15.trump",
        "15.leader",
        "15.contract",
    }
    assert "first hand" in errors["0.leader"]
    assert "N, E, S" in errors["1.leader"]
    assert "not analysed" in errors["2.contract"]
    assert "«7Z» is not a contract" in errors["3.contract"]
    assert "not both" in errors["4.contract"]
    assert "both defenders play" in errors["5.defence"]
    assert "notrump" in errors["6.trump"] and "misere" in errors["6.trump"]
    assert "sochi, leningrad, rostov" in errors["8.rules.game"]
    assert "checked, whisted" in errors["9.rules.ten"]
    assert errors["9.rules.pot"] == "unknown field"
    assert "notrump" in errors["12.trump"]
    assert "three hands of 10" in errors["13.hands"]
    assert "«notrump» is not allowed" in errors["15.trump"]
    assert errors["15.leader"] == errors["15.contract"] == "unknown field"
    # In Russian by default, from the catalogue.
    ru = refused(analyse(positions[:8], "--json"))
    assert "первая рука" in ru["0.leader"]
    assert "распасы не анализируются" in ru["2.contract"]
    assert "обе руки" in ru["5.defence"]
    assert all(any("а" <= ch <= "я" for ch in text.lower()) for text in ru.values())
