"""The director's pages of merging two persons of his register and undoing a merge
(docs/register.md «Merging and its undo»): choose the other person, confirm which one is
kept, the merge's page, its undo, and the list of the register's merges."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from events.models import Entry, Person, PersonAlias, PersonIdentifier, PersonMerge
from events.register import merging, services
from events.register.forms import RegisterSearchForm
from events.register.merge_forms import MergeKeepForm, MergeWithForm

#: Persons found listed at once on the choice page: a search narrows a bigger register.
FOUND_MAX = 50


def _own_person(request, pk) -> Person:
    return get_object_or_404(
        Person.objects.select_related("merged_into"), pk=pk, owner=request.user
    )


def _own_merge(request, pk) -> PersonMerge:
    return get_object_or_404(
        PersonMerge.objects.select_related("kept", "absorbed", "made_by", "undone_by"),
        pk=pk,
        owner=request.user,
    )


def _events(person: Person) -> list[Entry]:
    return list(person.entries.select_related("event").order_by("-event__date", "event__name"))


def _side(person: Person) -> dict:
    """What the pages show of one of the two: his numbers, spellings and events."""
    return {
        "person": person,
        "identifiers": list(person.identifiers.all()),
        "aliases": list(person.aliases.all()),
        "entries": _events(person),
    }


def _candidate(person: Person, played: set[int]) -> dict:
    """A person found, his events (latest first) and those he played with the person whose
    page it is (two players of one event are never one person: the merge is refused)."""
    entries = sorted(person.entries.all(), key=lambda e: (e.event.date, e.event.name))[::-1]
    return {
        "person": person,
        "entries": entries,
        "shared": [e.event for e in entries if e.event_id in played],
    }


@login_required
def person_merge_choose(request, person_pk):
    person = _own_person(request, person_pk)
    if person.merged_into_id:
        messages.error(request, _("This person is merged with another: undo that merge first."))
        return redirect("director:person_edit", person.pk)
    data = request.GET if "q" in request.GET else {"q": person.last_name}
    search = RegisterSearchForm(data)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    found = (
        services.register_search(request.user, query)
        .exclude(pk=person.pk)
        .prefetch_related("identifiers", "entries__event")
    )
    total = found.count()
    candidates = list(found[:FOUND_MAX])
    choose = MergeWithForm(request.GET if "next" in request.GET else None, candidates=candidates)
    if choose.is_bound and choose.is_valid():
        return redirect("director:person_merge_confirm", person.pk, choose.cleaned_data["other"])
    chosen = str(request.GET.get("other", ""))
    played = set(person.entries.values_list("event_id", flat=True))
    return render(
        request,
        "director/register_merge_choose.html",
        {
            "person": person,
            "side": _side(person),
            "search": search,
            "query": query,
            "choose": choose,
            "candidates": [_candidate(p, played) for p in candidates],
            "chosen": chosen,
            "total": total,
            "cut": total > FOUND_MAX,
            "found_max": FOUND_MAX,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def person_merge_confirm(request, person_pk, other_pk):
    person = _own_person(request, person_pk)
    other = _own_person(request, other_pk)
    if person.pk == other.pk:
        raise Http404
    form = MergeKeepForm(
        request.POST if request.method == "POST" else None,
        initial={"keep": person.pk},
        persons=(person, other),
    )
    problem = merging.merge_problem(person, other, by_user=request.user)
    if request.method == "POST" and form.is_valid() and not problem:
        kept, absorbed = (
            (person, other) if form.cleaned_data["keep"] == person.pk else (other, person)
        )
        try:
            merge = merging.person_merge(kept, absorbed, by_user=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                _("%(absorbed)s is merged with %(kept)s.")
                % {"absorbed": absorbed.full_name, "kept": kept.full_name},
            )
            return redirect("director:merge_detail", merge.pk)
    return render(
        request,
        "director/register_merge_confirm.html",
        {
            "person": person,
            "other": other,
            "sides": [_side(person), _side(other)],
            "pairs": [(person, other), (other, person)],
            "form": form,
            "problem": problem,
        },
        status=400 if form.errors else 200,
    )


def _moved(merge: PersonMerge) -> dict:
    return {
        "entries": list(
            Entry.objects.filter(pk__in=merge.entry_ids)
            .select_related("event", "person")
            .order_by("-event__date", "event__name")
        ),
        "aliases": list(PersonAlias.objects.filter(pk__in=merge.alias_ids)),
        "identifiers": list(PersonIdentifier.objects.filter(pk__in=merge.identifier_ids)),
    }


@login_required
def merge_detail(request, merge_pk):
    merge = _own_merge(request, merge_pk)
    return render(
        request,
        "director/register_merge_detail.html",
        {"merge": merge, "moved": _moved(merge), "later": list(merging.later_merges(merge))},
    )


@login_required
@require_http_methods(["GET", "POST"])
def merge_undo(request, merge_pk):
    merge = _own_merge(request, merge_pk)
    if merge.undone_at is not None:
        messages.error(request, _("This merge has already been undone."))
        return redirect("director:merge_detail", merge.pk)
    problem = ""
    if request.method == "POST":
        try:
            merging.merge_undo(merge, by_user=request.user)
        except ValidationError as error:
            problem = " ".join(error.messages)
        else:
            messages.success(
                request,
                _("The merge is undone: %(absorbed)s has his events back.")
                % {"absorbed": merge.absorbed.full_name},
            )
            return redirect("director:merge_detail", merge.pk)
    return render(
        request,
        "director/register_merge_undo.html",
        {
            "merge": merge,
            "moved": _moved(merge),
            "later": list(merging.later_merges(merge)),
            "problem": problem,
        },
    )


@login_required
def merge_list(request):
    merges = PersonMerge.objects.filter(owner=request.user).select_related(
        "kept", "absorbed", "made_by"
    )
    return render(request, "director/register_merges.html", {"merges": merges})
