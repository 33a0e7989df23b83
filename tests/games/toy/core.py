"""The toy game's pure core: a JSON sheet read (:func:`deal_from_json`), checked
(:func:`validate`), settled (:func:`settle`) and answered (:func:`settlement_json`).

Pure: imports nothing from Django."""

from __future__ import annotations

from dataclasses import dataclass, field

from events.boards import Seat, board_layout
from scoring.games.common.json_io import parse_whole, shown
from scoring.games.common.messages import InvalidInput
from tests.games.toy.messages import ToyProblems

NAME = "toy"
LOW, HIGH = 6, 10
#: Made: the declarer's tricks, twice; down: this.
DOWN = -10
#: What a JSON sheet may hold.
FIELDS = ("rules", "board", "seats", "first_hand", "declarer", "contract", "tricks")


@dataclass(frozen=True)
class Deal:
    """One toy deal: the active seats (first hand first), the declarer, his contract (the
    tricks he names) and every seat's tricks. ``talon``: none (the sheets ask every core's
    deal for its talon)."""

    seats: tuple[Seat, ...]
    declarer: Seat | None
    contract: int | None
    tricks: dict[Seat, int] = field(default_factory=dict)
    talon: None = None


@dataclass(frozen=True)
class Settlement:
    deal: Deal
    made: bool
    scores: dict[Seat, int]

    @property
    def failed(self) -> list[Seat]:
        return [] if self.made else [self.deal.declarer]


def _seat(value: object, name: str, problems: ToyProblems) -> Seat | None:
    try:
        return Seat(str(value).strip().upper())
    except ValueError:
        problems.add(name, "seat", value=shown(value))
        return None


def _layout(data: dict, problems: ToyProblems) -> tuple[Seat, ...]:
    """The active seats: the set's box layout (``board``) or the sheet's own ``seats``."""
    board = data.get("board")
    if isinstance(board, dict):
        try:
            return tuple(board_layout(int(board["players"]), int(board["number"])).active_seats)
        except (KeyError, TypeError, ValueError):
            problems.add("board", "board_players")
            return ()
    seats = data.get("seats")
    if not isinstance(seats, list):
        problems.add("seats", "required")
        return ()
    found = tuple(s for s in (_seat(v, "seats", problems) for v in seats) if s)
    if len(set(found)) != 3 or len(found) != 3:
        problems.add("seats", "seats_count")
    return found


def deal_from_json(data: object) -> Deal:
    """A JSON sheet → a checked :class:`Deal`; raises :class:`InvalidInput`."""
    problems = ToyProblems()
    if not isinstance(data, dict):
        problems.add("", "not_object")
        raise InvalidInput(problems)
    for key in data:
        if key not in FIELDS:
            problems.add(str(key), "unknown_field")
    seats = _layout(data, problems)
    declarer = None
    if data.get("declarer") in (None, ""):
        problems.add("declarer", "required")
    else:
        declarer = _seat(data["declarer"], "declarer", problems)
    contract = None
    if data.get("contract") in (None, ""):
        problems.add("contract", "required")
    else:
        raw = data["contract"]
        contract = parse_whole(int(raw) if isinstance(raw, str) and raw.strip().isdigit() else raw)
        if contract is None:
            problems.add("contract", "toy_contract", low=LOW, high=HIGH)
    tricks: dict[Seat, int] = {}
    given = data.get("tricks") or {}
    if not isinstance(given, dict):
        problems.add("tricks", "not_object")
        given = {}
    for key, value in given.items():
        seat = _seat(key, f"tricks.{key}", problems)
        count = parse_whole(value)
        if count is None or count < 0:
            problems.add(f"tricks.{key}", "trick_count")
        elif seat is not None:
            tricks[seat] = count
    if problems:
        raise InvalidInput(problems)
    deal = Deal(seats=seats, declarer=declarer, contract=contract, tricks=tricks)
    found = validate(deal)
    if found:
        raise InvalidInput(found)
    return deal


def validate(deal: Deal) -> ToyProblems:
    """What breaks the toy's rules (empty when the deal is valid)."""
    problems = ToyProblems()
    if deal.declarer is not None and deal.declarer not in deal.seats:
        problems.add("declarer", "seat_not_active", seat=deal.declarer)
    if deal.contract is None or not LOW <= deal.contract <= HIGH:
        problems.add("contract", "toy_contract", low=LOW, high=HIGH)
    for seat in deal.tricks:
        if seat not in deal.seats:
            problems.add(f"tricks.{seat.value}", "seat_not_active", seat=seat)
    if set(deal.tricks) != set(deal.seats):
        problems.add("tricks", "toy_tricks_all", seats=", ".join(s.value for s in deal.seats))
    elif sum(deal.tricks.values()) != 10:
        problems.add("tricks", "tricks_sum", total=sum(deal.tricks.values()))
    return problems


def settle(deal: Deal) -> Settlement:
    """The deal's scores; raises :class:`InvalidInput` for a deal that breaks a rule."""
    problems = validate(deal)
    if problems:
        raise InvalidInput(problems)
    took = deal.tricks[deal.declarer]
    made = took >= deal.contract
    scores = {
        seat: (2 * took if made else DOWN) if seat == deal.declarer else deal.tricks[seat]
        for seat in deal.seats
    }
    return Settlement(deal=deal, made=made, scores=scores)


def settlement_json(settlement: Settlement) -> dict[str, object]:
    """The JSON answer: every seat's score, the seat that failed, whether it was made."""
    return {
        "scores": {s.value: settlement.scores[s] for s in settlement.deal.seats},
        "failed": [s.value for s in settlement.failed],
        "made": settlement.made,
    }
