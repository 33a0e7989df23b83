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

from scoring.games import russian
from scoring.games.russian import Defence, Outcome
from scoring.sheets.base import SheetGame, layout_fields, preview_rows


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


class RussianSheets(SheetGame):
    form = "russian"
    input_fields = ("declarer", "contract", "defenders", "tricks", "auction", "talon")
    talon_contracts = (*(b.code for b in russian.BIDS),)

    def request(self, event, deal, entered, *, pot_before=None):
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


RUSSIAN = RussianSheets()
