"""The Austrian game's play (docs/game.md §2.5), as the solver and the pages need it: its
rules of play and the position a stored sheet played (``scoring.games.common.play``).

Pure: imports nothing from Django."""

from __future__ import annotations

from events.cards import SUIT_NAMES
from scoring.games.common.play import PlayRules, Position

#: The seed's Austrian game (docs/game.md §2.5): the solver's default.
AUSTRIAN_PLAY = PlayRules()


def position(sheet: dict | None) -> Position | None:
    """The position of an Austrian sheet's essence (``scoring.games.austrian.sheet.essence``);
    None for a deal not played out (passed, both defenders passed)."""
    if not sheet or sheet.get("contract") in (None, "passed"):
        return None
    declarer, trump = sheet.get("declarer"), sheet.get("trump")
    if sheet.get("contract") == "hearts":
        trump = "hearts"
    if not declarer or trump not in SUIT_NAMES:
        return None
    talon = sheet.get("contract") in ("one", "two", "three", "four")
    defenders = sheet.get("defenders") or {}
    whisting = [s for s, d in defenders.items() if d in ("whist", "invited")]
    if not whisting:
        return None
    if len(whisting) == 1 and not any(d == "invited" for d in defenders.values()):
        defence = whisting[0]
    else:
        defence = "both"
    return Position(declarer, trump, talon, defence)
