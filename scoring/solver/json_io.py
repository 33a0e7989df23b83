"""Positions from JSON and the answers to them: what ``manage.py analyse --json`` reads and
prints (docs/analysis.md).

- A position: ``{"hands": {"N": ["SA", …], "E": […], "S": […]}, "declarer": "N",
  "trump": "hearts", "defence": "both" | "E", "talon": ["H7", "D8"]}`` →
  ``{"tricks": 7}``, with ``"discard": [two cards]`` when it has a talon.
- Without ``declarer`` and ``trump``: a ten-card deal and its talon → the whole table,
  seat → trump → ``{"talon": n, "no_talon": m}``.
- ``"rules": {"game": "sochi" | "leningrad" | "rostov"}``: the Russian game's play — no
  duty to beat, ``"leader"`` (first hand) leads the first trick, ``"trump": "notrump"``
  (БК) or ``"contract": "misere"`` (or a bid, ``"7NT"``), both defenders always playing;
  the whole table has the columns ``notrump`` and ``misere`` too. Without ``rules`` (or
  with ``"game": "austrian"``) a position is Austrian.
- A list of positions → a list of answers, in order.
- A bad position → ``{"errors": {field: rule}}`` (in a list the field is prefixed by the
  position's index, ``1.hands.N``).

Part of the pure core ``scoring.solver``."""

from __future__ import annotations

import json
from collections.abc import Callable

from events.cards import CardError, card_name, parse_card
from scoring import games
from scoring.games import InvalidInput
from scoring.games.common.play import NoValue
from scoring.solver import (
    SEATS,
    PlayRules,
    check_position,
    deal_table,
    solve,
)
from scoring.solver.messages import PositionError, Problems

#: The fields of an Austrian position (a position without ``rules``), as they always were.
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


def _read_game(data: dict, p: Problems) -> games.Game:
    """The game of a position: its ``rules.game``'s (the default game without ``rules``,
    or with broken ones)."""
    if "rules" not in data:
        return games.DEFAULT
    rules = data["rules"]
    if not isinstance(rules, dict):
        p.add("rules", "not_object")
        return games.DEFAULT
    if "game" not in rules:
        p.add("rules.game", "required")
        return games.DEFAULT
    try:
        game = games.of_json({"rules": rules})
    except InvalidInput as error:
        for name, messages in error.problems.by_field.items():
            p.by_field.setdefault(name, []).extend(messages)
        return games.DEFAULT
    # The game's own options are welcome and play no part in the play.
    options = game.options
    for key, value in rules.items():
        if key == "game":
            continue
        if key not in options:
            p.add(f"rules.{key}", "unknown_field")
        elif value is not None and not any(
            value == allowed and type(value) is type(allowed) for allowed in options[key]
        ):
            choices = ", ".join(shown(allowed) for allowed in options[key])
            p.add(f"rules.{key}", "choice", value=shown(value), choices=choices)
    return game


def read_play_rules(data: dict, p: Problems) -> PlayRules:
    """The play rules of a position: its ``rules.game``'s own (``Game.play``)."""
    return _read_game(data, p).play


def _read_contract(data: dict, trump: object, p: Problems, game: games.Game) -> tuple[object, bool]:
    """(trump, misere) from a ``contract`` (мизер, or a bid: its strain) and ``trump``."""
    value = data["contract"]
    read = game.strain_of(value)
    if read is None:
        p.add("contract", "contract", value=shown(value))
        return trump, False
    if isinstance(read, NoValue):
        p.add("contract", "passed_not_analysed")
        return trump, False
    strain, misere = read
    if trump is not None and trump != strain:
        p.add("contract", "trump_and_contract", trump=shown(trump), contract=shown(value))
    return strain, misere


def read_position(data: object) -> dict[str, object]:
    """The arguments of :func:`scoring.solver.solve` (or, without declarer and trump, of
    :func:`scoring.solver.deal_table`) from a JSON position; :class:`PositionError` with
    every problem by field."""
    p = Problems()
    if not isinstance(data, dict):
        p.add("position", "not_object")
        p.raise_if_any()
    game = _read_game(data, p)
    play = game.play
    # Broken rules leave the game unknown: every game's fields are welcome, and the
    # position's own checks (which lean on the rules) wait for the rules to be right.
    rules_broken = any(name.split(".")[0] == "rules" for name in p.by_field)
    fields = FIELDS + ("rules",) * ("rules" in data)
    if rules_broken or not play.declarer_leads:
        fields += ("leader",)
    if rules_broken or play.misere:
        fields += ("contract",)
    for key in data:
        if key not in fields:
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
        p.add("trump", "choice", value=shown(trump), choices=", ".join(play.strains))
        trump = "?"
    misere = False
    if play.misere and not rules_broken:
        if data.get("contract") is not None:
            trump, misere = _read_contract(data, trump, p, game)
        # The contract stands for the trump: the pairing with the declarer is worded so.
        if declarer is None and trump is not None:
            p.add("declarer", "declarer_for_strain")
        elif declarer is not None and trump is None and "contract" not in p:
            p.add("trump", "strain_missing")
    leader = None
    if "leader" in fields and data.get("leader") is not None:
        leader = _seat(data["leader"])
        if leader not in tuple(SEATS):
            p.add("leader", "seat", value=shown(data["leader"]))
    defence = data.get("defence", "both")
    if isinstance(defence, str):
        defence = "both" if defence.strip().lower() == "both" else defence.strip().upper()
    else:
        defence = shown(defence)
    if "hands" in data and isinstance(data["hands"], dict) and not rules_broken:
        check_position(
            hands,
            declarer,
            trump,
            defence,
            talon,
            problems=p,
            rules=play,
            leader=leader,
            misere=misere,
        )
    p.raise_if_any()
    return {
        "hands": hands,
        "declarer": declarer,
        "trump": trump,
        "defence": defence,
        "talon": talon,
        "rules": play,
        "leader": leader,
        "misere": misere,
    }


def analyse_json(data: object) -> object:
    """One JSON position in, its answer out; raises :class:`PositionError`."""
    position = read_position(data)
    rules, leader = position["rules"], position["leader"]
    if position["declarer"] is None:
        return deal_table(position["hands"], position["talon"], rules=rules, leader=leader)
    tricks, discard = solve(
        position["hands"],
        position["declarer"],
        position["trump"],
        position["defence"],
        position["talon"],
        rules=rules,
        leader=leader,
        misere=position["misere"],
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
