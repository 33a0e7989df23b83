"""The director's ladder settings (docs/ladder.md «The ladder in the app»): its name, its
address and pct_grade_v1's six parameters; and the public ladder's filters (club, season,
the inactive players)."""

from __future__ import annotations

import re

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from scoring.models import Ladder

#: The address: Latin letters, digits and single hyphens between them («club-pulya»).
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

#: The parameters that move grades: a change of one asks for a replay.
PARAMETERS = ("k", "k_provisional", "start", "provisional_deals", "min_deals", "min_tables")


class _Number(forms.FloatField):
    """A number typed with a point or a comma (0,0025), refused with the field's name."""

    def to_python(self, value):
        if isinstance(value, str):
            value = value.strip().replace(",", ".")
        return super().to_python(value)


class LadderForm(forms.ModelForm):
    k = _Number(label=_("k"))
    k_provisional = _Number(label=_("k while provisional"))
    start = _Number(label=capfirst(_("start grade")))

    class Meta:
        model = Ladder
        fields = ["name", "slug", *PARAMETERS]
        labels = {
            "name": _("Ladder's name"),
            "slug": _("Address"),
        }
        help_texts = {
            "name": _("Shown at the top of the public ladder, e.g. «Pulya club: ladder»."),
            "slug": _("Latin letters, digits and hyphens: the ladder's public address /ladder/…/."),
            "provisional_deals": _(
                "A player's grade is provisional while he has fewer rated deals than this: "
                "it moves with the larger k."
            ),
            "min_deals": _("A player with fewer deals in a session is not rated in it."),
            "min_tables": _("A session with fewer tables is not rated."),
        }

    #: The six parameters' help (pct_grade_v1's defaults named).
    PARAMETER_HELP = {
        "k": _(
            "How far one deal moves an established grade: grade + k × deals × (actual % − "
            "expected %). Default 0.0025."
        ),
        "k_provisional": _("The same while the grade is provisional. Default 0.0075."),
        "start": _("Everyone's grade before his first rated session, 0 to 100. Default 50."),
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, text in self.PARAMETER_HELP.items():
            self.fields[name].help_text = text
        defaults = {
            "provisional_deals": _("Default 100."),
            "min_deals": _("Default 8."),
            "min_tables": _("Default 2."),
        }
        for name, text in defaults.items():
            self.fields[name].help_text = f"{self.fields[name].help_text} {text}"
        for name in PARAMETERS:
            label = self.fields[name].label
            field = self.fields[name]
            if field.initial is None:  # a declared field has not the model's default
                field.initial = Ladder._meta.get_field(name).default
            field.validators = []  # the ranges are clean_<name>'s, worded with the field
            field.error_messages["required"] = _("%(field)s: enter a number.") % {"field": label}
            field.error_messages["invalid"] = _("%(field)s: enter a number, e.g. %(example)s.") % {
                "field": label,
                "example": "0.0025" if name.startswith("k") else "8",
            }
            field.widget.attrs["inputmode"] = (
                "decimal" if name in ("k", "k_provisional", "start") else "numeric"
            )
        self.fields["name"].error_messages["required"] = _("Ladder's name: cannot be empty.")
        self.fields["slug"].error_messages["required"] = _("Address: cannot be empty.")
        # The rule is ours (clean_slug), worded with the field's name.
        self.fields["slug"].validators = []
        self.fields["slug"].widget.attrs.update(autocapitalize="none", spellcheck="false")

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Ladder's name: cannot be empty."))
        return name

    def clean_slug(self):
        slug = self.cleaned_data["slug"].strip().lower()
        if not SLUG.match(slug):
            raise forms.ValidationError(
                _(
                    "Address: Latin letters, digits and hyphens only (a hyphen between them), "
                    "e.g. club-pulya."
                )
            )
        taken = Ladder.objects.filter(slug=slug).exclude(pk=self.instance.pk)
        if taken.exists():
            raise forms.ValidationError(
                _("Address: «%(slug)s» is taken by another ladder; choose another.")
                % {"slug": slug}
            )
        return slug

    def _range(self, name, low, high, *, above=False):
        value = self.cleaned_data.get(name)
        if value is None:
            return value
        label = self.fields[name].label
        if above and not value > low or value < low or value > high:
            rule = (
                _("%(field)s: a number above %(low)s, at most %(high)s.")
                if above
                else _("%(field)s: a number from %(low)s to %(high)s.")
            )
            raise forms.ValidationError(rule % {"field": label, "low": low, "high": high})
        return value

    def clean_k(self):
        return self._range("k", 0, 1, above=True)

    def clean_k_provisional(self):
        return self._range("k_provisional", 0, 1, above=True)

    def clean_start(self):
        return self._range("start", 0, 100)

    def _whole(self, name, high=10_000):
        value = self.cleaned_data.get(name)
        if value is None:
            return value
        if value < 0 or value > high:
            raise forms.ValidationError(
                _("%(field)s: a whole number from 0 to %(high)s.")
                % {"field": self.fields[name].label, "high": high}
            )
        return value

    def clean_provisional_deals(self):
        return self._whole("provisional_deals")

    def clean_min_deals(self):
        return self._whole("min_deals")

    def clean_min_tables(self):
        return self._whole("min_tables", 1000)

    def parameters_changed(self) -> bool:
        return any(name in self.changed_data for name in PARAMETERS)


class LadderFilterForm(forms.Form):
    """The public ladder's filters: a club of those listed, a season (a calendar year of
    the ladder's history), and whether the inactive players are shown too."""

    club = forms.ChoiceField(label=_("Club"), required=False)
    season = forms.ChoiceField(label=_("Season"), required=False)

    def __init__(self, data, *, clubs: list[str], seasons: list[int]):
        super().__init__(data)
        self.fields["club"].choices = [("", _("all clubs")), *[(c, c) for c in clubs]]
        self.fields["season"].choices = [
            ("", _("today")),
            *[(str(y), str(y)) for y in seasons],
        ]
        self.fields["club"].error_messages["invalid_choice"] = _(
            "Club: «%(value)s» has nobody on this ladder; choose one of the list."
        )
        self.fields["season"].error_messages["invalid_choice"] = _(
            "Season: «%(value)s» is not a year of this ladder; choose one of the list."
        )
