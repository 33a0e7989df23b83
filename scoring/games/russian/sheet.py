"""The Russian game's sheets (Сочи, Ленинград, Ростов; ``scoring.games.russian``,
docs/game.md §9).

The stored ``result`` holds what each seat writes (``pool``, ``mountain``, ``whists``: the
core's JSON answer), ``failed``, the event's rules in full (``rules``), the sheet's essence
(``sheet``) and ``scores``: the deal's vist balance per seat, **exact**, as text
«num/den» («16/3», «-2/3», «0») — the balance is in thirds, and ``scoring.standings`` reads
every score as an exact fraction from its text, so that ties stay ties and points add up
exactly.
"""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from events.boards import TABLE_ORDER
from events.gamesettings import Part
from scoring.games import russian
from scoring.games.russian import Defence, Outcome
from scoring.games.sheets import SheetGame, lang, layout_fields, preview_rows


def exact_text(value: Fraction) -> str:
    """An exact amount as text a Fraction reads back: «16/3», «-27», «0»."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def essence(deal: russian.Deal) -> dict:
    """What makes two sheets «the same result»: the contract, the declarer, the defenders'
    decisions and the tricks the outcome counts (a lone whister's being all the defence's:
    whether the passer's hand was written or not, the result is the same). The auction and
    the talon are not part of it."""
    outcome = russian.outcome_of(deal)
    tricks = dict(deal.tricks or {})
    if outcome is Outcome.ALL_PASS:
        return {"contract": "passed", "tricks": {s.value: tricks[s] for s in sorted(tricks)}}
    found = {"contract": deal.contract.code, "declarer": deal.declarer.value}
    if outcome in (Outcome.MISERE, Outcome.CHECKED_TEN):
        return found | {"tricks": {deal.declarer.value: tricks[deal.declarer]}}
    found["defenders"] = {s.value: d.value for s, d in sorted(deal.defenders.items())}
    if outcome is Outcome.PLAYED:
        whisters = sorted(s for s, d in deal.defenders.items() if d is Defence.WHIST)
        took = tricks[deal.declarer]
        if len(whisters) == 1:
            counted = {deal.declarer: took, whisters[0]: 10 - took}
        else:
            counted = {deal.declarer: took} | {w: tricks[w] for w in whisters}
        found["tricks"] = {s.value: counted[s] for s in sorted(counted)}
    return found


#: The conventions' names (the same msgids as the Russian core's words).
CONVENTION_LABELS = {
    "sochi": pgettext_lazy("russian game", "Sochi"),
    "leningrad": pgettext_lazy("russian game", "Leningrad"),
    "rostov": pgettext_lazy("russian game", "Rostov"),
}


class RussianSheets(SheetGame):
    def label(self, convention):
        return CONVENTION_LABELS[convention]

    def event_part(self):
        return Part(
            id="game-options",
            legend=gettext_lazy("Russian preference"),
            help=gettext_lazy(
                "For Sochi, Leningrad and Rostov only; each convention fills in its own."
            ),
            fields=("ten", "responsibility", "stalingrad"),
        )

    input_fields = ("declarer", "contract", "defenders", "tricks", "auction", "talon")
    talon_contracts = (*(b.code for b in russian.BIDS),)

    def request(self, event, deal, entered, *, earlier=None):
        # A Russian sheet always names its three seats (docs/game.md §9.3).
        layout = layout_fields(deal, entered, seats_needed=lambda data: True)
        return entered | {"rules": event.game_rules()} | layout

    def settle(self, request):
        parsed = russian.deal_from_json(request)
        return parsed, russian.settle(parsed)

    def result(self, parsed, settlement):
        answer = russian.settlement_json(settlement)
        answer["scores"] = {s.value: exact_text(settlement.scores[s]) for s in settlement.seats}
        return answer | {"rules": parsed.rules.as_json(), "sheet": essence(parsed)}

    def essence(self, parsed):
        return essence(parsed)

    def preview(self, result, deal, players):
        """Each seat's line with what he writes: пуля, гора, and his whists on whom."""
        rows = preview_rows(result, deal, players)
        whists = result.get("whists") or {}
        for row in rows:
            seat = row["seat"]
            row["pool"] = (result.get("pool") or {}).get(seat, "")
            row["mountain"] = (result.get("mountain") or {}).get(seat, "")
            row["whists"] = [(on, amount) for on, amount in (whists.get(seat) or {}).items()]
            if not row["tricks"] and row["tricks"] != 0:
                row["tricks"] = ""
        return rows

    # --- words: the core's (``russian.word``), as its messages say them ------------------

    def word(self, value):
        if not value:
            return ""
        if value in Defence._value2member_map_:
            return russian.word(Defence(value), lang())
        try:
            return russian.word(russian.Contract(str(value)), lang())
        except ValueError:
            return str(value)

    def contract_text(self, sheet):
        """«N: 6♠», «N: мизер», «распасы»."""
        if not sheet:
            return ""
        contract = self.word(sheet.get("contract"))
        if sheet.get("contract") == "passed" or not sheet.get("declarer"):
            return contract
        return f"{sheet['declarer']}: {contract}"

    def contract_word(self, sheet):
        return self.word((sheet or {}).get("contract"))

    def score_head(self):
        return pgettext("russian game", "Balance")

    def figure_heads(self):
        return [_("Pool"), _("Mountain"), _("Whists")]

    def seat_figures(self, result, position):
        """пуля, гора (exact amounts as stored) and «6 на N, 2 на S»."""
        result = result or {}
        if position not in (result.get("pool") or {}):
            return [None, None, None]
        whists = (result.get("whists") or {}).get(position) or {}
        written = ", ".join(
            _("%(amount)s on %(on)s") % {"amount": amount_text(amount), "on": on}
            for on, amount in sorted(whists.items(), key=lambda item: TABLE_ORDER.index(item[0]))
        )
        return [result["pool"][position], (result.get("mountain") or {}).get(position), written]

    def trick_value(self, event):
        """A point of гора as the convention writes it (the Russian game has no stake)."""
        return Fraction(russian.Rules(**event.game_rules()).trick_value)

    def suit_order(self, event):
        """Fixed by the game: ♠ < ♣ < ♦ < ♥ (docs/game.md §9.2), whatever the event's
        Austrian setting says."""
        return "spades-clubs-diamonds-hearts"

    def failed_word(self):
        """A declarer down, a whister short, a caught мизер: each «did not fulfil»."""
        return pgettext("russian game", "failed")

    def file_heads(self, event):
        """«Игра: Сочи · 10 проверяется · ответственность полная»."""
        return [_("Game: %(line)s") % {"line": event.game_line()}]


def amount_text(value) -> str:
    """An amount written (a JSON number): «6», «2.5»."""
    value = Fraction(str(value))
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


RUSSIAN = RussianSheets()
