"""One interface for a game's score sheets on the Django side (docs/architecture.md,
«Adding a game»): each game an event may play has one small adapter here, chosen by the
event's game, and the sheet's check (``scoring.services.sheet_check``), the «same result»
comparison and the scorer form (``scoring.scorer``) call it and never ask which game it is.

An adapter (:class:`SheetGame`) gives:

- ``input_fields``: what a scorer types (everything else comes from the event and the deal);
- ``request``: an entered sheet as its core's JSON, with the event's rules and the deal's
  layout;
- ``settle``: that JSON checked and settled by the pure core (``scoring.games``): the parsed
  deal and its settlement, or the core's :class:`InvalidInput` (a field → its messages);
- ``result``: the settlement as the version's stored ``result`` JSON: ``scores`` per seat
  (what ``scoring.standings`` compares, exact), the sheet's essence (``sheet``), and the
  game's own figures;
- ``essence``: what makes two sheets «the same result»;
- ``passed_out``: nobody plays the deal (the preview says so);
- ``form``: the name of its scorer form (``scoring.forms.SCORER_FORMS``), with its words
  and its templates.

The games: ``austrian`` (the seed's, ``scoring.rules``) and the Russian conventions
``sochi``, ``leningrad``, ``rostov`` (``scoring.games.russian``).
"""

from __future__ import annotations

from scoring.sheets.austrian import AUSTRIAN
from scoring.sheets.base import SheetGame
from scoring.sheets.russian import RUSSIAN

#: An event's game → its sheets' adapter.
SHEET_GAMES: dict[str, SheetGame] = {
    "austrian": AUSTRIAN,
    "sochi": RUSSIAN,
    "leningrad": RUSSIAN,
    "rostov": RUSSIAN,
}


def sheets_of(event) -> SheetGame:
    """The adapter of the event's game (the Austrian one for an event of no known game)."""
    return SHEET_GAMES.get(getattr(event, "game", "austrian"), AUSTRIAN)


__all__ = ["SHEET_GAMES", "SheetGame", "sheets_of"]
