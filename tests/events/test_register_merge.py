"""Merging two persons of a register and undoing the merge (issue 24; docs/register.md
«Merging and its undo»): what moves, what is refused, that an undo restores the rows
exactly, and that the layers above hear of it after commit."""

import pytest
from django.core.exceptions import ValidationError
from django.forms.models import model_to_dict

from events import signals
from events.models import Entry, Person, PersonAlias, PersonIdentifier, PersonMerge
from events.register import services
from events.register.merging import merge_undo, person_merge
from events.services import event_create

pytestmark = pytest.mark.django_db


def _event(owner, name, date):
    return event_create(owner=owner, name=name, date=date)


def _play(event, person, last=None, first=None, club=""):
    return Entry.objects.create(
        event=event,
        last_name=last or person.last_name,
        first_name=first or person.first_name,
        club=club,
        person=person,
    )


@pytest.fixture
def two(director):
    """Семёнов (two events, a club card, two spellings) and his double Семенов (one event,
    a federation number, a spelling Семёнов also has and one of his own)."""
    kept = Person.objects.create(owner=director, last_name="Семёнов", first_name="Пётр", club="ЦДШ")
    absorbed = Person.objects.create(owner=director, last_name="Семенов", first_name="Петр")
    march = _event(director, "Март", "2026-03-01")
    april = _event(director, "Апрель", "2026-04-05")
    may = _event(director, "Май", "2026-05-03")
    _play(march, kept)
    _play(april, kept)
    _play(may, absorbed, club="Тула")
    PersonAlias.objects.create(person=kept, last_name="Семёнов", first_name="Пётр", club="ЦДШ")
    PersonAlias.objects.create(person=kept, last_name="Семенов", first_name="Петр")
    PersonAlias.objects.create(person=absorbed, last_name="Семенов", first_name="Петр")
    PersonAlias.objects.create(person=absorbed, last_name="Семенов", first_name="Петр", club="Тула")
    PersonIdentifier.objects.create(person=kept, kind="club_card", value="17")
    PersonIdentifier.objects.create(person=absorbed, kind="federation", value="9001")
    return kept, absorbed


def snapshot(owner):
    """Every row of the owner's register, field by field (updated_at included)."""
    persons = Person.objects.filter(owner=owner).order_by("pk")
    return {
        "persons": [model_to_dict(p) | {"updated_at": p.updated_at} for p in persons],
        "aliases": [
            model_to_dict(a) | {"created_at": a.created_at}
            for a in PersonAlias.objects.filter(person__owner=owner).order_by("pk")
        ],
        "identifiers": [
            model_to_dict(i) for i in PersonIdentifier.objects.filter(owner=owner).order_by("pk")
        ],
        "entries": [
            model_to_dict(e) for e in Entry.objects.filter(event__owner=owner).order_by("pk")
        ],
    }


def test_a_merge_moves_the_entries_spellings_and_numbers(director, two):
    kept, absorbed = two
    merge = person_merge(kept, absorbed, by_user=director)
    absorbed.refresh_from_db()
    assert absorbed.merged_into == kept
    assert sorted(e.event.name for e in kept.entries.all()) == ["Апрель", "Май", "Март"]
    assert not absorbed.entries.exists()
    # The spelling kept already had is not there twice; the other one moved.
    assert sorted(str(a) for a in kept.aliases.all()) == [
        "Семенов Петр",
        "Семенов Петр (Тула)",
        "Семёнов Пётр (ЦДШ)",
    ]
    assert [str(a) for a in absorbed.aliases.all()] == ["Семенов Петр"]
    assert sorted((i.kind, i.value) for i in kept.identifiers.all()) == [
        ("club_card", "17"),
        ("federation", "9001"),
    ]
    assert (merge.owner, merge.kept, merge.absorbed, merge.made_by) == (
        director,
        kept,
        absorbed,
        director,
    )
    assert merge.undone_at is None and len(merge.entry_ids) == 1
    assert len(merge.alias_ids) == 1 and len(merge.alias_ids_left) == 1
    # The entries keep the names and clubs as published.
    assert kept.entries.get(event__name="Май").club == "Тула"


def test_an_undo_restores_every_row_exactly(director, two):
    kept, absorbed = two
    before = snapshot(director)
    merge = person_merge(kept, absorbed, by_user=director)
    assert snapshot(director) != before
    undone = merge_undo(merge, by_user=director)
    assert snapshot(director) == before
    assert undone.undone_at is not None and undone.undone_by == director
    # And the same two can be merged again, the other way round.
    person_merge(absorbed, kept, by_user=director)
    assert absorbed.entries.count() == 3


def test_two_players_of_one_event_are_never_merged(director, two):
    kept, absorbed = two
    june = _event(director, "Кубок июня", "2026-06-07")
    _play(june, kept)
    _play(june, absorbed)
    before = snapshot(director)
    with pytest.raises(ValidationError) as caught:
        person_merge(kept, absorbed, by_user=director)
    message = caught.value.messages[0]
    assert "«Кубок июня» (07.06.2026)" in message
    assert "Два игрока одного турнира" in message
    assert snapshot(director) == before
    assert not PersonMerge.objects.exists()


