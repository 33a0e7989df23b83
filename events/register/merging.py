"""Merging two persons of a register, and undoing a merge (issue 24; docs/register.md
«Merging and its undo»).

:func:`person_merge` moves the absorbed person's players (his events), spellings and
numbers to the person kept and marks him merged; the :class:`~events.models.PersonMerge`
row records exactly what moved, so that :func:`merge_undo` moves back exactly that. Two
players of one event are never one person: two persons who both played one event are not
merged. Both tell the layers above, after commit, that the register changed who played
what (``events.signals.register_changed``): the ladder is replayed from scratch.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from events.models import Entry, Event, Person, PersonAlias, PersonIdentifier, PersonMerge
from events.signals import register_changed


def _spelling(alias: PersonAlias) -> tuple[str, str, str, str]:
    return (alias.last_name, alias.first_name, alias.patronymic, alias.club)


def _event_label(event: Event) -> str:
    return f"«{event.name}» ({date_format(event.date, 'd.m.Y')})"


def shared_events(a: Person, b: Person) -> list[Event]:
    """The events both persons played: such two are never one person."""
    return list(
        Event.objects.filter(entries__person=a)
        .filter(pk__in=Entry.objects.filter(person=b).values("event"))
        .distinct()
        .order_by("date", "name", "pk")
    )


def _locked(*pks: int) -> dict[int, Person]:
    """The persons, their rows locked in one order (no deadlock between two merges)."""
    return {p.pk: p for p in Person.objects.select_for_update().filter(pk__in=pks).order_by("pk")}


def _changed(owner_id: int) -> None:
    transaction.on_commit(
        lambda: register_changed.send(sender=Person, owner_id=owner_id), robust=False
    )


def merge_problem(kept: Person, absorbed: Person, *, by_user) -> str:
    """Why these two cannot be merged ("" when they can): the page says it before the
    director confirms, and :func:`person_merge` refuses with it."""
    if kept.pk == absorbed.pk:
        return _("A person cannot be merged with himself.")
    if kept.owner_id != by_user.pk or absorbed.owner_id != by_user.pk:
        return _("Only persons of your own register can be merged.")
    for person in (kept, absorbed):
        if person.merged_into_id is not None:
            return _("%(person)s is already merged with %(other)s: undo that merge first.") % {
                "person": person.full_name,
                "other": person.merged_into.full_name,
            }
    both = shared_events(kept, absorbed)
    if both:
        return _(
            "%(kept)s and %(absorbed)s played in one event: %(events)s. Two players "
            "of one event are never one person."
        ) % {
            "kept": kept.full_name,
            "absorbed": absorbed.full_name,
            "events": ", ".join(_event_label(e) for e in both),
        }
    return ""


def person_merge(kept: Person, absorbed: Person, *, by_user) -> PersonMerge:
    """Merge ``absorbed`` into ``kept``, both of ``by_user``'s register; a ValidationError
    says why not (another register, one person twice, one already merged, one event both
    played)."""
    if kept.pk == absorbed.pk:
        raise ValidationError(_("A person cannot be merged with himself."))
    with transaction.atomic():
        persons = _locked(kept.pk, absorbed.pk)
        kept, absorbed = persons.get(kept.pk), persons.get(absorbed.pk)
        if kept is None or absorbed is None:
            raise ValidationError(_("The person is no longer in the register."))
        problem = merge_problem(kept, absorbed, by_user=by_user)
        if problem:
            raise ValidationError(problem)
        have = {_spelling(a) for a in kept.aliases.all()}
        moved_aliases, left_aliases = [], []
        for alias in absorbed.aliases.order_by("pk"):
            (left_aliases if _spelling(alias) in have else moved_aliases).append(alias.pk)
        entry_ids = list(absorbed.entries.order_by("pk").values_list("pk", flat=True))
        identifier_ids = list(absorbed.identifiers.order_by("pk").values_list("pk", flat=True))
        try:
            with transaction.atomic():
                Entry.objects.filter(pk__in=entry_ids).update(person=kept)
        except IntegrityError:
            # A player linked to one of the two in the same event meanwhile.
            raise ValidationError(
                _(
                    "%(kept)s and %(absorbed)s have just been entered in one event: two "
                    "players of one event are never one person."
                )
                % {"kept": kept.full_name, "absorbed": absorbed.full_name}
            ) from None
        PersonAlias.objects.filter(pk__in=moved_aliases).update(person=kept)
        # Same owner, so the number stays unique in the register.
        PersonIdentifier.objects.filter(pk__in=identifier_ids).update(person=kept)
        # An update, not save(): the person's row changes in this field only, so that the
        # undo leaves it exactly as it was.
        Person.objects.filter(pk=absorbed.pk).update(merged_into=kept)
        merge = PersonMerge.objects.create(
            owner_id=by_user.pk,
            kept=kept,
            absorbed=absorbed,
            made_by=by_user,
            entry_ids=entry_ids,
            alias_ids=moved_aliases,
            identifier_ids=identifier_ids,
            alias_ids_left=left_aliases,
        )
        _changed(by_user.pk)
    return merge


def later_merges(merge: PersonMerge):
    """The merges made after this one, still in force, that involve either of its persons:
    they are undone first."""
    people = [merge.kept_id, merge.absorbed_id]
    return (
        PersonMerge.objects.filter(owner_id=merge.owner_id, pk__gt=merge.pk, undone_at=None)
        .filter(Q(kept__in=people) | Q(absorbed__in=people))
        .select_related("kept", "absorbed")
        .order_by("-pk")
    )


def merge_undo(merge: PersonMerge, *, by_user) -> PersonMerge:
    """Undo a merge of ``by_user``'s register: the absorbed person gets back exactly the
    players, spellings and numbers the merge moved, and is no longer merged."""
    with transaction.atomic():
        merge = PersonMerge.objects.select_for_update().filter(pk=merge.pk).first()
        if merge is None or merge.owner_id != by_user.pk:
            raise ValidationError(_("Only a merge of your own register can be undone."))
        if merge.undone_at is not None:
            raise ValidationError(_("This merge has already been undone."))
        persons = _locked(merge.kept_id, merge.absorbed_id)
        kept, absorbed = persons[merge.kept_id], persons[merge.absorbed_id]
        later = list(later_merges(merge))
        if later:
            raise ValidationError(
                _("Undo the later merge of %(later)s first.")
                % {
                    "later": ", ".join(
                        f"{m.absorbed.full_name} → {m.kept.full_name}" for m in later
                    )
                }
            )
        # What the merge moved and is still the kept person's (a player whose event was
        # deleted since is gone with it).
        Entry.objects.filter(pk__in=merge.entry_ids, person=kept).update(person=absorbed)
        PersonAlias.objects.filter(pk__in=merge.alias_ids, person=kept).update(person=absorbed)
        PersonIdentifier.objects.filter(pk__in=merge.identifier_ids, person=kept).update(
            person=absorbed
        )
        Person.objects.filter(pk=absorbed.pk).update(merged_into=None)
        merge.undone_at = timezone.now()
        merge.undone_by = by_user
        merge.save(update_fields=["undone_at", "undone_by"])
        _changed(by_user.pk)
    return merge
