"""The toy game's scorer form (``scoring.games.forms.SheetForm``): the declarer, the tricks
he names, every seat's tricks; its fields and settlement in ``templates/games/toy/``."""

from __future__ import annotations

from django import forms

from scoring.games.forms import SheetForm
from tests.games.toy import core
from tests.games.toy.sheet import TOY


class ToyForm(SheetForm):
    sheet_template = "games/toy/sheet.html"
    settlement_template = "games/toy/settlement.html"
    decisions = ()

    contract = forms.ChoiceField(required=False)
    # No trump in the toy: kept empty so that the pages that walk the sheet's fields find it.
    trump = forms.CharField(required=False, widget=forms.HiddenInput)
    # No auction in the toy: the form leaves the field out, and the page with it.
    auction = None

    def word(self, value) -> str:
        return TOY.word(value)

    def contract_choices(self):
        return [("", "—")] + [(str(n), TOY.word(str(n))) for n in range(core.LOW, core.HIGH + 1)]
