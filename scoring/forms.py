"""Forms of the scoring pages. They only collect input: the rules are checked by the service
(and the pure core behind it), whose problems are put back next to the fields here."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from events.boards import TABLE_ORDER
from events.cards import RANKS, SUIT_LETTERS
from events.forms import apply_service_error
from scoring import boxes, display, services
from scoring.games import russian
from scoring.games.russian.names import HALF_LEVELS
from scoring.models import Adjustment, Deal
from scoring.rules.talon import talon_text

CONTRACTS = ("one", "two", "three", "four", "game", "hearts", "passed")
#: The contracts that take the talon: the sheet records its two cards (docs/game.md §2.7).
NUMERIC_CONTRACTS = ("one", "two", "three", "four")
#: The 32 cards as the talon picker offers them (``events.cards`` names: «SA», «H10»).
CARD_NAMES = tuple(suit + rank for suit in SUIT_LETTERS for rank in RANKS)
talon_grid = boxes.talon_grid


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


DECISIONS = ("whist", "pass", "invited")
GROUPS = ("defenders", "tricks")


class ScorerForm(forms.Form):
    """One deal's score sheet: declarer (or passed out), contract and trump, each defender's
    decision, each seat's tricks, optionally the auction. Seats are the deal's active ones."""

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

    #: The templates of the game's own fields and settlement (``scoring/_scorer_form.html``
    #: includes them); none: the Austrian ones it holds itself.
    sheet_template = ""
    settlement_template = ""

    def __init__(
        self,
        *args,
        deal: Deal,
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
        self.fields["contract"].choices = [("", "—")] + [(c, display.word(c)) for c in CONTRACTS]
        self.fields["trump"].choices = [("", "—")] + [
            (s, f"{display.suit(s)} {display.word(s)}") for s in suit_order.split("-")
        ]
        for seat in self.seats:
            self.fields[f"defence_{seat}"] = forms.ChoiceField(
                label=f"{seat} {players.get(seat, '')}".strip(),
                required=False,
                choices=[("", "—")] + [(d, display.word(d)) for d in DECISIONS],
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
        return " ".join(NUMERIC_CONTRACTS)

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
        talon = boxes.parse_talon(data.get("talon"))
        if talon:
            initial["talon"] = talon_text(talon).split()
        return initial


#: The Russian game's decisions, in the order the sheet offers them.
RUSSIAN_DECISIONS = ("whist", "pass", "half")


def _russian_word(value) -> str:
    return russian.word(value, services.lang())


class RussianScorerForm(ScorerForm):
    """One deal's sheet of the Russian game (docs/game.md §9.3): declarer, contract (a grid
    6–10 × ♠ ♣ ♦ ♥ БК, «мизер», «распасы»), the defenders' decisions in their order, the
    tricks the outcome needs, the talon, optionally the auction. What the rules allow is the
    core's check; the form offers only what can be right as far as it knows the sheet."""

    sheet_template = "scoring/_russian_sheet.html"
    settlement_template = "scoring/_russian_settlement.html"

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
        codes = [b.code for b in russian.BIDS] + [russian.PASSED.code]
        self.fields["contract"].choices = [
            (code, _russian_word(russian.Contract(code))) for code in codes
        ]
        self.fields["contract"].widget.attrs["data-contract-grid"] = ""
        decisions = [("", "—")] + [
            (d, _russian_word(russian.Defence(d))) for d in RUSSIAN_DECISIONS
        ]
        for seat in self.seats:
            self.fields[f"defence_{seat}"].choices = decisions
        self._offer_decisions(decisions)

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

    @property
    def numeric_contracts(self) -> str:
        return " ".join(b.code for b in russian.BIDS)


#: Each game's scorer form, by the name its sheets' adapter gives (``scoring.sheets``).
SCORER_FORMS: dict[str, type[ScorerForm]] = {
    "austrian": ScorerForm,
    "russian": RussianScorerForm,
}


