"""The Austrian game's scorer form (docs/game.md §2): declarer (or passed out), contract and
trump apart, each defender's decision (whist, pass, invited), each seat's tricks; its
fields and settlement in ``templates/games/austrian/``."""

from __future__ import annotations

from scoring.games.austrian.sheet import suit, word
from scoring.games.forms import SheetForm

#: The contracts in the order the sheet offers them.
CONTRACTS = ("one", "two", "three", "four", "game", "hearts", "passed")


class ScorerForm(SheetForm):
    """One deal's Austrian sheet."""

    sheet_template = "games/austrian/sheet.html"
    settlement_template = "games/austrian/settlement.html"
    decisions = ("whist", "pass", "invited")
    #: The contracts that take the talon: the sheet records its two cards (docs/game.md §2.7).
    talon_contracts = ("one", "two", "three", "four")

    def word(self, value) -> str:
        return word(value)

    def contract_choices(self):
        return [("", "—")] + [(c, word(c)) for c in CONTRACTS]

    def trump_choices(self, suit_order: str):
        return [(s, f"{suit(s)} {word(s)}") for s in suit_order.split("-")]
