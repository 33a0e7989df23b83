"""`manage.py settle --json` and `manage.py compare --json`, run as the contract says."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

LESNOY = {
    "rules": {"pot": "running", "pot_before": 130, "limit": 100, "ante": 10},
    "declarer": "N",
    "contract": "one",
    "trump": "spades",
    "defenders": {"E": "whist", "S": "whist"},
    "tricks": {"N": 6, "E": 3, "S": 1},
}


def manage(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=120,
    )


def settle(payload, *extra: str) -> subprocess.CompletedProcess:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return manage("settle", "--json", *extra, stdin=text)


def assert_refused(run: subprocess.CompletedProcess) -> dict[str, str]:
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    return json.loads(run.stdout)["errors"]


@pytest.mark.parametrize(
    ("deal", "scores", "failed", "pot_after"),
    [
        (LESNOY, {"N": 60, "E": 30, "S": -90}, ["S"], 130),
        (
            {"declarer": "E", "contract": "game", "trump": "clubs",
             "defenders": {"S": "pass", "W": "pass"}},
            {"E": 100, "S": 0, "W": 0}, [], None,
        ),
        (
            {"declarer": "N", "contract": "three", "trump": "hearts",
             "defenders": {"E": "whist", "S": "invited"}, "tricks": {"N": 7, "E": 1, "S": 2}},
            {"N": 70, "E": -90, "S": 20}, ["E"], None,
        ),
        (
            {"declarer": "S", "contract": "hearts", "trump": "hearts",
             "defenders": {"N": "whist", "E": "pass"}, "tricks": {"S": 5, "N": 5, "E": 0}},
            {"S": -50, "N": 50, "E": 0}, ["S"], None,
        ),
    ],
)  # fmt: skip
def test_settle_answers_the_contract_cases(deal, scores, failed, pot_after):
    run = settle(deal)
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["scores"] == scores
    assert answer["failed"] == failed
    assert answer.get("pot_after") == pot_after


def test_settle_answers_a_list_with_a_list():
    passed = {"contract": "passed", "seats": ["N", "E", "S"]}
    run = settle([LESNOY, passed])
    assert run.returncode == 0, run.stderr
    answers = json.loads(run.stdout)
    assert [a["scores"] for a in answers] == [
        {"N": 60, "E": 30, "S": -90},
        {"N": 0, "E": 0, "S": 0},
    ]


def test_settle_refuses_clubs_after_three():
    errors = assert_refused(settle(dict(LESNOY, contract="three", trump="clubs")))
    assert errors == {"trump": "при «три» козырь — бубны или червы"}


def test_settle_refuses_eleven_tricks():
    errors = assert_refused(settle(dict(LESNOY, tricks={"N": 6, "E": 3, "S": 2})))
    assert errors == {"tricks": "взятки должны в сумме давать 10, а дают 11"}


def test_settle_gives_the_auction_and_trump_rules_of_issue_9():
    outbid = dict(
        LESNOY, contract="three", trump="hearts", auction=["N раз", "E два", "S пас", "N три"]
    )
    game_after_two = {
        "declarer": "S",
        "contract": "game",
        "trump": "spades",
        "defenders": {"N": "pass", "E": "pass"},
        "auction": ["N one", "E two", "S game", "N pass", "E pass"],
    }
    passed_with_declarer = {
        "contract": "passed",
        "declarer": "N",
        "seats": ["N", "E", "S"],
        "auction": ["N pass", "E pass", "S pass"],
    }
    errors = assert_refused(settle([outbid, game_after_two, passed_with_declarer]))
    assert errors == {
        "0.auction.3": "цифру N перебили: теперь N может только сказать «здесь» или спасовать, "
        "назвать цифру выше нельзя",
        "1.trump": "«игра» после «два» в торговле: козырь не ниже достигнутого — трефы или бубны",
        "2.declarer": "в распасованной сдаче нет разыгрывающего: все спасовали в торговле, "
        "никто не играет",
    }
    held_at_four = ["N one", "E two", "S pass", "N hold", "E three", "N hold", "E four", "N hold"]
    hold = dict(LESNOY, contract="four", trump="hearts", auction=[*held_at_four, "E hold"])
    errors = assert_refused(settle(hold, "--lang", "en"))
    assert errors == {
        "auction.8": "only a player who spoke before N can hold, and there is no number above "
        "«four»: E can only pass"
    }


def test_settle_names_the_index_of_a_bad_deal_in_a_list():
    bad = dict(LESNOY, tricks={"N": 6, "E": 3, "S": 2})
    errors = assert_refused(settle([LESNOY, bad]))
    assert list(errors) == ["1.tricks"]


@pytest.mark.parametrize("text", ["{not json", "", "42", "[1]", '{"contract": null}'])
def test_settle_refuses_bad_json_without_a_traceback(text):
    errors = assert_refused(settle(text))
    assert errors


def test_settle_speaks_english_on_request():
    errors = assert_refused(settle(dict(LESNOY, contract="three", trump="clubs"), "--lang", "en"))
    assert errors == {"trump": "after «three» the trump must be diamonds or hearts"}


def test_settle_without_json_prints_a_summary():
    run = manage("settle", stdin=json.dumps(LESNOY))
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "N +60  E +30  S -90 | не выполнили: S | котёл после сдачи: 130"
    bad = manage("settle", stdin=json.dumps(dict(LESNOY, tricks={"N": 1})))
    assert bad.returncode != 0
    assert "tricks" in bad.stdout
    assert "Traceback" not in bad.stderr


def test_settle_reads_a_file(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(LESNOY), encoding="utf-8")
    run = manage("settle", "--json", str(path))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["pot_after"] == 130


def test_compare_answers_the_contract_case():
    payload = {"method": "matchpoints", "scores": [60, 30, 30, -50], "expected": 4}
    run = manage("compare", "--json", stdin=json.dumps(payload))
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["percent"] == [100.0, 50.0, 50.0, 0.0]
    assert answer["matchpoints"] == [6, 3, 3, 0]


def test_compare_applies_neuberg_when_results_are_missing():
    payload = {"method": "matchpoints", "scores": [60, 30, 30, -50], "expected": 5}
    run = manage("compare", "--json", stdin=json.dumps(payload))
    answer = json.loads(run.stdout)
    assert answer["top"] == 8
    assert answer["percent"] == [96.88, 50.0, 50.0, 3.12]


def test_compare_refuses_bad_input_without_a_traceback():
    run = manage("compare", "--json", stdin=json.dumps({"scores": [1, 2], "expected": 1}))
    assert assert_refused(run) == {
        "expected": "ожидаемое число результатов не меньше фактического (2)"
    }
    assert assert_refused(manage("compare", "--json", stdin="[{"))


def test_compare_without_json_prints_a_summary():
    run = manage("compare", stdin=json.dumps({"scores": [60, 30, 30, -50]}))
    assert run.returncode == 0, run.stderr
    assert "percent: 100.0, 50.0, 50.0, 0.0" in run.stdout


def test_settle_refuses_bytes_that_are_not_utf8():
    run = subprocess.run(
        [sys.executable, "manage.py", "settle", "--json"],
        input=b'\xff{"contract": "\xc0"}',
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert run.returncode != 0
    assert b"Traceback" not in run.stderr
    assert "json" in json.loads(run.stdout)["errors"]
