"""A ladder's replay from JSON and its answer: what ``manage.py ladder replay --json`` reads
and prints (docs/ladder.md «pct_grade_v1»).

In::

    {"params": {"k": 0.0025, "k_provisional": 0.0075, "start": 50,
                "provisional_deals": 100, "min_deals": 8, "min_tables": 2},   (each optional)
     "sessions": [{"id": "s1", "date": "2026-03-01", "tables": 5,
                   "players": [{"person": "p1", "percent": 61.2, "deals": 24}, …]}, …]}

Out: ``{"grades": {person: grade}, "deals": {person: rated deals}, "history": [{"session",
"person", "before", "expected", "actual", "after"}, …]}`` — full precision, one history row
per rated player and session. A bad request → ``{"errors": {field: rule}}``, the field its
JSON path (``sessions.3.players.1.percent``, ``params.k``, ``sessions.0.date``).

Part of the pure core ``scoring.ladder``."""

from __future__ import annotations

import datetime
import json
import math
import re

from scoring.ladder.grade import Entry, Ladder, Params, Session, replay
from scoring.ladder.messages import LadderInputError, Problems

FIELDS = ("params", "sessions")
#: A session's deals above this are a typing error, not a session (and would only make
#: ``k · d`` overflow a float).
MAX_DEALS = 10_000
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _number(value: object) -> float | None:
    """A JSON number as a float; None for anything else (a boolean is no number)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _whole(value: object) -> int | None:
    """A JSON whole number (8 or 8.0); None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _date(value: object) -> datetime.date | None:
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        return None


def _read_params(data: object, p: Problems) -> Params:
    if data is None or not isinstance(data, dict):
        p.add("params", "not_object")
        return Params()
    values: dict[str, object] = {}
    for key, value in data.items():
        name = f"params.{key}"
        if key in ("k", "k_provisional"):
            number = _number(value)
            if number is None or not 0 < number <= 1:
                p.add(name, "rate")
            else:
                values[key] = number
        elif key == "start":
            number = _number(value)
            if number is None or not 0 <= number <= 100:
                p.add(name, "grade")
            else:
                values[key] = number
        elif key in ("provisional_deals", "min_deals", "min_tables"):
            whole = _whole(value)
            if whole is None or whole < 0:
                p.add(name, "whole", minimum=0)
            else:
                values[key] = whole
        else:
            p.add(name, "unknown_field")
    return Params(**values)


def _required(data: dict, key: str, where: str, p: Problems) -> bool:
    if key not in data:
        p.add(f"{where}.{key}", "required")
        return False
    return True


def _field(data: dict, key: str, where: str, p: Problems, read, rule: str, ok=None, **args):
    """``data[key]`` read by ``read`` (None: not of its kind) and checked by ``ok``; a missing
    field is «required», a bad one ``rule`` (with ``args``), and the answer None."""
    if not _required(data, key, where, p):
        return None
    value = read(data[key])
    if value is None or (ok is not None and not ok(value)):
        p.add(f"{where}.{key}", rule, **args)
        return None
    return value


def _read_player(data: object, where: str, p: Problems) -> Entry | None:
    if not isinstance(data, dict):
        p.add(where, "not_object")
        return None
    person = _field(data, "person", where, p, _text, "text")
    percent = _field(data, "percent", where, p, _number, "percent", lambda v: 0 <= v <= 100)
    deals = _field(
        data,
        "deals",
        where,
        p,
        _whole,
        "whole_range",
        lambda v: 0 <= v <= MAX_DEALS,
        minimum=0,
        maximum=MAX_DEALS,
    )
    if person is None or percent is None or deals is None:
        return None
    return Entry(person, percent, deals)


def _read_session(data: object, where: str, p: Problems) -> Session | None:
    if not isinstance(data, dict):
        p.add(where, "not_object")
        return None
    ident = _field(data, "id", where, p, _text, "text")
    day = _field(data, "date", where, p, _date, "date")
    tables = _field(data, "tables", where, p, _whole, "whole", lambda v: v >= 0, minimum=0)
    players: list[Entry] = []
    whole_list = False
    if _required(data, "players", where, p):
        if not isinstance(data["players"], list):
            p.add(f"{where}.players", "not_list")
        else:
            whole_list = True
            seen: dict[str, int] = {}
            for j, item in enumerate(data["players"]):
                person = _text(item.get("person")) if isinstance(item, dict) else None
                if person is not None and person in seen:
                    p.add(f"{where}.players.{j}.person", "person_twice", index=seen[person])
                    whole_list = False
                elif person is not None:
                    seen[person] = j
                entry = _read_player(item, f"{where}.players.{j}", p)
                if entry is None:
                    whole_list = False
                elif whole_list:
                    players.append(entry)
    if ident is None or day is None or tables is None or not whole_list:
        return None
    return Session(ident, day, tables, tuple(players))


def read_request(data: object) -> tuple[Params, list[Session]]:
    """The parameters and the sessions of a JSON replay request; :class:`LadderInputError`
    with every problem by field."""
    p = Problems()
    if not isinstance(data, dict):
        p.add("json", "not_object")
        p.raise_if_any()
    for key in data:
        if key not in FIELDS:
            p.add(str(key), "unknown_field")
    params = _read_params(data["params"], p) if "params" in data else Params()
    sessions: list[Session] = []
    if "sessions" not in data:
        p.add("sessions", "required")
    elif not isinstance(data["sessions"], list):
        p.add("sessions", "not_list")
    else:
        ids: dict[str, int] = {}
        for i, item in enumerate(data["sessions"]):
            where = f"sessions.{i}"
            if isinstance(item, dict):
                ident = _text(item.get("id"))
                if ident is not None and ident in ids:
                    p.add(f"{where}.id", "session_twice", index=ids[ident])
                elif ident is not None:
                    ids[ident] = i
            session = _read_session(item, where, p)
            if session is not None:
                sessions.append(session)
    p.raise_if_any()
    return params, sessions


def ladder_json(ladder: Ladder) -> dict[str, object]:
    """The replay's answer: grades and rated deals by person (sorted), and the history."""
    people = sorted(ladder.standings)
    return {
        "grades": {person: ladder.standings[person].grade for person in people},
        "deals": {person: ladder.standings[person].deals for person in people},
        "history": [
            {
                "session": row.session,
                "person": row.person,
                "before": row.before,
                "expected": row.expected,
                "actual": row.actual,
                "after": row.after,
            }
            for row in ladder.history
        ],
    }


def replay_json(data: object) -> dict[str, object]:
    """One JSON replay request in, its answer out; raises :class:`LadderInputError`."""
    params, sessions = read_request(data)
    return ladder_json(replay(sessions, params))


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def answer_json_text(text: str, lang: str = "ru") -> tuple[bool, dict[str, object]]:
    """(ok, the answer or ``{"errors": {field: text}}``) for a JSON request text. Never
    raises on bad input."""
    p = Problems()
    if not text.strip():
        p.add("json", "empty")
        return False, {"errors": LadderInputError(p.by_field).render(lang)}
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        p.add("json", "json", detail=str(error))
        return False, {"errors": LadderInputError(p.by_field).render(lang)}
    try:
        return True, replay_json(data)
    except LadderInputError as error:
        return False, {"errors": error.render(lang)}
