import json

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from events import gamesettings, signals, throttle
from events.models import GAME_FIELDS, Entry, Event
from events.names import clean_name

#: The game an event plays unless the director chooses another (the model's default).
_DEFAULT_GAME = Event._meta.get_field("game").default


def apply_service_error(form, error: ValidationError, field_for=None) -> None:
    """Put a service's ValidationError on the form: each problem next to the field it names
    (``field_for`` maps a service's name to the form's, e.g. ``scores.N`` → ``score_N``),
    the rest, and a problem of no field, above the form. What was typed stays."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for name, errors in error.error_dict.items():
        if field_for is not None:
            name = field_for(name)
        form.add_error(name if name in form.fields else None, errors)


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


#: Short labels of the suit orders (the model's say «(spades lowest)» too): a select shows
#: one line, and at 360 px the long one is cut. The field's help says how to read them.
SUIT_ORDER_LABELS = {
    Event.SuitOrder.SPADES_LOWEST: "♠ < ♣ < ♦ < ♥",
    Event.SuitOrder.CLUBS_LOWEST: "♣ < ♠ < ♦ < ♥",
}
#: The pot rules' labels in a select's one line (the model's names stay on the other pages).
POT_RULE_LABELS = {
    Event.PotRule.FIXED: _("Fixed stake"),
    Event.PotRule.RUNNING: _("Running pot with ante"),
    Event.PotRule.TRUMP: _("Stake by the trump"),
}


class EventForm(forms.ModelForm):
    """The event's settings. The page groups them: what every event has, then the game with
    each game's own part (its fields, as the game registered them: ``events.gamesettings``;
    templates/director/event_form.html; static/js/game_options.js shows only the chosen
    game's)."""

    class Meta:
        model = Event
        fields = [
            "name",
            "date",
            "venue",
            "minutes_per_deal",
            "scoring_method",
            "pot_rule",
            "stake",
            "suit_order",
            "average_plus",
            "average",
            "average_minus",
            *GAME_FIELDS,
        ]
        widgets = {"date": DateInput()}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Without JavaScript the options stay at «the convention's default» unless chosen;
        # with it (static/js/game_options.js) they follow the game to its defaults.
        default = _("as the convention has it")
        for name in ("ten", "responsibility"):
            choices = [c for c in self.fields[name].choices if c[0]]
            self.fields[name].choices = [("", default), *choices]
        # The games the scoring side registered, read now (a game registered later counts).
        self.fields["game"].choices = gamesettings.choices()
        defaults = {
            game: {"ten": options["ten"], "responsibility": options["responsibility"]}
            for game, options in gamesettings.all_option_defaults().items()
        }
        self.fields["game"].widget.attrs["data-game-defaults"] = json.dumps(defaults)
        for name in GAME_FIELDS[1:]:
            self.fields[name].widget.attrs["data-game-option"] = ""
        self.fields["suit_order"].choices = [
            (value, SUIT_ORDER_LABELS.get(value, label))
            for value, label in self.fields["suit_order"].choices
        ]
        self.fields["suit_order"].help_text = _("From the lowest suit to the highest.")
        self.fields["pot_rule"].choices = [
            (value, POT_RULE_LABELS.get(value, label))
            for value, label in self.fields["pot_rule"].choices
        ]
        # A form sent without the game (an older page, a script) keeps the event's.
        self.fields["game"].required = False
        self.game_fixed = bool(
            self.instance.pk
            and signals.any_answer(signals.results_recorded, sender=Event, event=self.instance)
        )
        if self.game_fixed:
            # The sheets are settled by this game: it can no longer change.
            for name in GAME_FIELDS:
                self.fields[name].disabled = True

    def _bound(self, names) -> list:
        return [self[name] for name in names if name in self.fields]

    def common_fields(self) -> list:
        """Every event's fields, whatever its game."""
        grouped = {"game"} | {name for part, _games in gamesettings.parts() for name in part.fields}
        return [f for f in self.visible_fields() if f.name not in grouped]

    def game_parts(self) -> list[dict]:
        """Each game's own part of the form (``events.gamesettings.parts``, as the games
        registered them): its group's id, legend and help, its fields, and the conventions
        that show it (static/js/game_options.js hides the others')."""
        return [
            {
                "id": part.id,
                "legend": part.legend,
                "help": part.help,
                "fields": self._bound(part.fields),
                "games": " ".join(games),
            }
            for part, games in gamesettings.parts()
        ]

    def clean_game(self):
        return self.cleaned_data.get("game") or self.instance.game or _DEFAULT_GAME

    def clean_name(self):
        name = clean_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("The name cannot be empty."))
        return name

    def clean(self):
        data = super().clean()
        lo, mid, hi = (data.get(k) for k in ("average_minus", "average", "average_plus"))
        if None not in (lo, mid, hi) and not lo <= mid <= hi:
            raise forms.ValidationError(
                _("Artificial scores must satisfy average minus ≤ average ≤ average plus.")
            )
        return data


class EntryForm(forms.ModelForm):
    class Meta:
        model = Entry
        fields = ["last_name", "first_name", "club", "number"]

    def clean_last_name(self):
        return _required_text(self.cleaned_data["last_name"], _("last name"))

    def clean_first_name(self):
        return _required_text(self.cleaned_data["first_name"], _("first name"))


def _required_text(value: str, label) -> str:
    value = clean_name(value)
    if not value:
        raise forms.ValidationError(_("The %(field)s cannot be empty.") % {"field": label})
    return value


class PasteForm(forms.Form):
    text = forms.CharField(
        label=_("Players, one per line: «Фамилия Имя; клуб»"),
        widget=forms.Textarea(attrs={"rows": 12, "autocomplete": "off"}),
        max_length=200_000,
    )


class ImportUploadForm(forms.Form):
    file = forms.FileField(label=_("CSV file (UTF-8 or Windows-1251)"))


class ImportConfirmForm(forms.Form):
    """The decoded text travels back with the confirmation: nothing is kept on the server."""

    text = forms.CharField(widget=forms.HiddenInput, max_length=2_000_000)
    source = forms.ChoiceField(
        choices=[("csv", "csv"), ("paste", "paste")], widget=forms.HiddenInput
    )


class DrawForm(forms.Form):
    seed = forms.CharField(
        label=_("Seed (leave empty for a random one; enter an earlier seed to repeat a draw)"),
        required=False,
        max_length=64,
    )


class LoginForm(AuthenticationForm):
    """Django's login form. Built with ``locked_seconds`` (events.views.login_locked, while
    the name is locked from this address) it says so with the minutes left, and
    authenticates nothing."""

    def __init__(self, request=None, *args, locked_seconds: int = 0, **kwargs):
        super().__init__(request, *args, **kwargs)
        self.locked_seconds = locked_seconds

    def clean(self):
        if self.locked_seconds:
            raise ValidationError(throttle.locked_message(self.locked_seconds), code="throttled")
        return super().clean()
