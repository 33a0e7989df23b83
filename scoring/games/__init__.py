"""The one door to the games (docs/architecture.md, «Adding a game»): which game an event, a
stored result or a JSON deal plays. Nothing else picks a game or asks a game's name.

Each game is a folder ``scoring/games/<kind>/`` whose ``game.py`` holds its
:class:`~scoring.games.base.Game` — its pure core, its play, its options and their
defaults, and its Django parts (sheets adapter, scorer form) by dotted path. Registered
here: the seed's Austrian game (``scoring.games.austrian``, the default) and the Russian one
of the «Кодекс преферанса» in its conventions Сочи, Ленинград and Ростов
(``scoring.games.russian``). The game's kernel both share is ``scoring.games.common``.

The game of a JSON deal is its ``rules.game``: absent (or ``austrian``) for the Austrian
game, exactly as before there was a choice; ``sochi``, ``leningrad`` or ``rostov`` for the
Russian one. A stored result keeps its game's rules the same way. An event names its game
in ``Event.game`` (a convention of a registered game).

Pure: imports nothing from Django (the Django parts are imported on first use).
"""

from __future__ import annotations

from importlib import import_module

from scoring.games.base import Game
from scoring.games.common.json_io import shown
from scoring.games.common.messages import InvalidInput, Problems
from scoring.games.common.play import NoValue, PlayRules, Position

#: The games, one line each: the module holding its ``GAME``. The first is the default.
REGISTERED = (
    "scoring.games.austrian.game",
    "scoring.games.russian.game",
)

#: A convention (an event's game, a JSON deal's ``rules.game``) → its :class:`Game`.
GAMES: dict[str, Game] = {}


def register(game: Game) -> None:
    """Make ``game`` known under each of its conventions (a test's toy game does so)."""
    for convention in game.conventions:
        GAMES[convention] = game


def unregister(game: Game) -> None:
    for convention in game.conventions:
        if GAMES.get(convention) is game:
            del GAMES[convention]


for _path in REGISTERED:
    register(import_module(_path).GAME)

#: The default game: a JSON deal with no ``rules.game``, a result stored before there
#: was a choice of game.
DEFAULT: Game = import_module(REGISTERED[0]).GAME
AUSTRIAN_GAME = DEFAULT
RUSSIAN_GAME = import_module(REGISTERED[1]).GAME


def game_named(name: str | None) -> Game:
    """The game of a convention's name (None: the default); KeyError for an unknown one."""
    return DEFAULT if name is None else GAMES[name]


def conventions() -> tuple[str, ...]:
    """Every convention an event may play, the default's first."""
    return tuple(GAMES)


def of_event(event) -> Game:
    """The game an event plays (``Event.game``, always a registered convention)."""
    return GAMES[event.game]


def sheets_of(event):
    """The sheets adapter of the event's game (``scoring.games.sheets.SheetGame``)."""
    return of_event(event).sheets


def of_result(result: dict | None) -> Game:
    """The game whose stored result ``result`` is: a result stores its game's rules
    (``rules.game``); one with none is the default game's, as every result was before there
    was a choice of game."""
    rules = (result or {}).get("rules")
    name = rules.get("game") if isinstance(rules, dict) else None
    return GAMES.get(name, DEFAULT) if isinstance(name, str) else DEFAULT


def of_json(data: object) -> Game:
    """The game of a JSON deal, by its ``rules.game``; raises :class:`InvalidInput` naming
    ``rules.game`` when it names no game. Without it, the default game."""
    rules = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(rules, dict) or "game" not in rules:
        return DEFAULT
    name = rules["game"]
    if isinstance(name, str) and name.strip().lower() in GAMES:
        return GAMES[name.strip().lower()]
    problems = Problems()
    problems.add("rules.game", "choice", value=shown(name), choices=", ".join(GAMES))
    raise InvalidInput(problems)


game_of_json = of_json


def settle_json(data: object) -> dict[str, object]:
    """A JSON deal of any game settled: its game's JSON answer; raises :class:`InvalidInput`."""
    return of_json(data).settle_json(data)


__all__ = [
    "AUSTRIAN_GAME",
    "DEFAULT",
    "GAMES",
    "RUSSIAN_GAME",
    "Game",
    "InvalidInput",
    "NoValue",
    "PlayRules",
    "Position",
    "conventions",
    "game_named",
    "game_of_json",
    "of_event",
    "of_json",
    "of_result",
    "register",
    "settle_json",
    "sheets_of",
    "unregister",
]
