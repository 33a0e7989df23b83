"""Forms of the movement pages: choosing a plan option, a substitute, a custom scheme."""

import json

from django import forms
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext_lazy as _

from events import jsondepth
from events.models import Entry, Seat, Session

SCHEME_MAX_BYTES = 200_000


class PlanChooseForm(forms.Form):
    option = forms.TypedChoiceField(label=_("Movement"), coerce=int, widget=forms.RadioSelect)
    rounds = forms.IntegerField(
        label=_("Rounds to play"),
        required=False,
        min_value=1,
        help_text=_(
            "Leave empty for a full session. Fewer rounds must be announced before the session."
        ),
    )
    dealing = forms.ChoiceField(
        label=_("Dealing"),
        choices=[
            (Session.Dealing.BY_HAND, _("by hand")),
            (Session.Dealing.APP, _("by the app (from a published seed)")),
        ],
        initial=Session.Dealing.BY_HAND,
        required=False,
        widget=forms.RadioSelect,
        help_text=_(
            "By the app: the cards of every deal come from a secret seed whose hash is shown "
            "from the start; the seed is revealed with the results, so anyone can deal the "
            "session again and check that nobody chose the cards."
        ),
    )
    another = forms.BooleanField(label=_("Yes, create another session"), required=False)
    # What the page showed: the player count and the session about to be created.
    participants = forms.IntegerField(widget=forms.HiddenInput)
    number = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, plan: dict, next_number: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.plan = plan
        self.next_number = next_number
        self.fields["option"].choices = [(o["index"], o["index"] + 1) for o in plan["options"]]
        self.fields["option"].error_messages["invalid_choice"] = _(
            "There is no option %(value)s: choose one of the options shown."
        )
        self.fields["participants"].initial = plan["participants"]
        self.fields["number"].initial = next_number
        if plan["options"]:
            self.fields["option"].initial = plan["options"][0]["index"]
        if next_number == 1:
            del self.fields["another"]

    def clean_participants(self):
        shown = self.cleaned_data["participants"]
        if shown != self.plan["participants"]:
            raise forms.ValidationError(
                _(
                    "The number of playing players changed from %(was)d to %(now)d since the "
                    "page was shown; look at the options again."
                ),
                params={"was": shown, "now": self.plan["participants"]},
            )
        return shown

    def clean(self):
        data = super().clean()
        if "another" in self.fields and not data.get("another"):
            self.add_error(
                "another",
                _(
                    "The event already has a session. Tick the box to create session "
                    "%(number)d as well."
                )
                % {"number": self.next_number},
            )
        index, rounds = data.get("option"), data.get("rounds")
        if index is not None and rounds is not None:
            most = self.plan["options"][index]["metrics"]["rounds"]["min"]
            if rounds > most:
                self.add_error(
                    "rounds",
                    _("This option has at most %(max)d rounds; choose 1–%(max)d.") % {"max": most},
                )
        return data

    @property
    def chosen(self) -> dict:
        return self.plan["options"][self.cleaned_data["option"]]


class PlanSeatsForm(forms.Form):
    """The planner's «seats per table» choice, a GET parameter: any, only 3 or only 4."""

    seats = forms.TypedChoiceField(
        label=_("Seats per table"),
        choices=[("", _("any")), ("3", _("only 3")), ("4", _("only 4"))],
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
    )

    def __init__(self, data=None, **kwargs):
        # An address without ?seats= is the choice «any», not an unbound form.
        super().__init__({"seats": ""} | (data.dict() if data else {}), **kwargs)
        self.fields["seats"].error_messages["invalid_choice"] = _(
            "Seats per table are 3 or 4, not %(value)s: all options are shown."
        )

    def chosen_seats(self) -> int | None:
        return self.cleaned_data.get("seats")


class _EntryChoice(forms.ModelChoiceField):
    def label_from_instance(self, entry):
        parts = [entry.full_name]
        if entry.number is not None:
            parts.insert(0, f"{entry.number} —")
        if entry.status != Entry.Status.ACTIVE:
            parts.append(f"({entry.get_status_display()})")
        return " ".join(parts)


class SubstituteForm(forms.Form):
    leaving = _EntryChoice(label=_("In the place of"), queryset=Entry.objects.none())
    arriving = _EntryChoice(
        label=_("Substitute"),
        queryset=Entry.objects.none(),
        help_text=_(
            "Another player of this event: a late arrival or a reserve. He plays under the "
            "participant's number for the rest of the session."
        ),
    )
    from_round = forms.IntegerField(label=_("From round"), min_value=1)

    def __init__(self, *args, session, **kwargs):
        super().__init__(*args, **kwargs)
        event = session.event
        seated = Seat.objects.filter(round__room__session=session).values("entry_id")
        self.fields["leaving"].queryset = (
            event.entries.filter(pk__in=seated)
            .holding_numbers()
            .order_by("number", "last_name", "first_name")
        )
        self.fields["arriving"].queryset = event.entries.order_by(
            "number", "last_name", "first_name"
        )
        most = max((r.rounds_planned for r in session.rooms.all()), default=1)
        self.fields["from_round"].max_value = most
        self.fields["from_round"].widget.attrs["max"] = most
        self.fields["from_round"].validators.append(MaxValueValidator(most))

    def clean(self):
        data = super().clean()
        if data.get("leaving") and data.get("leaving") == data.get("arriving"):
            self.add_error("arriving", _("A player cannot replace himself."))
        return data


class SchemeForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    text = forms.CharField(
        label=_("Scheme (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "class": "code"}),
        strip=True,
    )
    file = forms.FileField(label=_("…or a JSON file"), required=False)

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if upload is None:
            return None
        if upload.size > SCHEME_MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 200 KB."))
        raw = upload.read()
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise forms.ValidationError(_("The file is not UTF-8 text.")) from None

    def clean(self):
        data = super().clean()
        text, upload = data.get("text") or "", data.get("file") or ""
        if "file" in self.errors:
            return data
        if text and upload:
            raise forms.ValidationError(_("Paste the scheme or upload a file, not both."))
        source = "file" if upload else "text"
        raw = upload or text
        if not raw:
            self.add_error("text", _("Paste the scheme or upload a file."))
            return data
        if len(raw) > SCHEME_MAX_BYTES:
            self.add_error(source, _("The scheme is larger than 200 KB."))
            return data
        try:
            doc = jsondepth.loads(raw)
        except jsondepth.TooDeep as error:
            self.add_error(
                source,
                _("The scheme is nested %(depth)d levels deep; at most %(most)d are allowed.")
                % {"depth": error.depth, "most": error.most},
            )
            return data
        except json.JSONDecodeError as error:
            self.add_error(
                source,
                _("This is not JSON: line %(line)d, column %(col)d: %(msg)s")
                % {"line": error.lineno, "col": error.colno, "msg": error.msg},
            )
            return data
        if isinstance(doc, list) and len(doc) == 1:
            doc = doc[0]  # one row of a fixture file
        if isinstance(doc, dict) and isinstance(doc.get("fields"), dict):
            fields = doc["fields"]
            doc = dict(fields.get("data") or {}, participants=fields.get("participants"))
        if not isinstance(doc, dict):
            self.add_error(
                source, _("The scheme must be a JSON object with groups and set_groups.")
            )
            return data
        data["scheme"] = doc
        data["source"] = source
        return data
