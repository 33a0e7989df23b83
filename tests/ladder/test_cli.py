"""`manage.py ladder replay --json` as the contract says (issue 24): sessions in, grades,
rated deals and the history out at full precision; every refusal a non-zero exit with
``{"errors": {field: rule}}`` in the user's language (Russian unless ``--lang en``), never
a traceback; ``ladder`` alone, or ``replay`` without ``--json``, a usage error. No
database."""

import json
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from scoring.ladder import MESSAGES
from scoring.ladder.messages import translated

ROOT = Path(__file__).resolve().parents[2]


def player(person, percent, deals):
    return {"person": person, "percent": percent, "deals": deals}


S1 = {
    "id": "s1",
    "date": "2026-03-01",
    "tables": 5,
    "players": [player("p1", 60, 24), player("p2", 50, 24), player("p3", 40, 24)],
}
S2 = {
    "id": "s2",
    "date": "2026-03-08",
    "tables": 3,
    "players": [player("p1", 55, 20), player("p2", 45, 20), player("p4", 50, 20)],
}
GOOD = {"sessions": [S2, S1]}


def manage(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "manage.py", "ladder", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=120,
    )


def replay_file(tmp_path, payload, *extra):
    """The command in-process (call_command) on ``payload`` written to a file: (the
    printed JSON, the exit code)."""
    path = tmp_path / "sessions.json"
    path.write_text(payload if isinstance(payload, str) else json.dumps(payload), "utf-8")
    out = StringIO()
    try:
        call_command("ladder", "replay", "--json", str(path), *extra, stdout=out)
    except CommandError as error:
        return json.loads(out.getvalue()), error.returncode
    return json.loads(out.getvalue()), 0


def refused(tmp_path, payload, *extra):
    answer, code = replay_file(tmp_path, payload, *extra)
    assert code == 1
    assert list(answer) == ["errors"]
    return answer["errors"]


def test_the_replay_reads_stdin_and_prints_grades_deals_and_history():
    run = manage("replay", "--json", stdin=json.dumps(GOOD))
    assert run.returncode == 0, run.stdout + run.stderr
    answer = json.loads(run.stdout)
    assert list(answer) == ["grades", "deals", "history"]
    assert answer["grades"] == {
        "p1": pytest.approx(52.28, abs=1e-12),
        "p2": pytest.approx(49.385, abs=1e-12),
        "p3": pytest.approx(48.2, abs=1e-12),
        "p4": pytest.approx(50.135, abs=1e-12),
    }
    assert answer["deals"] == {"p1": 44, "p2": 44, "p3": 24, "p4": 20}
    assert len(answer["history"]) == 6
    assert answer["history"][0] == {
        "session": "s1",
        "person": "p1",
        "before": 50.0,
        "expected": 50.0,
        "actual": 60.0,
        "after": answer["history"][0]["after"],
    }
    assert answer["history"][0]["after"] == pytest.approx(51.8, abs=1e-12)
    assert [(r["session"], r["person"]) for r in answer["history"]][3:] == [
        ("s2", "p1"),
        ("s2", "p2"),
        ("s2", "p4"),
    ]


def test_full_precision_is_printed(tmp_path):
    payload = {
        "sessions": [
            dict(S1, players=[player("a", 61.237, 23), player("b", 38.763, 23)]),
            dict(S2, players=[player("a", 47.5, 19), player("b", 52.5, 19)]),
        ]
    }
    answer, code = replay_file(tmp_path, payload)
    assert code == 0
    # The floats of the formula, in its order (g + k·d·(a − e)), not rounded for a page.
    a1 = 50.0 + 0.0075 * 23 * (61.237 - 50.0)
    b1 = 50.0 + 0.0075 * 23 * (38.763 - 50.0)
    ea, eb = 50.0 + a1 - b1, 50.0 + b1 - a1
    assert answer["grades"] == {
        "a": a1 + 0.0075 * 19 * (47.5 - ea),
        "b": b1 + 0.0075 * 19 * (52.5 - eb),
    }
    assert answer["history"][2]["expected"] == ea
    assert answer["grades"]["a"] != round(answer["grades"]["a"], 2)


def test_params_are_read_and_unrated_people_are_known(tmp_path):
    payload = {
        "params": {"k": 0.01, "k_provisional": 0.02, "start": 40, "provisional_deals": 0,
                   "min_deals": 10, "min_tables": 6},
        "sessions": [S1, dict(S2, tables=7, players=[*S2["players"], player("p5", 80, 9)])],
    }  # fmt: skip
    answer, code = replay_file(tmp_path, payload)
    assert code == 0
    # S1 has 5 tables (< 6): not rated. S2: all at 40, S = 40, E = 50; k = 0.01 (no
    # provisional deals), p5 below 10 deals left out.
    assert answer["grades"] == {
        "p1": pytest.approx(40 + 0.2 * 5),
        "p2": pytest.approx(40 - 0.2 * 5),
        "p3": 40.0,
        "p4": 40.0,
        "p5": 40.0,
    }
    assert answer["deals"] == {"p1": 20, "p2": 20, "p3": 0, "p4": 20, "p5": 0}
    assert {r["session"] for r in answer["history"]} == {"s2"}


