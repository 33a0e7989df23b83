"""Reading a Russian sheet from JSON (``manage.py settle``; later the scorer's form and the
API) and answering it:

    {"rules": {"game": "sochi" | "leningrad" | "rostov", "ten": "checked" | "whisted",
               "responsibility": "full" | "half", "stalingrad": true | false},
     "declarer": "N", "contract": "6S" … "10NT" | "misere" | "passed",
     "defenders": {"E": "whist" | "pass" | "half", "S": …},
     "tricks": {"N": 6, "E": 3, "S": 1},
     "seats": ["N", "E", "S"], "auction": [...], "first_hand": "N",
     "board": {"players": 3, "number": 1}, "talon": "SA H7"}

Part of the pure core ``scoring.games.russian`` (see its package docstring)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum

from events.boards import BoardLayout, Seat, board_layout
from scoring.games.common.json_io import parse_whole, shown
from scoring.games.common.talon import read_talon
from scoring.games.russian.checks import validate
from scoring.games.russian.conventions import Convention, Responsibility, Rules, Ten
from scoring.games.russian.deal import Call, Deal
from scoring.games.russian.messages import InvalidInput, Problems
from scoring.games.russian.names import (
    DEFENCE_WORDS,
    SEAT_WORDS,
    Defence,
    read_bid,
    read_contract,
)
from scoring.games.russian.settlement import settle_valid, settlement_json

_DEAL_FIELDS = (
    "rules",
    "declarer",
    "contract",
    "defenders",
    "tricks",
    "seats",
    "auction",
    "first_hand",
    "board",
    "talon",
)
_RULES_FIELDS = ("game", "ten", "responsibility", "stalingrad")
#: A field broken on input leaves out the checks that lean on it: its problem is reported.
_DEPENDANTS = {
    "rules": {"defenders", "tricks"},
    "declarer": {"defenders", "tricks", "seats", "auction", "board", "first_hand"},
    "defenders": {"declarer", "tricks", "seats", "auction", "board", "first_hand"},
    "tricks": {"seats", "declarer", "auction", "board", "first_hand"},
    "seats": {"declarer", "tricks", "auction", "board", "first_hand"},
    "board": {"auction", "seats", "tricks", "first_hand"},
    "first_hand": {"auction"},
}


class _Reader:
    def __init__(self) -> None:
        self.problems = Problems()
        self.broken: set[str] = set()

    def fail(self, name: str, code: str, **params: object) -> None:
        self.problems.add(name, code, **params)
        self.broken.add(name.split(".")[0])

    def choice(self, value: object, words: Mapping[str, StrEnum], name: str):
        if isinstance(value, str) and value.strip().lower() in words:
            return words[value.strip().lower()]
        choices = ", ".join(dict.fromkeys(v.value for v in words.values()))
        self.fail(name, "choice", value=shown(value), choices=choices)
        return None

    def seat(self, value: object, name: str) -> Seat | None:
        if isinstance(value, str) and value.strip().upper() in SEAT_WORDS:
            return SEAT_WORDS[value.strip().upper()]
        self.fail(name, "seat", value=shown(value))
        return None

    def object(self, value: object, name: str) -> dict | None:
        if isinstance(value, dict):
            return value
        self.fail(name, "not_object")
        return None


def _words(kind: type[StrEnum]) -> dict[str, StrEnum]:
    return {member.value: member for member in kind}


def read_rules(data: object, r: _Reader) -> Rules:
    """The event's rules: the convention and its options (defaults filled in)."""
    if data is None:
        r.fail("rules.game", "required")
        return Rules()
    if not isinstance(data, dict):
        r.fail("rules", "not_object")
        return Rules()
    for key in data:
        if key not in _RULES_FIELDS:
            r.fail(f"rules.{key}", "unknown_field")
    if "game" not in data:
        r.fail("rules.game", "required")
        game = Convention.SOCHI
    else:
        game = r.choice(data["game"], _words(Convention), "rules.game") or Convention.SOCHI
    ten = None
    if data.get("ten") is not None:
        ten = r.choice(data["ten"], _words(Ten), "rules.ten")
    responsibility = None
    if data.get("responsibility") is not None:
        words = _words(Responsibility)
        responsibility = r.choice(data["responsibility"], words, "rules.responsibility")
    stalingrad = data.get("stalingrad", False)
    if stalingrad is None:
        stalingrad = False
    if not isinstance(stalingrad, bool):
        r.fail("rules.stalingrad", "boolean")
        stalingrad = False
    return Rules(game, ten, responsibility, stalingrad)


