"""The director's register pages' forms (docs/register.md)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from events.models import Person, PersonIdentifier
from events.names import clean_name
from events.register import matching
from events.roster import IDENTIFIER_MAX


class RegisterSearchForm(forms.Form):
    q = forms.CharField(label=_("Search by name, club or number"), required=False, max_length=200)


class PersonForm(forms.ModelForm):
    """A person's names, club, whether he is hidden, and his numbers (each kind's numbers
    comma-separated: a person may hold two club cards)."""

    club_card = forms.CharField(
        label=_("Club cards"),
        required=False,
        max_length=500,
        help_text=_("Comma-separated; leave empty for none."),
    )
    federation = forms.CharField(
        label=_("Federation numbers"),
        required=False,
        max_length=500,
        help_text=_("Comma-separated; leave empty for none."),
    )

    class Meta:
        model = Person
        fields = ["last_name", "first_name", "patronymic", "club", "hidden"]
        help_texts = {
            "hidden": _(
                "On the person's request: public pages of the register do not name him. "
                "His events' results stay as published."
            )
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            for kind in PersonIdentifier.Kind:
                values = self.instance.identifiers.filter(kind=kind).values_list("value", flat=True)
                self.fields[kind.value].initial = ", ".join(values)

    def _required(self, name, label):
        value = clean_name(self.cleaned_data[name])
        if not value:
            raise forms.ValidationError(_("The %(field)s cannot be empty.") % {"field": label})
        return value

    def clean_last_name(self):
        return self._required("last_name", _("last name"))

    def clean_first_name(self):
        return self._required("first_name", _("first name"))

    def _numbers(self, name, label):
        values = []
        for part in self.cleaned_data[name].split(","):
            value = matching.norm_identifier(part)
            if not value:
                continue
            if len(value) > IDENTIFIER_MAX:
                raise forms.ValidationError(
                    _("%(field)s is longer than %(max)d characters")
                    % {"field": label, "max": IDENTIFIER_MAX}
                )
            if value not in values:
                values.append(value)
        return values

    def clean_club_card(self):
        return self._numbers("club_card", _("club card"))

    def clean_federation(self):
        return self._numbers("federation", _("federation number"))


class RegisterImportForm(forms.Form):
    """The register's CSV file (events.register.io)."""

    file = forms.FileField(label=_("CSV file (UTF-8 or Windows-1251)"))


class RegisterImportConfirmForm(forms.Form):
    """The decoded text travels back with the choices: nothing is kept on the server."""

    text = forms.CharField(widget=forms.HiddenInput, max_length=2_000_000, strip=False)
