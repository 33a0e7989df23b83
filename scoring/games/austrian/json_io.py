"""Reading deals and rules from JSON (the scorer's form, the API, ``manage.py settle``),
and answering batches of JSON requests.

Part of the pure core ``scoring.games.austrian`` (see its package docstring)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from enum import StrEnum
from fractions import Fraction

from events.boards import (
    BoardLayout,
    Seat,
    board_layout,
)
from scoring.games.austrian.deal import (
    Call,
    Deal,
)
from scoring.games.austrian.event_rules import (
    DEFAULT_TRUMP_STAKES,
    FixedPot,
    Pot,
    Rules,
    RunningPot,
    TrumpPot,
)
from scoring.games.austrian.messages import (
    InvalidInput,
    Problems,
)
from scoring.games.austrian.names import (
    _BID_WORDS,
    _CONTRACT_WORDS,
    _DEFENCE_WORDS,
    _SEAT_WORDS,
    _SUIT_WORDS,
    SEED_SUIT_ORDER,
    SUIT_ORDERS,
    Bid,
    Contract,
    Defence,
    Suit,
)
from scoring.games.austrian.settlement import (
    _settle_valid,
    settlement_json,
    validate,
)
from scoring.games.common.json_io import parse_amount, parse_whole, shown
from scoring.games.common.talon import read_talon

# --- JSON in ------------------------------------------------------------------------------

_DEAL_FIELDS = (
    "rules",
    "declarer",
    "contract",
    "trump",
    "defenders",
    "tricks",
    "seats",
    "auction",
    "first_hand",
    "board",
    "talon",
)
_POT_FIELDS = {
    "fixed": {"stake"},
    "running": {"pot_before", "limit", "ante"},
    "trump": {"stakes"},
}
_DEPENDANTS = {
    "rules": {"trump"},
    "declarer": {"defenders", "tricks", "seats", "auction", "board", "first_hand"},
    "defenders": {"declarer", "tricks", "seats", "auction", "board", "first_hand"},
    "seats": {"auction", "board", "first_hand"},
    "board": {"auction", "seats", "first_hand"},
    "first_hand": {"auction"},
}
_POT_WORDS = {"fixed": "fixed", "duplicate": "fixed", "running": "running", "trump": "trump"}


class _Reader:
    """Reads one JSON value into typed parts, noting problems by field."""

    def __init__(self) -> None:
        self.problems = Problems()
        self.broken: set[str] = set()

    def fail(self, name: str, code: str, **params: object) -> None:
        self.problems.add(name, code, **params)
        self.broken.add(name.split(".")[0])

    def choice(
        self, value: object, words: Mapping[str, StrEnum], name: str, choices: Iterable[object]
    ):
        if isinstance(value, str) and value.strip().lower() in words:
            return words[value.strip().lower()]
        self.fail(name, "choice", value=shown(value), choices=", ".join(str(c) for c in choices))
        return None

    def seat(self, value: object, name: str) -> Seat | None:
        if isinstance(value, str) and value.strip().upper() in _SEAT_WORDS:
            return _SEAT_WORDS[value.strip().upper()]
        self.fail(name, "seat", value=shown(value))
        return None

    def amount(self, value: object, name: str, positive: bool = False) -> Fraction | None:
        parsed = parse_amount(value)
        if parsed is None or parsed < 0 or (positive and parsed == 0):
            self.fail(name, "positive" if positive else "amount")
            return None
        return parsed


def _read_rules(data: object, r: _Reader) -> Rules:
    if data is None:
        return Rules()
    if not isinstance(data, dict):
        r.fail("rules", "not_object")
        return Rules()
    kind = r.choice(data.get("pot", "fixed"), _POT_WORDS, "rules.pot", _POT_FIELDS)
    order = SEED_SUIT_ORDER
    if "suit_order" in data:
        order = _read_suit_order(data["suit_order"], r) or SEED_SUIT_ORDER
    for key in data:
        if key in ("pot", "suit_order"):
            continue
        if not any(key in fields for fields in _POT_FIELDS.values()):
            r.fail(f"rules.{key}", "unknown_field")
        elif kind is not None and key not in _POT_FIELDS[kind]:
            r.fail(f"rules.{key}", "field_not_for_pot", pot=kind)
    if kind == "running":
        if "pot_before" not in data:
            r.fail("rules.pot_before", "required")
            before = Fraction(0)
        else:
            before = r.amount(data["pot_before"], "rules.pot_before") or Fraction(0)
        limit = data.get("limit")
        limit = None if limit is None else r.amount(limit, "rules.limit", positive=True)
        ante = r.amount(data.get("ante", 10), "rules.ante")
        pot: Pot = RunningPot(before, limit, Fraction(10) if ante is None else ante)
    elif kind == "trump":
        stakes = dict(DEFAULT_TRUMP_STAKES)
        given = data.get("stakes", {})
        if not isinstance(given, dict):
            r.fail("rules.stakes", "not_object")
            given = {}
        for key, value in given.items():
            suit = r.choice(key, _SUIT_WORDS, f"rules.stakes.{key}", Suit)
            amount = r.amount(value, f"rules.stakes.{key}", positive=True)
            if suit is not None and amount is not None:
                stakes[suit] = amount
        pot = TrumpPot(stakes)
    else:
        stake = r.amount(data.get("stake", 100), "rules.stake", positive=True)
        pot = FixedPot(Fraction(100) if stake is None else stake)
    return Rules(pot=pot, suit_order=order)


def _read_suit_order(value: object, r: _Reader) -> tuple[Suit, ...] | None:
    if isinstance(value, str) and value.strip().lower() in SUIT_ORDERS:
        return SUIT_ORDERS[value.strip().lower()]
    if isinstance(value, list):
        suits = [_SUIT_WORDS.get(v.strip().lower()) if isinstance(v, str) else None for v in value]
        if len(suits) == 4 and None not in suits and len(set(suits)) == 4:
            return tuple(suits)
    r.fail("rules.suit_order", "suit_order")
    return None


def _read_call(value: object, name: str, r: _Reader) -> Call | None:
    if isinstance(value, str):
        words = [w for w in re.split(r"[\s:,]+", value.strip()) if w]
        if len(words) not in (2, 3):
            r.fail(name, "call_format")
            return None
        value = {"seat": words[0], "call": words[1]} | (
            {"suit": words[2]} if len(words) == 3 else {}
        )
    if not isinstance(value, dict) or "seat" not in value or "call" not in value:
        r.fail(name, "call_format")
        return None
    for key in value:
        if key not in ("seat", "call", "suit"):
            r.fail(f"{name}.{key}", "unknown_field")
    seat = r.seat(value["seat"], f"{name}.seat")
    bid = r.choice(value["call"], _BID_WORDS, f"{name}.call", Bid)
    suit = None
    if value.get("suit") is not None:
        suit = r.choice(value["suit"], _SUIT_WORDS, f"{name}.suit", Suit)
        # Only «игра» carries a suit («червы» may repeat its own).
        if bid not in (None, Bid.GAME) and suit is not None and bid is not Bid.HEARTS:
            r.fail(f"{name}.suit", "unknown_field")
        elif bid is Bid.HEARTS and suit not in (None, Suit.HEARTS):
            r.fail(f"{name}.suit", "hearts_trump")
    if seat is None or bid is None:
        return None
    return Call(seat, bid, suit)


def _read_board(value: object, r: _Reader) -> BoardLayout | None:
    if not isinstance(value, dict):
        r.fail("board", "not_object")
        return None
    for key in value:
        if key not in ("players", "number"):
            r.fail(f"board.{key}", "unknown_field")
    players = parse_whole(value.get("players"))
    if players not in (3, 4):
        r.fail("board.players", "board_players")
        return None
    count = players
    num = parse_whole(value.get("number"))
    if num is None or not 1 <= num <= count:
        r.fail("board.number", "board_number", count=count)
        return None
    return board_layout(players, num)


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
    rules = _read_rules(data.get("rules"), r)
    contract = None
    if "contract" not in data:
        r.fail("contract", "required")
    else:
        contract = r.choice(data["contract"], _CONTRACT_WORDS, "contract", Contract)
    declarer = None if data.get("declarer") is None else r.seat(data["declarer"], "declarer")
    trump = None
    if data.get("trump") is not None:
        trump = r.choice(data["trump"], _SUIT_WORDS, "trump", Suit)
    defenders: dict[Seat, Defence] = {}
    if data.get("defenders") is not None:
        if not isinstance(data["defenders"], dict):
            r.fail("defenders", "not_object")
        else:
            for key, value in data["defenders"].items():
                seat = r.seat(key, f"defenders.{key}")
                decision = r.choice(value, _DEFENCE_WORDS, f"defenders.{key}", Defence)
                if seat is not None and decision is not None:
                    defenders[seat] = decision
    tricks: dict[Seat, int] | None = None
    if data.get("tricks") is not None:
        if not isinstance(data["tricks"], dict):
            r.fail("tricks", "not_object")
        else:
            tricks = {}
            for key, value in data["tricks"].items():
                seat = r.seat(key, f"tricks.{key}")
                count = parse_whole(value)
                if count is None or count < 0:
                    r.fail(f"tricks.{key}", "trick_count")
                elif seat is not None:
                    tricks[seat] = count
    seats = None
    if data.get("seats") is not None:
        if not isinstance(data["seats"], list):
            r.fail("seats", "not_list")
        else:
            read = [r.seat(v, f"seats.{i}") for i, v in enumerate(data["seats"])]
            seats = tuple(s for s in read if s is not None) if None not in read else None
    auction = None
    if data.get("auction") is not None:
        if not isinstance(data["auction"], list):
            r.fail("auction", "not_list")
        else:
            read_calls = [_read_call(v, f"auction.{i}", r) for i, v in enumerate(data["auction"])]
            auction = tuple(read_calls) if None not in read_calls else None
    first_hand = None
    if data.get("first_hand") is not None:
        first_hand = r.seat(data["first_hand"], "first_hand")
    board = None if data.get("board") is None else _read_board(data["board"], r)
    talon = None
    if data.get("talon") not in (None, "", []):
        talon = read_talon(data["talon"], "talon", r.problems)
        if talon is None:
            r.broken.add("talon")
    deal = Deal(
        contract=contract,
        declarer=declarer,
        trump=trump,
        defenders=defenders,
        tricks=tricks,
        seats=seats,
        auction=auction,
        first_hand=first_hand,
        board=board,
        rules=rules,
        talon=talon,
    )
    if contract is not None:
        # Rules that lean on a field broken on input are not checked: its problem is reported.
        skip = set(r.broken)
        for source, dependants in _DEPENDANTS.items():
            if source in r.broken:
                skip |= dependants
        r.problems.merge(validate(deal), skip=skip)
    if r.problems:
        raise InvalidInput(r.problems)
    return deal


def settle_json(data: object) -> dict[str, object]:
    """JSON deal in, JSON answer out; raises :class:`InvalidInput`."""
    return settlement_json(_settle_valid(deal_from_json(data)))


# --- Batches of JSON requests -------------------------------------------------------------
