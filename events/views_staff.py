"""The event's team on the director's pages (issue 34): «Судейская бригада» (the list, the
chief's form to add or change a member, his buttons to remove one) and the account's own
password. The rules are ``events.staff``'s; the door is ``events.access``."""

from django import forms
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from events import staff
from events.access import director_event
from events.forms import apply_service_error
from events.models import EventStaff


class StaffForm(forms.Form):
    login = forms.CharField(label=gettext_lazy("Login"), max_length=150)
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=EventStaff.Role.choices)
    rooms = forms.CharField(
        label=gettext_lazy("Rooms"),
        required=False,
        max_length=200,
        help_text=gettext_lazy("For a room director: the room numbers, e.g. 1, 2."),
    )
    password = forms.CharField(
        label=gettext_lazy("Password of a new account"),
        required=False,
        max_length=128,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        help_text=gettext_lazy(
            "Only to create a new account: pass it on to him; it is not shown again."
        ),
    )

    def clean_rooms(self):
        text = self.cleaned_data["rooms"].replace(";", ",")
        rooms = []
        for part in filter(None, (p.strip() for p in text.split(","))):
            if not part.isascii() or not part.isdigit():
                raise ValidationError(
                    _("A room is its number: «%(room)s» is not one.") % {"room": part}
                )
            rooms.append(int(part))
        return rooms


def _page(request, event, form, status=200, shown_password=None):
    return render(
        request,
        "director/event_staff.html",
        {
            "event": event,
            "team": staff.staff_list(event),
            "role_labels": staff.ROLE_LABELS,
            "form": form,
            "may_staff": staff.may(request.user, event, "staff"),
            "shown_password": shown_password,
        },
        status=status,
    )


@director_event
def event_staff(request, event):
    """«Судейская бригада»: everyone of the team sees it; the chief adds and removes."""
    form = StaffForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            row = staff.staff_add(
                event,
                data["login"],
                data["role"],
                data["rooms"],
                data["password"] or None,
                by_user=request.user,
            )
        except ValidationError as error:
            apply_service_error(form, error)
        else:
            login = row.user.get_username()
            messages.success(
                request,
                _("%(login)s is on the team: %(role)s.")
                % {"login": login, "role": staff.ROLE_LABELS[row.role]},
            )
            if data["password"]:
                # Shown once, on this answer only (not redirected: nothing keeps it).
                return _page(
                    request,
                    event,
                    StaffForm(),
                    shown_password={"login": login, "password": data["password"]},
                )
            return redirect("director:event_staff", pk=event.pk)
    return _page(request, event, form, status=400 if form.errors else 200)


@director_event
@require_POST
def event_staff_remove(request, event, login):
    try:
        staff.staff_remove(event, login, by_user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(login)s is off the team.") % {"login": login})
    return redirect("director:event_staff", pk=event.pk)


class PasswordChangeView(auth_views.PasswordChangeView):
    """The account's own password (a staff member's made by his chief, say)."""

    template_name = "director/password_change.html"
    success_url = reverse_lazy("director:event_list")

    def form_valid(self, form):
        messages.success(self.request, _("Your password is changed."))
        return super().form_valid(form)