def test_no_sessions_is_an_empty_ladder(tmp_path):
    assert replay_file(tmp_path, {"sessions": []}) == (
        {"grades": {}, "deals": {}, "history": []},
        0,
    )


def test_a_whole_number_written_with_a_point_is_whole(tmp_path):
    payload = {"params": {"min_deals": 8.0}, "sessions": [dict(S1, tables=5.0)]}
    answer, code = replay_file(tmp_path, payload)
    assert code == 0 and answer["deals"]["p1"] == 24


BAD_SESSION = [
    # (the session's change, the field, the English rule)
    ({"date": "2026-02-30"}, "sessions.0.date", "a date is a real calendar day"),
    ({"date": "1 March 2026"}, "sessions.0.date", "a date is a real calendar day"),
    ({"date": "2026-3-1"}, "sessions.0.date", "a date is a real calendar day"),
    ({"date": 20260301}, "sessions.0.date", "a date is a real calendar day"),
    ({"tables": -1}, "sessions.0.tables", "a whole number from 0 up"),
    ({"tables": 2.5}, "sessions.0.tables", "a whole number from 0 up"),
    ({"tables": True}, "sessions.0.tables", "a whole number from 0 up"),
    ({"tables": "5"}, "sessions.0.tables", "a whole number from 0 up"),
    ({"id": ""}, "sessions.0.id", "a non-empty text"),
    ({"id": 7}, "sessions.0.id", "a non-empty text"),
    ({"players": {"p1": 50}}, "sessions.0.players", "a list is expected"),
    ({"players": [5]}, "sessions.0.players.0", "a JSON object is expected"),
]


@pytest.mark.parametrize(("change", "field", "rule"), BAD_SESSION)
def test_a_bad_session_is_refused_by_field(tmp_path, change, field, rule):
    errors = refused(tmp_path, {"sessions": [dict(S1, **change)]}, "--lang", "en")
    assert list(errors) == [field]
    assert errors[field].startswith(rule)


@pytest.mark.parametrize("missing", ["id", "date", "tables", "players"])
def test_a_session_lacking_a_field_is_refused(tmp_path, missing):
    session = {k: v for k, v in S1.items() if k != missing}
    errors = refused(tmp_path, {"sessions": [session]}, "--lang", "en")
    assert errors == {f"sessions.0.{missing}": "this field is required"}


BAD_PLAYER = [
    ({"percent": 100.5}, "percent", "a percentage is a number from 0 to 100"),
    ({"percent": -0.1}, "percent", "a percentage is a number from 0 to 100"),
    ({"percent": "61.2"}, "percent", "a percentage is a number from 0 to 100"),
    ({"percent": True}, "percent", "a percentage is a number from 0 to 100"),
    ({"percent": None}, "percent", "a percentage is a number from 0 to 100"),
    ({"deals": -1}, "deals", "a whole number from 0 to 10000 is needed"),
    ({"deals": 2.5}, "deals", "a whole number from 0 to 10000 is needed"),
    ({"deals": 10**30}, "deals", "a whole number from 0 to 10000 is needed"),
    ({"deals": False}, "deals", "a whole number from 0 to 10000 is needed"),
    ({"person": ""}, "person", "a non-empty text is expected"),
    ({"person": 3}, "person", "a non-empty text is expected"),
]


@pytest.mark.parametrize(("change", "name", "rule"), BAD_PLAYER)
def test_a_bad_player_is_refused_by_field(tmp_path, change, name, rule):
    players = [S1["players"][0], dict(S1["players"][1], **change), S1["players"][2]]
    errors = refused(tmp_path, {"sessions": [S2, dict(S1, players=players)]}, "--lang", "en")
    assert errors == {f"sessions.1.players.1.{name}": rule}


@pytest.mark.parametrize("missing", ["person", "percent", "deals"])
def test_a_player_lacking_a_field_is_refused(tmp_path, missing):
    players = [{k: v for k, v in S1["players"][0].items() if k != missing}]
    errors = refused(tmp_path, {"sessions": [dict(S1, players=players)]}, "--lang", "en")
    assert errors == {f"sessions.0.players.0.{missing}": "this field is required"}


def test_a_person_twice_in_one_session_is_refused(tmp_path):
    players = [*S1["players"], player("p2", 30, 24)]
    errors = refused(tmp_path, {"sessions": [dict(S1, players=players)]}, "--lang", "en")
    assert errors == {
        "sessions.0.players.3.person": "this person is already in the session: players.1"
    }


def test_a_session_id_twice_is_refused(tmp_path):
    errors = refused(tmp_path, {"sessions": [S1, S2, dict(S2, date="2026-04-01")]}, "--lang", "en")
    assert errors == {"sessions.2.id": "this session id is already taken: sessions.1"}


