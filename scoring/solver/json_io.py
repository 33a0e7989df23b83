"""Positions from JSON and the answers to them: what ``manage.py analyse --json`` reads and
prints (docs/analysis.md).

- A position: ``{"hands": {"N": ["SA", …], "E": […], "S": […]}, "declarer": "N",
  "trump": "hearts", "defence": "both" | "E", "talon": ["H7", "D8"]}`` →
  ``{"tricks": 7}``, with ``"discard": [two cards]`` when it has a talon.
- Without ``declarer`` and ``trump``: a ten-card deal and its talon → the whole table,
  seat → trump → ``{"talon": n, "no_talon": m}``.
- A list of positions → a list of answers, in order.
- A bad position → ``{"errors": {field: rule}}`` (in a list the field is prefixed by the
  position's index, ``1.hands.N``).

Part of the pure core ``scoring.solver``."""

from __future__ import annotations

import json
from collections.abc import Callable

from events.cards import CardError, card_name, parse_card
from scoring.solver import SEATS, check_position, deal_table, solve
from scoring.solver.messages import PositionError, Problems

FIELDS = ("hands", "declarer", "trump", "defence", "talon")


def shown(value: object) -> str:
    """A bad input value as it was written, for a message."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _cards(value: object, name: str, p: Problems) -> list[int] | None:
    if not isinstance(value, list):
        p.add(name, "not_list")
        return None
    out = []
    for text in value:
        try:
            out.append(parse_card(text))
        except CardError:
            p.add(name, "unknown_card", value=shown(text))
    return out


def _seat(value: object) -> object:
    return value.strip().upper() if isinstance(value, str) else value


def read_position(data: object) -> dict[str, object]:
    """The arguments of :func:`scoring.solver.solve` (or, without declarer and trump, of
    :func:`scoring.solver.deal_table`) from a JSON position; :class:`PositionError` with
    every problem by field."""
    p = Problems()
    if not isinstance(data, dict):
        p.add("position", "not_object")
        p.raise_if_any()
    for key in data:
        if key not in FIELDS:
            p.add(str(key), "unknown_field")
    hands: dict[str, list[int]] = {}
    if "hands" not in data:
        p.add("hands", "required")
    elif not isinstance(data["hands"], dict):
        p.add("hands", "not_object")
    else:
        for seat, cards in data["hands"].items():
            parsed = _cards(cards, f"hands.{seat}", p)
            hands[seat] = parsed if parsed is not None else []
    talon = None
    if data.get("talon") is not None:
        talon = _cards(data["talon"], "talon", p)
    declarer = _seat(data.get("declarer"))
    if declarer is not None and declarer not in tuple(SEATS):
        p.add("declarer", "seat", value=shown(data["declarer"]))
        declarer = "?"
    trump = data.get("trump")
    if isinstance(trump, str):
        trump = trump.strip().lower()
    elif trump is not None:
        p.add("trump", "choice", value=shown(trump), choices="spades, clubs, diamonds, hearts")
        trump = "?"
    defence = data.get("defence", "both")
    if isinstance(defence, str):
        defence = "both" if defence.strip().lower() == "both" else defence.strip().upper()
    else:
        defence = shown(defence)
    if "hands" in data and isinstance(data["hands"], dict):
        check_position(hands, declarer, trump, defence, talon, problems=p)
    p.raise_if_any()
    return {
        "hands": hands,
        "declarer": declarer,
        "trump": trump,
        "defence": defence,
        "talon": talon,
    }


def analyse_json(data: object) -> object:
    """One JSON position in, its answer out; raises :class:`PositionError`."""
    position = read_position(data)
    if position["declarer"] is None:
        return deal_table(position["hands"], position["talon"])
    tricks, discard = solve(
        position["hands"],
        position["declarer"],
        position["trump"],
        position["defence"],
        position["talon"],
    )
    answer: dict[str, object] = {"tricks": tricks}
    if discard is not None:
        answer["discard"] = [card_name(c) for c in discard]
    return answer


def answer_json_text(
    text: str, handle: Callable[[object], object] = analyse_json, lang: str = "ru"
) -> tuple[bool, object]:
    """Answer a JSON text holding one position (an object) or a list of them: (ok, the
    answer or ``{"errors": {field: text}}``). Never raises on bad input."""
    p = Problems()
    if not text.strip():
        p.add("json", "empty")
        return False, {"errors": PositionError(p.by_field).render(lang)}
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        p.add("json", "json", detail=str(error))
        return False, {"errors": PositionError(p.by_field).render(lang)}
    if isinstance(data, list):
        answers = []
        errors: dict[str, list] = {}
        for i, item in enumerate(data):
            try:
                answers.append(handle(item))
            except PositionError as error:
                errors.update(error.prefixed(f"{i}."))
        if errors:
            return False, {"errors": PositionError(errors).render(lang)}
        return True, answers
    try:
        return True, handle(data)
    except PositionError as error:
        return False, {"errors": error.render(lang)}