def _read_call(value: object, name: str, r: _Reader) -> Call | None:
    if isinstance(value, str):
        words = [w for w in re.split(r"[\s:,]+", value.strip()) if w]
        if len(words) != 2:
            r.fail(name, "call_format")
            return None
        value = {"seat": words[0], "call": words[1]}
    if not isinstance(value, dict) or "seat" not in value or "call" not in value:
        r.fail(name, "call_format")
        return None
    for key in value:
        if key not in ("seat", "call"):
            r.fail(f"{name}.{key}", "unknown_field")
    seat = r.seat(value["seat"], f"{name}.seat")
    said = read_bid(value["call"])
    if said is None:
        r.fail(f"{name}.call", "call_word", value=shown(value["call"]))
    if seat is None or said is None:
        return None
    return Call(seat, said)


def _read_board(value: object, r: _Reader) -> BoardLayout | None:
    value = r.object(value, "board")
    if value is None:
        return None
    for key in value:
        if key not in ("players", "number"):
            r.fail(f"board.{key}", "unknown_field")
    players = parse_whole(value.get("players"))
    if players not in (3, 4):
        r.fail("board.players", "board_players")
        return None
    number = parse_whole(value.get("number"))
    if number is None or not 1 <= number <= players:
        r.fail("board.number", "board_number", count=players)
        return None
    return board_layout(players, number)


def _read_seat_map(value: object, name: str, r: _Reader, read_one) -> dict | None:
    value = r.object(value, name)
    if value is None:
        return None
    read = {}
    for key, item in value.items():
        seat = r.seat(key, f"{name}.{key}")
        one = read_one(item, f"{name}.{key}")
        if seat is not None and one is not None:
            read[seat] = one
    return read


def deal_from_json(data: object) -> Deal:
    """A :class:`Deal` from its JSON form, checked. Raises :class:`InvalidInput` with every
    problem (shape and rules) by field."""
    r = _Reader()
    if not isinstance(data, dict):
        r.fail("deal", "not_object")
        raise InvalidInput(r.problems)
    for key in data:
        if key not in _DEAL_FIELDS:
            r.fail(key, "unknown_field")
    rules = read_rules(data.get("rules"), r)
    contract = None
    if data.get("contract") is None:
        r.fail("contract", "required")
    else:
        contract = read_contract(data["contract"])
        if contract is None:
            r.fail("contract", "contract_code", value=shown(data["contract"]))
    declarer = None if data.get("declarer") is None else r.seat(data["declarer"], "declarer")

    def decision(item: object, name: str) -> Defence | None:
        return r.choice(item, DEFENCE_WORDS, name)

    def count(item: object, name: str) -> int | None:
        whole = parse_whole(item)
        if whole is None or whole < 0:
            r.fail(name, "trick_count")
            return None
        if whole > 10:
            r.fail(name, "tricks_max")
            return None
        return whole

    defenders = {}
    if data.get("defenders") is not None:
        defenders = _read_seat_map(data["defenders"], "defenders", r, decision) or {}
    tricks = None
    if data.get("tricks") is not None:
        tricks = _read_seat_map(data["tricks"], "tricks", r, count)
    seats = None
    if data.get("seats") is not None:
        if not isinstance(data["seats"], list):
            r.fail("seats", "not_list")
        else:
            read = [r.seat(v, f"seats.{i}") for i, v in enumerate(data["seats"])]
            seats = tuple(read) if None not in read else None
    auction = None
    if data.get("auction") is not None:
        if not isinstance(data["auction"], list):
            r.fail("auction", "not_list")
        else:
            calls = [_read_call(v, f"auction.{i}", r) for i, v in enumerate(data["auction"])]
            auction = tuple(calls) if None not in calls else None
    first_hand = None
    if data.get("first_hand") is not None:
        first_hand = r.seat(data["first_hand"], "first_hand")
    board = None if data.get("board") is None else _read_board(data["board"], r)
    talon = None
    if data.get("talon") not in (None, "", []):
        talon = read_talon(data["talon"], "talon", r.problems)
        if talon is None:
            r.broken.add("talon")
    if contract is None:
        raise InvalidInput(r.problems)
    deal = Deal(
        contract=contract,
        declarer=declarer,
        defenders=defenders,
        tricks=tricks,
        seats=seats,
        auction=auction,
        first_hand=first_hand,
        board=board,
        rules=rules,
        talon=talon,
    )
    skip = set(r.broken)
    for source, dependants in _DEPENDANTS.items():
        if source in r.broken:
            skip |= dependants
    r.problems.merge(validate(deal), skip=skip)
    if r.problems:
        raise InvalidInput(r.problems)
    return deal


def settle_json(data: object) -> dict[str, object]:
    """JSON sheet in, JSON answer out (``scores``, ``pool``, ``mountain``, ``whists``,
    ``failed``); raises :class:`InvalidInput`."""
    return settlement_json(settle_valid(deal_from_json(data)))
