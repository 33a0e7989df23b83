"""The toy game's play: the solver's default rules, and no position of a stored sheet (the
toy names no trump: the solver has nothing to value). Pure."""

from __future__ import annotations

from scoring.games.common.play import PlayRules, Position

TOY_PLAY = PlayRules()


def position(sheet: dict | None) -> Position | None:
    return None
