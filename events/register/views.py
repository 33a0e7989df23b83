"""The director's register of players (docs/register.md): the list with its search, and a
person's page (edit, hide from public pages, his spellings and his events)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from events.forms import apply_service_error
from events.models import Person
from events.register import services
from events.register.forms import PersonForm, RegisterSearchForm

#: Persons listed at once: a search narrows a bigger register.
LIST_MAX = 200


@login_required
def register_list(request):
    form = RegisterSearchForm(request.GET or None)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    found = services.register_search(request.user, query).prefetch_related("identifiers")
    total = found.count()
    return render(
        request,
        "director/register_list.html",
        {
            "form": form,
            "query": query,
            "persons": list(found[:LIST_MAX]),
            "total": total,
            "cut": total > LIST_MAX,
            "list_max": LIST_MAX,
        },
    )


@login_required
def person_edit(request, person_pk):
    person = get_object_or_404(Person, pk=person_pk, owner=request.user)
    form = PersonForm(request.POST or None, instance=person)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        numbers = {kind: data.pop(kind) for kind in ("club_card", "federation")}
        try:
            services.person_update(Person.objects.get(pk=person.pk), numbers=numbers, **data)
        except ValidationError as error:
            apply_service_error(form, error)
        else:
            messages.success(request, _("Person saved."))
            return redirect("director:register_list")
    entries = person.entries.select_related("event").order_by("-event__date", "event__name")
    return render(
        request,
        "director/register_person.html",
        {"form": form, "person": person, "aliases": person.aliases.all(), "entries": entries},
    )
