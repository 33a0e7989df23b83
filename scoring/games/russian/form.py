"""The Russian game's scorer form (docs/game.md §9.3); its fields and settlement in
``templates/games/russian/``."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from events.boards import TABLE_ORDER
from scoring.games import russian
from scoring.games.forms import SheetForm
from scoring.games.russian.names import HALF_LEVELS
from scoring.games.sheets import lang

#: The Russian game's decisions, in the order the sheet offers them.
RUSSIAN_DECISIONS = ("whist", "pass", "half")


def _russian_word(value) -> str:
    return russian.word(value, lang())


class RussianScorerForm(SheetForm):
    """One deal's sheet of the Russian game (docs/game.md §9.3): declarer, contract (a grid
    6–10 × ♠ ♣ ♦ ♥ БК, «мизер», «распасы»), the defenders' decisions in their order, the
    tricks the outcome needs, the talon, optionally the auction. What the rules allow is the
    core's check; the form offers only what can be right as far as it knows the sheet."""

    sheet_template = "games/russian/sheet.html"
    settlement_template = "games/russian/settlement.html"
    decisions = RUSSIAN_DECISIONS
    talon_contracts = tuple(b.code for b in russian.BIDS)

    declarer = forms.ChoiceField(label=_("Declarer"), required=False, widget=forms.RadioSelect)
    contract = forms.ChoiceField(label=_("Contract"), required=False, widget=forms.RadioSelect)
    # No trump of its own (it is the contract's strain): kept empty so that the pages that
    # walk the sheet's fields find it.
    trump = forms.CharField(required=False, widget=forms.HiddenInput)
    auction = forms.CharField(
        label=_("Auction (optional)"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_(
            "Calls in order from first hand, e.g. «N 6S, E 7C, S pass, N here, E pass, N pass»."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["talon"].help_text = _(
            "For a numeric contract or misere: the two cards the declarer took. Tap them."
        )
        self.fields["declarer"].choices = [("", _("nobody: all-pass"))] + [
            (s, f"{s} {self.players.get(s, '')}".strip()) for s in self.seats
        ]
        self.fields["contract"].widget.attrs["data-contract-grid"] = ""
        decisions = [("", "—")] + [(d, self.word(d)) for d in RUSSIAN_DECISIONS]
        self._offer_decisions(decisions)

    def word(self, value) -> str:
        return _russian_word(russian.Defence(value))

    def contract_choices(self):
        codes = [b.code for b in russian.BIDS] + [russian.PASSED.code]
        return [(code, _russian_word(russian.Contract(code))) for code in codes]

    # --- what the sheet knows so far -------------------------------------------------

    def _typed(self, name: str) -> str:
        if self.is_bound:
            return str(self.data.get(self.add_prefix(name)) or "").strip()
        return str(self.initial.get(name) or "").strip()

    def chosen_declarer(self) -> str | None:
        seat = self._typed("declarer").upper()
        return seat if seat in self.seats else None

    def chosen_contract(self):
        code = self._typed("contract")
        try:
            return russian.Contract(code) if code else None
        except ValueError:
            return None

    def defence_order(self) -> list[str]:
        """The defenders in the order they decide (the declarer's left first), once the
        declarer is known; every seat otherwise."""
        declarer = self.chosen_declarer()
        if declarer is None:
            return list(self.seats)
        ring = [s for s in TABLE_ORDER if s in self.seats]
        at = ring.index(declarer)
        return [ring[(at + 1) % 3], ring[(at + 2) % 3]]

    def _offer_decisions(self, decisions) -> None:
        """Each defender's select offers what the rules allow him as far as the sheet is
        known: «полвиста» only to the second defender, on a 6 or a 7; nothing on a checked 10
        («пас» only, both or none). The field itself takes every decision, so that nothing
        typed is lost: the core names a wrong one on its field."""
        order = self.defence_order()
        contract = self.chosen_contract()
        level = contract.level if contract is not None else None
        checked_ten = level == 10 and self.rules.get("ten") == "checked"
        for position, seat in enumerate(order):
            allowed = set(RUSSIAN_DECISIONS)
            if self.chosen_declarer() is not None and position == 0:
                allowed.discard("half")
            if position == 1 and self._typed(f"defence_{order[0]}") == "whist":
                allowed.discard("half")
            if level is not None and level not in (6, 7):
                allowed.discard("half")
            if checked_ten:
                allowed = {"pass"}
            if self.rules.get("stalingrad") and contract is not None and contract.code == "6S":
                allowed = {"whist"}
            typed = self._typed(f"defence_{seat}")
            self.fields[f"defence_{seat}"].widget.choices = [
                (v, label) for v, label in decisions if not v or v in allowed or v == typed
            ]
            if self.chosen_declarer() is not None:
                which = _("first to decide") if position == 0 else _("second")
                self.fields[
                    f"defence_{seat}"
                ].label = f"{seat} {self.players.get(seat, '')} ({which})".replace("  ", " ")

    # --- the page ----------------------------------------------------------------------

    def defence_fields(self):
        return [self[f"defence_{s}"] for s in self.defence_order()]

    def defence_rows(self) -> list[dict]:
        """Every seat's decision as the sheet shows it: the defenders in their order, each
        with his seat and name and which of them decides first, then the declarer's own
        select, ``out`` (hidden and disabled, so not sent: as if absent) unless it carries a
        problem. static/js/russian_sheet.js shows the two a declarer chosen later makes
        defenders."""
        order = self.defence_order()
        declarer = self.chosen_declarer()
        rows = []
        for position, seat in enumerate(order):
            which = ""
            if declarer is not None:
                which = _("first to decide") if position == 0 else _("second")
            rows.append({"field": self[f"defence_{seat}"], "seat": seat, "which": which})
        if declarer is not None:
            field = self[f"defence_{declarer}"]
            rows.append({"field": field, "seat": declarer, "which": "", "out": not field.errors})
        for row in rows:
            row["name"] = f"{row['seat']} {self.players.get(row['seat'], '')}".strip()
        return rows

    def live_rules(self) -> dict:
        """What static/js/russian_sheet.js needs to offer only what the rules allow
        (docs/game.md §9.3): the active seats clockwise (the declarer's left decides
        first), whether a 10 is checked, «Сталинград», the levels of полвиста, and the
        words of the decisions and of the defenders' order."""
        return {
            "ring": " ".join(self.seats),
            "ten": str(self.rules.get("ten") or ""),
            "stalingrad": bool(self.rules.get("stalingrad")),
            "half_levels": " ".join(str(level) for level in sorted(HALF_LEVELS)),
            "decisions": json.dumps(
                [[d, str(_russian_word(russian.Defence(d)))] for d in RUSSIAN_DECISIONS],
                ensure_ascii=False,
            ),
            "first": str(_("first to decide")),
            "second": str(_("second")),
        }

    def contract_grid(self) -> dict:
        """The contract's radios as the grid shows them: a row per level 6–10 (♠ ♣ ♦ ♥ БК),
        then «мизер» and «распасы»."""
        radios = {w.data["value"]: w for w in self["contract"]}
        rows = [
            {"level": level, "radios": [radios[f"{level}{s}"] for s in ("S", "C", "D", "H", "NT")]}
            for level in (6, 7, 8, 9, 10)
        ]
        return {"rows": rows, "misere": radios["misere"], "passed": radios["passed"]}