BAD_PARAMS = [
    ({"k": "0.1"}, "params.k", "a number above 0 and at most 1 is needed"),
    ({"k": 0}, "params.k", "a number above 0 and at most 1 is needed"),
    ({"k": 1.5}, "params.k", "a number above 0 and at most 1 is needed"),
    ({"k_provisional": True}, "params.k_provisional", "a number above 0 and at most 1 is needed"),
    ({"k_provisional": None}, "params.k_provisional", "a number above 0 and at most 1 is needed"),
    ({"start": 101}, "params.start", "a number from 0 to 100 is needed"),
    ({"start": "50"}, "params.start", "a number from 0 to 100 is needed"),
    ({"min_deals": -1}, "params.min_deals", "a whole number from 0 up is needed"),
    ({"min_tables": 1.5}, "params.min_tables", "a whole number from 0 up is needed"),
    (
        {"provisional_deals": "100"},
        "params.provisional_deals",
        "a whole number from 0 up is needed",
    ),
    ({"decay": 0.5}, "params.decay", "unknown field"),
]


@pytest.mark.parametrize(("params", "field", "rule"), BAD_PARAMS)
def test_a_bad_parameter_is_refused(tmp_path, params, field, rule):
    errors = refused(tmp_path, {"params": params, "sessions": [S1]}, "--lang", "en")
    assert errors == {field: rule}


@pytest.mark.parametrize(
    ("payload", "errors"),
    [
        ("", {"json": "empty input: JSON expected"}),
        ("[]", {"json": "a JSON object is expected"}),
        ({"params": {}}, {"sessions": "this field is required"}),
        ({"sessions": {}}, {"sessions": "a list is expected"}),
        ({"sessions": [], "params": []}, {"params": "a JSON object is expected"}),
        ({"sessions": [], "ladder": "club"}, {"ladder": "unknown field"}),
    ],
)
def test_a_bad_request_is_refused(tmp_path, payload, errors):
    assert refused(tmp_path, payload, "--lang", "en") == errors


@pytest.mark.parametrize("text", ["{not json", '{"sessions": [NaN]}', '{"sessions": Infinity}'])
def test_text_that_is_no_json_is_refused(tmp_path, text):
    errors = refused(tmp_path, text, "--lang", "en")
    assert list(errors) == ["json"] and errors["json"].startswith("cannot parse JSON")


def test_every_problem_is_named_at_once(tmp_path):
    bad = dict(S1, date="2026-13-01", players=[player("p1", 101, -2)])
    errors = refused(tmp_path, {"params": {"k": -1}, "sessions": [bad]}, "--lang", "en")
    assert set(errors) == {
        "params.k",
        "sessions.0.date",
        "sessions.0.players.0.percent",
        "sessions.0.players.0.deals",
    }


def test_refusals_are_in_russian_by_default_through_the_process():
    bad = {"params": {"k": "x"}, "sessions": [dict(S1, date="2026-02-30")]}
    run = manage("replay", "--json", stdin=json.dumps(bad))
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert json.loads(run.stdout) == {
        "errors": {
            "params.k": "нужно число больше 0 и не больше 1",
            "sessions.0.date": "дата — настоящий календарный день в виде ГГГГ-ММ-ДД, "
            "например 2026-03-01",
        }
    }
    english = manage("replay", "--json", "--lang", "en", stdin=json.dumps(bad))
    assert english.returncode == 1
    assert json.loads(english.stdout)["errors"]["params.k"] == (
        "a number above 0 and at most 1 is needed"
    )


def test_bytes_that_are_not_utf8_are_refused_without_a_traceback():
    run = subprocess.run(
        [sys.executable, "manage.py", "ladder", "replay", "--json"],
        input=b'{"sessions": [{"id": "\xff"}]}',
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert run.returncode == 1
    assert b"Traceback" not in run.stderr
    assert "errors" in json.loads(run.stdout.decode("utf-8"))


def test_ladder_alone_or_a_replay_without_json_is_a_usage_error():
    alone = manage()
    assert alone.returncode != 0 and "usage:" in alone.stderr and "replay" in alone.stderr
    plain = manage("replay", stdin=json.dumps(GOOD))
    assert plain.returncode != 0 and "--json" in plain.stderr
    assert plain.stdout == "" and "Traceback" not in plain.stderr + alone.stderr
    with pytest.raises(CommandError):
        call_command("ladder", stdout=StringIO())
    with pytest.raises(CommandError, match="--json"):
        call_command("ladder", "replay", stdout=StringIO())


def test_every_message_has_both_languages_in_the_one_catalogue():
    for code, en in MESSAGES.items():
        ru = translated(en, "ru")
        assert en and ru != en, code
        assert any("а" <= ch <= "я" for ch in ru.lower()), code
        assert set(re.findall(r"{(\w+)}", ru)) == set(re.findall(r"{(\w+)}", en)), code
