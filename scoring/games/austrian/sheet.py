"""The Austrian game's sheets (the seed's game, ``scoring.games.austrian``): exactly what the sheets
did before there was a choice of game."""

from __future__ import annotations

from fractions import Fraction

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from events.boards import deal_label
from events.gamesettings import Part
from scoring.games import austrian as rules
from scoring.games.sheets import SheetGame, lang, layout_fields

#: The running pot's ante, added by each dealer (the core's default).
RUNNING_ANTE = 10

SUIT_SYMBOLS = {"spades": "♠", "clubs": "♣", "diamonds": "♦", "hearts": "♥"}


def word(value: str | None) -> str:
    """A contract, suit, decision or bid value («three», «whist») as a word of the language:
    the pure core's words (``rules.word``), so a page says «три ♦» as the messages do."""
    if not value:
        return ""
    for kind in (rules.Contract, rules.Defence, rules.Suit, rules.Bid):
        try:
            return rules.word(kind(value), lang())
        except ValueError:
            continue
    return str(value)


def suit(value: str | None) -> str:
    return SUIT_SYMBOLS.get(value or "", "")


def _passed(data: dict) -> bool:
    return str(data.get("contract", "")).strip().lower() in ("passed", "распас")


def rules_json(event, *, pot_before=None) -> dict:
    """The core's ``rules`` object for this event."""
    order = event.suit_order.split("-")
    if event.pot_rule == "running":
        return {
            "pot": "running",
            "pot_before": str(pot_before if pot_before is not None else RUNNING_ANTE),
            "limit": event.stake,
            "ante": RUNNING_ANTE,
            "suit_order": order,
        }
    if event.pot_rule == "trump":
        return {"pot": "trump", "suit_order": order}
    return {"pot": "fixed", "stake": event.stake, "suit_order": order}


def pot_before(deal, earlier: dict[int, dict]) -> Fraction:
    """Running pot (decision for duplicate play, docs/game.md): it runs through the set at
    one table in deal order, from the first dealer's ante; each later dealer adds his ante.
    ``earlier``: the stored results of the set's earlier deals at this table by number."""
    pot = Fraction(RUNNING_ANTE)
    for number in range(1, deal.number):
        if number not in earlier:
            raise ValidationError(
                {
                    "deal": _(
                        "With a running pot, deal %(code)s must be recorded first: "
                        "its pot carries over."
                    )
                    % {"code": deal_label(deal.board_set.label, number)}
                }
            )
        pot = Fraction(str(earlier[number].get("pot_after", 0))) + RUNNING_ANTE
    return pot


def essence(deal: rules.Deal) -> dict:
    """What makes two sheets «the same result»: contract, declarer, trump, the defenders'
    decisions and every active seat's tricks (a passer's 0 and a no-play 10 filled in). The
    auction, if given, is not part of it."""
    if deal.contract is rules.Contract.PASSED:
        return {"contract": "passed"}
    trump = rules.Suit.HEARTS if deal.contract is rules.Contract.HEARTS else deal.trump
    seats = [deal.declarer, *deal.defenders]
    tricks = dict(deal.tricks or {})
    if not tricks:
        tricks = {deal.declarer: 10}
    return {
        "contract": deal.contract.value,
        "declarer": deal.declarer.value,
        "trump": trump.value if trump else None,
        "defenders": {s.value: d.value for s, d in sorted(deal.defenders.items())},
        "tricks": {s.value: int(tricks.get(s, 0)) for s in sorted(seats)},
    }


class AustrianSheets(SheetGame):
    def label(self, convention):
        return gettext_lazy("Austrian (pot)")

    def event_part(self):
        return Part(
            id="austrian-options",
            legend=gettext_lazy("Austrian preference"),
            help=gettext_lazy(
                "For the Austrian game only: the Russian one counts in whists, has no pot, "
                "and its suits always rank ♠ < ♣ < ♦ < ♥."
            ),
            fields=("pot_rule", "stake", "suit_order"),
        )

    input_fields = ("declarer", "contract", "trump", "defenders", "tricks", "auction", "talon")
    talon_contracts = ("one", "two", "three", "four")

    def request(self, event, deal, entered, *, earlier=None):
        if earlier is None:  # the essence: the rules that read the sheet, not its pot
            rules_part = {"suit_order": event.suit_order.split("-")}
        else:
            pot = pot_before(deal, earlier()) if self.carries_over(event) else None
            rules_part = rules_json(event, pot_before=pot)
        return entered | {"rules": rules_part} | layout_fields(deal, entered, seats_needed=_passed)

    def carries_over(self, event) -> bool:
        return event.pot_rule == "running"

    def settle(self, request):
        parsed = rules.deal_from_json(request)
        return parsed, rules.settle(parsed)

    def result(self, parsed, settlement):
        # The settlement, the stake A, and the sheet in plain words (normalised spelling)
        # for pages and exports.
        return rules.settlement_json(settlement) | {
            "stake": rules.number(settlement.stake),
            "sheet": essence(parsed),
        }

    def essence(self, parsed):
        return essence(parsed)

    def passed_out(self, parsed):
        return parsed.contract is rules.Contract.PASSED

    # --- words: exactly the pages' and files' words of before there was a choice of game

    def word(self, value):
        return word(value)

    def contract_text(self, sheet):
        """«N: три ♦», «S: червы», «распас»."""
        if not sheet:
            return ""
        if sheet.get("contract") == "passed":
            return word("passed")
        contract = sheet.get("contract")
        symbol = "" if contract == "hearts" else f" {suit(sheet.get('trump'))}"
        return f"{sheet.get('declarer')}: {word(contract)}{symbol}"

    def contract_word(self, sheet):
        return word((sheet or {}).get("contract"))

    def trump(self, sheet):
        if not sheet or sheet.get("contract") == "passed":
            return ""
        trump = sheet.get("trump") or ""
        return f"{suit(trump)} {word(trump)}" if trump else ""

    def tricks_of(self, sheet, position):
        # A passed-out deal is not played: nobody's tricks are shown.
        if not sheet or sheet.get("contract") == "passed":
            return ""
        return super().tricks_of(sheet, position)

    def settings_lines(self, event):
        """«Матчпоинты; фиксированный котёл, A = 10» and the suit order: the pot, the stake
        and the ranking of the suits are this game's settings."""
        scoring = f"{event.get_scoring_method_display()}; {event.get_pot_rule_display()}, A = {event.stake}"
        return [(_("Scoring"), scoring), (_("Suit order"), event.get_suit_order_display())]

    def score_head(self):
        return _("Points")


AUSTRIAN = AustrianSheets()
