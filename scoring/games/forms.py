"""The scorer form every game's sheet shares (:class:`SheetForm`), its talon picker, and the
talon as a page reads and writes it. A game's own form subclasses :class:`SheetForm` in its
folder (``scoring.games.<kind>.form``) with its choices, words and templates
(``templates/games/<kind>/``); ``scoring.games.Game.form`` names it.

The Django side of the games' kernel: imports the kernel and the lower layers only."""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from events.boards import TABLE_ORDER
from events.cards import RANKS, SUIT_LETTERS, SUIT_SYMBOLS, rank_text
from events.catalogue import translated_in
from events.forms import apply_service_error
from scoring.games.common.messages import Problems
from scoring.games.common.talon import read_talon, talon_text
from scoring.games.sheets import lang

#: The 32 cards as the talon picker offers them (``events.cards`` names: «SA», «H10»).
CARD_NAMES = tuple(suit + rank for suit in SUIT_LETTERS for rank in RANKS)
#: The suits' names, the words both games' catalogue entries share («game term»).
SUIT_WORDS = ("spades", "clubs", "diamonds", "hearts")
#: The groups whose problems are shown on the whole group.
GROUPS = ("defenders", "tricks")


def parse_talon(value) -> tuple[int, ...] | None:
    """Stored or typed talon (``"SA H7"``, a list) → card numbers; None when blank or broken."""
    if value in (None, "", []):
        return None
    return read_talon(value, "talon", Problems())


def talon_grid(chosen=()) -> list[dict]:
    """The talon picker's rows, one per suit (♠ ♣ ♦ ♥), each with its eight cards 7 … A;
    ``chosen``: the card names ticked."""
    chosen = {str(c).upper() for c in chosen or ()}
    language = get_language()
    return [
        {
            "symbol": SUIT_SYMBOLS[s],
            "word": translated_in("game term", SUIT_WORDS[s], lang()),
            "red": s in (2, 3),
            "cards": [
                {
                    "value": SUIT_LETTERS[s] + rank,
                    "rank": rank_text(r, language),
                    "checked": SUIT_LETTERS[s] + rank in chosen,
                }
                for r, rank in enumerate(RANKS)
            ],
        }
        for s in range(4)
    ]


class TalonField(forms.MultipleChoiceField):
    """Two cards ticked in the picker; also «SA H7» typed in one value (no JavaScript, the
    API's spelling). Which cards make a talon is the service's rule, not the field's."""

    def __init__(self, **kwargs):
        super().__init__(choices=[(c, c) for c in CARD_NAMES], required=False, **kwargs)

    def to_python(self, value):
        if isinstance(value, str):
            value = [value]
        out = []
        for item in value or ():
            out.extend(p for p in re.split(r"[\s,;]+", str(item).strip().upper()) if p)
        return out

    def validate(self, value):
        # Unknown cards and the count are told by the rules core, on the same field.
        pass


