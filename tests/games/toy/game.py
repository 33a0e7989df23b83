"""The toy game as the registry knows it (``scoring.games.base.Game``). Pure."""

from __future__ import annotations

from scoring.games.base import Game
from tests.games.toy import core, play

GAME = Game(
    name=core.NAME,
    conventions=(core.NAME,),
    from_json=core.deal_from_json,
    check=core.validate,
    settle=core.settle,
    to_json=core.settlement_json,
    play=play.TOY_PLAY,
    position=play.position,
    sheets_path="tests.games.toy.sheet.TOY",
    form_path="tests.games.toy.form.ToyForm",
)
