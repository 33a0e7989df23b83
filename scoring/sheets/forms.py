"""Forms of the scoring pages. They only collect input: the rules are checked by the service
(and the pure core behind it), whose problems are put back next to the fields here."""

from __future__ import annotations

import json
from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from events.forms import apply_service_error
from scoring.models import Adjustment


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

    def __init__(
        self,
        *args,
        rounds,
        tables: dict[int, list[RoundTable]],
        many_rooms: bool | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.tables = tables
        self.rounds = {r.pk: r for r in rounds}
        if many_rooms is None:  # the event's rooms; a room director is offered his only
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
