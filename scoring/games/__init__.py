"""The games an event may play, behind one small interface (docs/architecture.md,
«Adding a game»): the seed's Austrian game (``scoring.rules``, the default; it moves to
``scoring/games/austrian/`` later, unchanged) and the Russian one of the «Кодекс
преферанса» in its conventions Сочи, Ленинград and Ростов (``scoring.games.russian``).

A :class:`Game` gives what the rest of the app needs of a game — its sheet's JSON form
read and checked, the settlement of one deal and the settlement's JSON form, its play
(the solver's rules, and the position a stored sheet played: ``scoring.games.play``) — and the
callers (``manage.py settle``; later the sheets, the standings, the pages and the API)
ask it rather than the game's name. The game of a JSON deal is its ``rules.game``: absent
(or ``austrian``) for the Austrian game, exactly as before there was a choice; ``sochi``,
``leningrad`` or ``rostov`` for the Russian one. Both games' problems are the rules cores'
one :class:`InvalidInput` (a field → its messages).

Pure: imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scoring import rules as austrian
from scoring.games import russian
from scoring.games.play import (
    AUSTRIAN_PLAY,
    RUSSIAN_PLAY,
    NoValue,
    PlayRules,
    Position,
    austrian_position,
    russian_position,
)
from scoring.rules.json_io import shown
from scoring.rules.messages import InvalidInput, Problems

AUSTRIAN = "austrian"


@dataclass(frozen=True)
class Game:
    """One game's parts.

    - ``from_json``: a JSON sheet → the game's checked deal (raises :class:`InvalidInput`);
    - ``check``: a deal → its :class:`Problems` (empty when valid);
    - ``settle``: a deal → its settlement (raises :class:`InvalidInput`);
    - ``to_json``: a settlement → the JSON answer of ``settle --json``;
    - ``play``: its rules of play, as the double-dummy solver takes them;
    - ``position``: a stored sheet's essence → the position its table played (a
      :class:`Position`), :class:`NoValue` for a deal played with no double-dummy value
      (распасы), None for one not played.
    """

    name: str
    conventions: tuple[str, ...]
    from_json: Callable[[object], object]
    check: Callable[[object], Problems]
    settle: Callable[[object], object]
    to_json: Callable[[object], dict[str, object]]
    play: PlayRules
    position: Callable[[dict | None], Position | NoValue | None]

    def settle_json(self, data: object) -> dict[str, object]:
        """JSON sheet in, JSON answer out; raises :class:`InvalidInput`."""
        return self.to_json(self.settle(self.from_json(data)))


def _austrian_from_json(data: object):
    # «"game": "austrian"» names the default; the Austrian reader knows no such rule.
    if isinstance(data, dict) and isinstance(data.get("rules"), dict) and "game" in data["rules"]:
        rules = {k: v for k, v in data["rules"].items() if k != "game"}
        data = {**data, "rules": rules}
    return austrian.deal_from_json(data)


AUSTRIAN_GAME = Game(
    name=AUSTRIAN,
    conventions=(AUSTRIAN,),
    from_json=_austrian_from_json,
    check=austrian.validate,
    settle=austrian.settle,
    to_json=austrian.settlement_json,
    play=AUSTRIAN_PLAY,
    position=austrian_position,
)
RUSSIAN_GAME = Game(
    name="russian",
    conventions=tuple(c.value for c in russian.Convention),
    from_json=russian.deal_from_json,
    check=russian.validate,
    settle=russian.settle,
    to_json=russian.settlement_json,
    play=RUSSIAN_PLAY,
    position=russian_position,
)

#: An event's game (the ``rules.game`` of a JSON deal) → its :class:`Game`.
GAMES: dict[str, Game] = {
    convention: game for game in (AUSTRIAN_GAME, RUSSIAN_GAME) for convention in game.conventions
}


def game_named(name: str | None) -> Game:
    """The game of ``name`` (None: the Austrian default); KeyError for an unknown one."""
    return GAMES[AUSTRIAN if name is None else name]


def game_of_json(data: object) -> Game:
    """The game of a JSON deal, by its ``rules.game``; raises :class:`InvalidInput` naming
    ``rules.game`` when it names no game. Without it, the Austrian game."""
    rules = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(rules, dict) or "game" not in rules:
        return AUSTRIAN_GAME
    name = rules["game"]
    if isinstance(name, str) and name.strip().lower() in GAMES:
        return GAMES[name.strip().lower()]
    problems = Problems()
    problems.add("rules.game", "choice", value=shown(name), choices=", ".join(GAMES))
    raise InvalidInput(problems)


def settle_json(data: object) -> dict[str, object]:
    """A JSON deal of any game settled: its game's JSON answer; raises :class:`InvalidInput`."""
    return game_of_json(data).settle_json(data)


__all__ = [
    "AUSTRIAN_GAME",
    "GAMES",
    "RUSSIAN_GAME",
    "Game",
    "InvalidInput",
    "NoValue",
    "PlayRules",
    "Position",
    "game_named",
    "game_of_json",
    "settle_json",
]