def test_it_refuses_another_owners_person(director, other_director, two):
    kept, _absorbed = two
    foreign = Person.objects.create(owner=other_director, last_name="Семенов", first_name="Петр")
    for a, b in ((kept, foreign), (foreign, kept)):
        with pytest.raises(ValidationError, match="вашего реестра"):
            person_merge(a, b, by_user=director)
    merge = person_merge(kept, two[1], by_user=director)
    with pytest.raises(ValidationError, match="вашего реестра"):
        merge_undo(merge, by_user=other_director)
    assert not Person.objects.filter(merged_into__isnull=False).exclude(pk=two[1].pk).exists()


def test_it_refuses_one_person_twice_and_a_merged_person(director, two):
    kept, absorbed = two
    third = Person.objects.create(owner=director, last_name="Третий", first_name="Иван")
    with pytest.raises(ValidationError, match="с самим собой"):
        person_merge(kept, kept, by_user=director)
    person_merge(kept, absorbed, by_user=director)
    for a, b in ((third, absorbed), (absorbed, third)):
        with pytest.raises(ValidationError, match="уже объединён с Семёнов Пётр"):
            person_merge(a, b, by_user=director)


def test_a_later_merge_is_undone_first(director, two):
    kept, absorbed = two
    third = Person.objects.create(owner=director, last_name="Семёнов", first_name="П.")
    PersonIdentifier.objects.create(person=third, kind="club_card", value="18")
    before = snapshot(director)
    first = person_merge(kept, absorbed, by_user=director)
    second = person_merge(third, kept, by_user=director)
    with pytest.raises(ValidationError) as caught:
        merge_undo(first, by_user=director)
    assert "Семёнов Пётр → Семёнов П." in caught.value.messages[0]
    merge_undo(second, by_user=director)
    with pytest.raises(ValidationError, match="уже отменено"):
        merge_undo(second, by_user=director)
    merge_undo(first, by_user=director)
    assert snapshot(director) == before


def test_merged_persons_are_absent_from_matching_and_the_search(director, two, event):
    from events.roster import parse_paste

    kept, absorbed = two
    PersonIdentifier.objects.filter(person=absorbed).delete()
    absorbed.last_name, absorbed.first_name = "Другой", "Имя"
    absorbed.save()
    person_merge(kept, absorbed, by_user=director)
    assert list(services.register_search(director, "")) == [kept]
    assert list(services.register_search(director, "другой")) == []
    rows = parse_paste("Другой Имя")
    (match,) = services.propose_rows(event, rows)
    assert match.state == "new" and not match.persons
    assert absorbed.pk not in services._register(director)


def test_the_ladder_hears_of_a_merge_and_its_undo_after_commit(
    director, two, django_capture_on_commit_callbacks
):
    kept, absorbed = two
    heard = []

    def receiver(sender, owner_id, **kwargs):
        heard.append((sender, owner_id))

    signals.register_changed.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            merge = person_merge(kept, absorbed, by_user=director)
            assert heard == []  # not before the commit
        assert heard == [(Person, director.pk)]
        with django_capture_on_commit_callbacks(execute=True):
            merge_undo(merge, by_user=director)
            assert heard == [(Person, director.pk)]
        assert heard == [(Person, director.pk)] * 2
        # A refused merge says nothing.
        with django_capture_on_commit_callbacks(execute=True), pytest.raises(ValidationError):
            person_merge(kept, kept, by_user=director)
        assert len(heard) == 2
    finally:
        signals.register_changed.disconnect(receiver)


def _race(pairs, director):
    """Every (kept, absorbed) merged at once, each in its own thread and connection."""
    import threading

    from django.db import connections

    outcomes = []
    barrier = threading.Barrier(len(pairs))

    def merge(kept, joined):
        try:
            barrier.wait()
            person_merge(kept, joined, by_user=director)
            outcomes.append("merged")
        except ValidationError as error:
            outcomes.append("refused" if error.messages[0] else "silent")
        except Exception as error:  # anything else would be a 500
            outcomes.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=merge, args=pair) for pair in pairs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return sorted(outcomes)


@pytest.mark.django_db(transaction=True)
def test_merges_racing_for_one_person_leave_one_merge(director):
    """Several tabs merge the same person into different persons at once, and two tabs
    merge two persons into each other: the rows are locked (in one order), so one merge is
    made each time and the others are refused with a reason, none half-done."""
    absorbed = Person.objects.create(owner=director, last_name="Семенов", first_name="Петр")
    entry = _play(_event(director, "Март", "2026-03-01"), absorbed)
    kepts = [
        Person.objects.create(owner=director, last_name="Семёнов", first_name=f"П{i}")
        for i in range(6)
    ]
    assert _race([(k, absorbed) for k in kepts], director) == ["merged"] + ["refused"] * 5
    (made,) = PersonMerge.objects.all()
    entry.refresh_from_db()
    assert entry.person_id == made.kept_id and made.entry_ids == [entry.pk]
    assert list(Person.objects.exclude(merged_into=None)) == [absorbed]

    a, b = [k for k in kepts if k.pk != made.kept_id][:2]
    assert _race([(a, b), (b, a)], director) == ["merged", "refused"]
    assert PersonMerge.objects.count() == 2
