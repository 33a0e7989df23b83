"""The Austrian game (the seed's, docs/game.md) as the registry knows it: its core, its play
and its Django parts by dotted path (``scoring.games.base.Game``). Pure."""

from __future__ import annotations

from scoring.games import austrian
from scoring.games.austrian import play
from scoring.games.base import Game

#: The game's one name: the default of an event and of a JSON deal with no ``rules.game``.
NAME = "austrian"


def _from_json(data: object):
    # «"game": "austrian"» names the default; the Austrian reader knows no such rule.
    if isinstance(data, dict) and isinstance(data.get("rules"), dict) and "game" in data["rules"]:
        rules = {k: v for k, v in data["rules"].items() if k != "game"}
        data = {**data, "rules": rules}
    return austrian.deal_from_json(data)


GAME = Game(
    name=NAME,
    conventions=(NAME,),
    from_json=_from_json,
    check=austrian.validate,
    settle=austrian.settle,
    to_json=austrian.settlement_json,
    play=play.AUSTRIAN_PLAY,
    position=play.position,
    sheets_path="scoring.games.austrian.sheet.AUSTRIAN",
    form_path="scoring.games.austrian.form.ScorerForm",
)