class AdjustmentForm(forms.Form):
    """One player's artificial score or time penalty at one table-round. The defaults are a
    valid choice: an artificial score «A» on the set's first deal (a whole table-round takes
    a time penalty only)."""

    kind = forms.ChoiceField(label=_("Kind"), choices=Adjustment.Kind.choices)
    entry = forms.TypedChoiceField(label=_("Player"), coerce=int)
    deal = forms.TypedChoiceField(label=_("Deal"), coerce=int, required=False, empty_value=None)
    score = forms.ChoiceField(
        label=_("Artificial score"),
        required=False,
        choices=Adjustment.Score.choices,
        initial=Adjustment.Score.AVERAGE,
        help_text=_("For an artificial score only."),
    )
    penalty = forms.DecimalField(
        label=_("Penalty"),
        required=False,
        max_digits=8,
        decimal_places=2,
        help_text=_(
            "For a time penalty only, in the event's unit: percentage points, points or IMPs."
        ),
    )
    reason = forms.CharField(label=_("Reason"), max_length=200)

    def __init__(self, *args, seats, deals, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [
            (seat.entry_id, f"{seat.position} {seat.entry.full_name}") for seat in seats
        ]
        self.fields["deal"].choices = [(deal.number, deal.code) for deal in deals] + [
            ("", _("the whole table-round (time penalty only)"))
        ]
        if deals:
            self.fields["deal"].initial = deals[0].number

    def apply(self, error: ValidationError) -> None:
        apply_service_error(self, error)


#: A seat's own score: the scores by their signs (the table's select above says each in
#: words), so that four of them fit side by side on a phone.
SEAT_SCORE_CHOICES = [("", _("as for the table")), ("A+", "A+"), ("A", "A"), ("A-", "A−")]

#: The director's pages list a table's seats round it: W N E S (N E S at a table of three).
SEATS = ("W", "N", "E", "S")


def score_choices():
    """«A — average» …: made when a form is, so in the language of its request."""
    return [(v, format_lazy("{} — {}", v, label)) for v, label in Adjustment.Score.choices]


@dataclass(frozen=True)
class RoundTable:
    """One table of a round as the whole-table form offers it: its number, the seats taken
    in that round (W N E S order) and the active seats of each deal of its set (a dealer at
    a table of four sits his deal out: he gets no score on it)."""

    number: int
    seats: str
    deals: tuple[str, ...]

    @property
    def label(self) -> str:
        return str(_("Table %(number)s") % {"number": self.number})

    def as_dict(self) -> dict:
        return {
            "number": self.number,
            "label": self.label,
            "seats": self.seats,
            "deals": list(self.deals),
        }


class _TableField(forms.TypedChoiceField):
    """A select of the round's tables; which tables those are is the form's check
    (:meth:`TableAdjustmentForm.clean_table`), which names the round."""

    def valid_value(self, value):
        return True


class TableAdjustmentForm(forms.Form):
    """Artificial scores for a whole table in one round (a table that did not play, a fouled
    set): one score for every seated player on every deal he plays, or on one deal; a seat
    may get its own. Every default is a valid choice. The table is one of the round's
    (``tables``: round id → its :class:`RoundTable` list); only its seats are offered, and
    on one deal only the seats that play it (static/js/adjustments.js follows a change of
    round, table or deal; without it the service names what does not fit)."""

    round = forms.TypedChoiceField(label=_("Round"), coerce=int)
    table = _TableField(
        label=_("Table"),
        coerce=int,
        error_messages={
            "required": _("Choose the table from the list."),
            "invalid_choice": _("Choose the table from the list."),
        },
    )
    deal = forms.TypedChoiceField(label=_("Deals"), coerce=int, required=False, empty_value=None)
    score = forms.ChoiceField(
        label=_("Artificial score for the table"),
        choices=score_choices,
        initial=Adjustment.Score.AVERAGE,
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=200,
        help_text=_("The players see it, e.g. «the table did not play the round»."),
    )

    def __init__(self, *args, rounds, tables: dict[int, list[RoundTable]], **kwargs):
        super().__init__(*args, **kwargs)
        self.tables = tables
        self.rounds = {r.pk: r for r in rounds}
        many_rooms = len({r.room_id for r in rounds}) > 1
        self.fields["round"].choices = [(r.pk, round_label(r, many_rooms)) for r in rounds]
        self.fields["round"].widget.attrs["data-adjust-round"] = ""
        self.fields["table"].widget.attrs["data-adjust-table"] = ""
        self.fields["deal"].widget.attrs["data-adjust-deal"] = ""
        in_round = tables.get(self._chosen_int("round"), [])
        if not self.is_bound and in_round and "table" not in self.initial:
            self.initial["table"] = in_round[0].number
        self.fields["table"].choices = [(t.number, t.label) for t in in_round]
        # Deal 4 only if some table plays a set of four (static/js/adjustments.js hides it
        # for a table of three; without it the server names the set that has no deal 4).
        count = max((len(t.deals) for found in tables.values() for t in found), default=4)
        self.fields["deal"].choices = [("", _("every deal of the set"))] + [
            (n, _("deal %(n)d of the set only") % {"n": n}) for n in range(1, count + 1)
        ]
        for position in SEATS:
            self.fields[f"score_{position}"] = forms.ChoiceField(
                label=_("Seat %(position)s") % {"position": position},
                required=False,
                choices=SEAT_SCORE_CHOICES,
            )

    def _chosen(self, name: str):
        if self.is_bound:
            return self.data.get(self.add_prefix(name))
        return self.initial.get(name, self.fields[name].initial)

    def _chosen_int(self, name: str) -> int | None:
        value = str(self._chosen(name) if self._chosen(name) is not None else "").strip()
        return int(value) if value.isascii() and value.isdigit() else None

    def chosen_table(self) -> RoundTable | None:
        """The table the form is about now (typed or prefilled), if it is one of the round's."""
        number = self._chosen_int("table")
        return next(
            (t for t in self.tables.get(self._chosen_int("round"), []) if t.number == number),
            None,
        )

    def offered_seats(self) -> str:
        """The seats the form offers: the chosen table's (on one deal, those that play it);
        every seat while no table is chosen."""
        table = self.chosen_table()
        if table is None:
            return "".join(SEATS)
        deal = self._chosen_int("deal")
        if deal is not None and 1 <= deal <= len(table.deals):
            return "".join(p for p in table.seats if p in table.deals[deal - 1])
        return table.seats

    def layout_json(self) -> str:
        """Every round's tables for static/js/adjustments.js."""
        return json.dumps(
            {str(r): [t.as_dict() for t in found] for r, found in self.tables.items()},
            separators=(",", ":"),
        )

    def seat_fields(self):
        """(field, offered) of each seat, W N E S: the page hides the seats not offered."""
        offered = self.offered_seats()
        return [(self[f"score_{p}"], p in offered) for p in SEATS]

    def main_fields(self):
        return [self[name] for name in ("round", "table", "deal", "score")]

    def clean_table(self):
        number = self.cleaned_data.get("table")
        rnd = self.rounds.get(self.cleaned_data.get("round"))
        if rnd is not None and self.chosen_table() is None:
            raise ValidationError(
                _("No table %(table)s plays in round %(round)d: choose one from the list.")
                % {"table": number, "round": rnd.number}
            )
        return number

    def seat_scores(self) -> dict[str, str]:
        return {p: self.cleaned_data.get(f"score_{p}") or "" for p in SEATS}

    def apply(self, error: ValidationError) -> None:
        """The service's problems next to their fields (``scores.N`` → ``score_N``)."""
        apply_service_error(self, error, _score_field)


def _score_field(name: str) -> str:
    return f"score_{name.partition('.')[2]}" if name.startswith("scores.") else name


def round_label(rnd, many_rooms: bool) -> str:
    """«Session 1 · Room 2 · round 3», shortened when the event has a single room."""
    if many_rooms:
        return _("%(session)s · %(room)s · round %(round)d") % {
            "session": rnd.room.session,
            "room": rnd.room,
            "round": rnd.number,
        }
    return _("Round %(round)d") % {"round": rnd.number}
