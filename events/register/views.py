"""The director's register of players (docs/register.md): the list with its search, and a
person's page (edit, hide from public pages, his spellings, his events and his merges;
merging itself is in merge_views)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from events.forms import apply_service_error
from events.models import Person, PersonMerge
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
    person = get_object_or_404(
        Person.objects.select_related("merged_into"), pk=person_pk, owner=request.user
    )
    if person.merged_into_id and request.method == "POST":
        # A merged person is edited as the person he was merged with, or after the undo.
        messages.error(request, _("This person is merged with another: undo that merge first."))
        return redirect("director:person_edit", person.pk)
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
        {
            "form": form,
            "person": person,
            "aliases": person.aliases.all(),
            "entries": entries,
            "merges": PersonMerge.objects.filter(Q(kept=person) | Q(absorbed=person))
            .select_related("kept", "absorbed")
            .order_by("-pk"),
        },
        status=400 if form.errors else 200,
    )