class SheetForm(forms.Form):
    """One deal's score sheet, every game's (a game's form subclasses it: its choices, its
    words, its templates): declarer, contract and trump, each defender's decision, each
    seat's tricks, the talon, optionally the auction. Seats are the deal's active ones."""

    declarer = forms.ChoiceField(label=_("Declarer"), required=False, widget=forms.RadioSelect)
    contract = forms.ChoiceField(label=_("Contract"), required=False)
    trump = forms.ChoiceField(label=_("Trump"), required=False)
    auction = forms.CharField(
        label=_("Auction (optional)"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Calls in order from first hand, e.g. «N one, E pass, S two, N hold, S pass»."),
    )
    talon = TalonField(
        label=_("Talon"),
        help_text=_("The two cards the declarer took: tap them."),
    )
    note = forms.CharField(label=_("Note"), required=False, max_length=200)
    expected_version = forms.IntegerField(required=False, widget=forms.HiddenInput)
    checked = forms.CharField(required=False, widget=forms.HiddenInput)
    # Carriers of the problems of the whole group (two defenders; tricks adding up to 10).
    defenders = forms.CharField(required=False, widget=forms.HiddenInput)
    tricks = forms.CharField(required=False, widget=forms.HiddenInput)

    #: The templates of the game's own fields and of its settlement under «Проверить»
    #: (``templates/games/<kind>/``; ``scoring/_scorer_form.html`` includes them).
    sheet_template = ""
    settlement_template = ""
    #: The defenders' decisions in the order the sheet offers them.
    decisions: tuple[str, ...] = ()
    #: The contracts that take the talon (the picker's ``data-numeric``).
    talon_contracts: tuple[str, ...] = ()

    #: What every game's form says itself: ``word(value)`` (a contract, suit or decision as
    #: a word of the game in the page's language) and ``contract_choices()``.
    OWN = ("word", "contract_choices")

    def __init_subclass__(cls, **kwargs):
        """A game's form that lacks its words or its contracts is refused when it is
        defined, not on a page."""
        super().__init_subclass__(**kwargs)
        missing = [name for name in cls.OWN if not callable(getattr(cls, name, None))]
        if missing:
            raise TypeError(f"{cls.__name__} must define {', '.join(missing)}")

    def trump_choices(self, suit_order: str) -> list[tuple[str, str]]:
        return []

    def __init__(
        self,
        *args,
        deal,
        players: dict[str, str],
        suit_order: str,
        rules: dict | None = None,
        game_line: str = "",
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.rules = rules or {}
        self.game_line = game_line
        self.deal = deal
        self.seats = [s for s in TABLE_ORDER if s in deal.active_seats]
        self.players = players
        self.fields["declarer"].choices = [("", _("nobody: passed out"))] + [
            (s, f"{s} {players.get(s, '')}".strip()) for s in self.seats
        ]
        self.fields["contract"].choices = self.contract_choices()
        if isinstance(self.fields["trump"], forms.ChoiceField):
            self.fields["trump"].choices = [("", "—")] + self.trump_choices(suit_order)
        for seat in self.seats:
            self.fields[f"defence_{seat}"] = forms.ChoiceField(
                label=f"{seat} {players.get(seat, '')}".strip(),
                required=False,
                choices=[("", "—")] + [(d, self.word(d)) for d in self.decisions],
            )
            self.fields[f"tricks_{seat}"] = forms.IntegerField(
                label=f"{seat} {players.get(seat, '')}".strip(),
                required=False,
                min_value=0,
                max_value=10,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 10}),
            )

    def defence_fields(self):
        return [self[f"defence_{s}"] for s in self.seats]

    def tricks_fields(self):
        return [self[f"tricks_{s}"] for s in self.seats]

    def sheet_data(self) -> dict:
        """The service's input from the cleaned fields (what was left empty is absent)."""
        data: dict = {}
        c = self.cleaned_data
        for name in ("declarer", "contract", "trump"):
            if c.get(name):
                data[name] = c[name]
        defenders = {s: c[f"defence_{s}"] for s in self.seats if c.get(f"defence_{s}")}
        if defenders:
            data["defenders"] = defenders
        tricks = {s: c[f"tricks_{s}"] for s in self.seats if c.get(f"tricks_{s}") is not None}
        if tricks:
            data["tricks"] = tricks
        calls = [w.strip() for w in re.split(r"[,;\n]+", c.get("auction") or "") if w.strip()]
        if calls:
            data["auction"] = calls
        if c.get("talon"):
            data["talon"] = list(c["talon"])
        return data

    def talon_grid(self) -> list[dict]:
        value = self["talon"].value() if self.is_bound else self.initial.get("talon")
        return talon_grid(self.fields["talon"].to_python(value or []))

    @property
    def numeric_contracts(self) -> str:
        return " ".join(self.talon_contracts)

    def add_service_error(self, error: ValidationError) -> None:
        """Put the service's problems next to the fields they name."""
        apply_service_error(self, error, self.field_for)

    def field_for(self, name: str) -> str | None:
        """The form field for a service field name (``tricks.E`` → ``tricks_E``)."""
        head, _dot, rest = name.partition(".")
        if head in GROUPS:
            target = f"{'defence' if head == 'defenders' else 'tricks'}_{rest.split('.')[0]}"
            return target if rest and target in self.fields else head
        if head in ("declarer", "contract", "trump", "auction", "note", "talon"):
            return head
        return None  # the deal, the round, a stale version: for the whole form

    @staticmethod
    def initial_from(data: dict) -> dict:
        """The form's initial values from a stored sheet's data."""
        initial = {k: data.get(k, "") for k in ("declarer", "contract", "trump")}
        for seat, decision in (data.get("defenders") or {}).items():
            initial[f"defence_{str(seat).upper()}"] = str(decision).lower()
        for seat, count in (data.get("tricks") or {}).items():
            initial[f"tricks_{str(seat).upper()}"] = count
        auction = data.get("auction") or []
        initial["auction"] = ", ".join(
            c
            if isinstance(c, str)
            else " ".join(str(c.get(k, "")) for k in ("seat", "call", "suit"))
            for c in auction
        ).strip()
        talon = parse_talon(data.get("talon"))
        if talon:
            initial["talon"] = talon_text(talon).split()
        return initial
