"""The Russian game (the «Кодекс преферанса», docs/game.md §9) as the registry knows it: its
core, its play, its options with each convention's defaults (the one source the event's
form and pages read) and its Django parts by dotted path (``scoring.games.base.Game``). Pure."""

from __future__ import annotations

from scoring.games import russian
from scoring.games.base import Game
from scoring.games.russian import play
from scoring.games.russian.conventions import Convention, Responsibility, Rules, Ten

GAME = Game(
    name="russian",
    conventions=tuple(c.value for c in Convention),
    from_json=russian.deal_from_json,
    check=russian.validate,
    settle=russian.settle,
    to_json=russian.settlement_json,
    play=play.RUSSIAN_PLAY,
    position=play.position,
    strain_of=play.strain_of,
    options={
        "ten": tuple(t.value for t in Ten),
        "responsibility": tuple(r.value for r in Responsibility),
        "stalingrad": (True, False),
    },
    defaults={
        c.value: {
            "ten": Rules(game=c).ten.value,
            "responsibility": Rules(game=c).responsibility.value,
            "stalingrad": False,
        }
        for c in Convention
    },
    sheets_path="scoring.games.russian.sheet.RUSSIAN",
    form_path="scoring.games.russian.form.RussianScorerForm",
)
