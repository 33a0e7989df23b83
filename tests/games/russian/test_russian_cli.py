"""`manage.py settle --json` on Russian deals, run as the contract says (issue 22): the
note's examples, an array mixing both games, and refused deals."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

TWO = {"E": "whist", "S": "whist"}
EXAMPLES = [
    ({"rules": {"game": "sochi"}, "declarer": "N", "contract": "6S", "defenders": TWO,
      "tricks": {"N": 6, "E": 3, "S": 1}}, {"N": 5.33, "E": -0.67, "S": -4.67}),
    ({"rules": {"game": "sochi"}, "declarer": "N", "contract": "6S", "defenders": TWO,
      "tricks": {"N": 5, "E": 3, "S": 2}}, {"N": -27.33, "E": 14.67, "S": 12.67}),
    ({"rules": {"game": "leningrad"}, "declarer": "N", "contract": "6S", "defenders": TWO,
      "tricks": {"N": 6, "E": 3, "S": 1}}, {"N": 10.67, "E": -1.33, "S": -9.33}),
    ({"rules": {"game": "sochi"}, "contract": "passed", "tricks": {"N": 0, "E": 3, "S": 7}},
     {"N": 40.0, "E": 0.0, "S": -40.0}),
    ({"rules": {"game": "rostov"}, "contract": "passed", "tricks": {"N": 2, "E": 3, "S": 5}},
     {"N": 40.0, "E": -15.0, "S": -25.0}),
    ({"rules": {"game": "sochi"}, "declarer": "E", "contract": "misere",
      "tricks": {"E": 0, "S": 4, "N": 6}}, {"E": 66.67, "S": -33.33, "N": -33.33}),
]  # fmt: skip
HALF_ON_EIGHT = {
    "rules": {"game": "sochi"},
    "declarer": "N",
    "contract": "8S",
    "defenders": {"E": "pass", "S": "half"},
}


def settle(payload, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "settle", *extra],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=120,
    )


def test_settle_answers_the_russian_examples_in_one_array():
    run = settle([deal for deal, _ in EXAMPLES], "--json")
    assert run.returncode == 0, run.stderr
    answers = json.loads(run.stdout)
    assert [a["scores"] for a in answers] == [scores for _, scores in EXAMPLES]
    first = answers[0]
    assert first == {
        "scores": {"N": 5.33, "E": -0.67, "S": -4.67},
        "pool": {"N": 2, "E": 0, "S": 0},
        "mountain": {"N": 0, "E": 0, "S": 0},
        "whists": {"E": {"N": 6}, "S": {"N": 2}},
        "failed": [],
    }
    assert answers[1]["failed"] == ["N"]


@pytest.mark.parametrize(("deal", "scores"), EXAMPLES[:1] + EXAMPLES[3:4])
def test_settle_answers_one_russian_deal(deal, scores):
    run = settle(deal, "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["scores"] == scores


def test_an_array_may_mix_both_games():
    austrian = {"declarer": "E", "contract": "game", "trump": "clubs",
                "defenders": {"S": "pass", "W": "pass"}}  # fmt: skip
    run = settle([austrian, EXAMPLES[0][0]], "--json")
    assert run.returncode == 0, run.stderr
    answers = json.loads(run.stdout)
    assert answers[0] == {"scores": {"E": 100, "S": 0, "W": 0}, "failed": []}
    assert answers[1]["scores"] == EXAMPLES[0][1]


def test_a_refused_deal_exits_non_zero_with_its_errors_never_a_traceback():
    run = settle(HALF_ON_EIGHT, "--json")
    assert run.returncode != 0 and "Traceback" not in run.stderr
    assert json.loads(run.stdout) == {
        "errors": {"defenders.S": "полвиста бывает только на шестерной и семерной"}
    }
    english = settle(HALF_ON_EIGHT, "--json", "--lang", "en")
    assert json.loads(english.stdout) == {
        "errors": {"defenders.S": "half whist is only on a 6 or a 7"}
    }


def test_in_an_array_the_field_is_prefixed_with_the_deals_index():
    run = settle(
        [EXAMPLES[0][0], HALF_ON_EIGHT, dict(EXAMPLES[0][0], rules={"game": "moscow"})], "--json"
    )
    assert run.returncode != 0 and "Traceback" not in run.stderr
    errors = json.loads(run.stdout)["errors"]
    assert set(errors) == {"1.defenders.S", "2.rules.game"}


def test_without_json_a_readable_summary():
    run = settle(EXAMPLES[1][0])
    assert run.returncode == 0, run.stderr
    assert (
        run.stdout.strip()
        == "N -27.33  E +14.67  S +12.67 | не выполнили: N | гора: N 2 | висты: E→N 8, S→N 6"
    )
