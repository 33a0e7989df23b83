"""The forms of merging two persons of the register (docs/register.md «Merging and its
undo»): whom to merge with, and which of the two is kept."""

from django import forms
from django.utils.translation import gettext_lazy as _

from events.register.services import person_label


class MergeWithForm(forms.Form):
    """The other person, one of the search's results (shown as radio buttons)."""

    other = forms.TypedChoiceField(
        label=_("The other person"),
        coerce=int,
        error_messages={
            "required": _("Choose the other person: one of the persons found."),
            "invalid_choice": _(
                "The person chosen is not among the persons found: search again and choose."
            ),
        },
    )

    def __init__(self, *args, candidates=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["other"].choices = [(p.pk, person_label(p)) for p in candidates]


class MergeKeepForm(forms.Form):
    """Which of the two is kept; the other joins him."""

    keep = forms.TypedChoiceField(
        label=_("Keep"),
        coerce=int,
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Choose which of the two persons is kept."),
            "invalid_choice": _("Choose which of the two persons is kept."),
        },
    )

    def __init__(self, *args, persons=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["keep"].choices = [(p.pk, person_label(p)) for p in persons]
