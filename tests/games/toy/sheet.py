"""The toy game's sheets (``scoring.games.sheets.SheetGame``): what a scorer types, the
request to the core, the stored result and its words. The result names its game in
``rules`` (``scoring.games.of_result`` finds a stored result's game there)."""

from __future__ import annotations

from scoring.games.sheets import SheetGame, in_order, lang, layout_fields
from tests.games.toy import core

#: The toy's words, in the two languages of the pages (the catalogue knows none of them).
WORDS = {
    "contract": {"ru": "игрушка {n}", "en": "toy {n}"},
    "score": {"ru": "Очки игрушки", "en": "Toy points"},
    "rule": {"ru": "Игрушка", "en": "Toy"},
    "range": {"ru": "от 6 до 10 взяток", "en": "6 to 10 tricks"},
}


def said(key: str, **params) -> str:
    return WORDS[key][lang()].format(**params)


def essence(deal: core.Deal) -> dict:
    """Two sheets are the same result when they name the same declarer, contract and
    tricks."""
    return {
        "declarer": deal.declarer.value,
        "contract": str(deal.contract),
        "tricks": {s.value: deal.tricks[s] for s in sorted(deal.tricks)},
    }


class ToySheets(SheetGame):
    input_fields = ("declarer", "contract", "tricks")

    def label(self, convention):
        return "Игрушка"

    def request(self, event, deal, entered, *, earlier=None):
        layout = layout_fields(deal, entered, seats_needed=lambda data: True)
        return entered | {"rules": event.game_rules()} | layout

    def settle(self, request):
        parsed = core.deal_from_json(request)
        return parsed, core.settle(parsed)

    def result(self, parsed, settlement):
        return core.settlement_json(settlement) | {
            "rules": {"game": core.NAME},
            "sheet": essence(parsed),
        }

    def essence(self, parsed):
        return essence(parsed)

    def word(self, value):
        if value in (None, ""):
            return ""
        return said("contract", n=value)

    def contract_text(self, sheet):
        if not sheet:
            return ""
        return f"{sheet['declarer']}: {self.word(sheet.get('contract'))}"

    def contract_word(self, sheet):
        return self.word((sheet or {}).get("contract"))

    def defence_text(self, sheet, order=""):
        return ""  # nobody decides anything in the toy

    def tricks_text(self, sheet, order=""):
        if not sheet:
            return ""
        return " · ".join(f"{seat} {n}" for seat, n in in_order(sheet.get("tricks"), order))

    def score_head(self):
        return said("score")

    def settings_lines(self, event):
        return [*super().settings_lines(event), (said("rule"), said("range"))]


TOY = ToySheets()
