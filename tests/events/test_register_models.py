"""The register's models (issue 24): a person per register with his key kept on save, his
spellings and numbers unique, and one person at most once per event."""

import pytest
from django.db import IntegrityError, transaction

from events.models import Entry, Person, PersonAlias, PersonIdentifier
from events.register.matching import name_key

pytestmark = pytest.mark.django_db


def test_the_key_follows_the_name(director):
    person = Person.objects.create(owner=director, last_name="Семёнов", first_name="Пётр")
    assert person.key == name_key("Семенов", "Петр")
    person.first_name = "Павел"
    person.club = "ЦДШ"
    person.save(update_fields=["first_name", "club"])
    person.refresh_from_db()
    assert (person.key, person.club_key) == (name_key("Семенов", "Павел"), "цдш")


def test_a_number_is_one_persons_in_a_register(director, other_director):
    a = Person.objects.create(owner=director, last_name="А", first_name="А")
    b = Person.objects.create(owner=director, last_name="Б", first_name="Б")
    elsewhere = Person.objects.create(owner=other_director, last_name="В", first_name="В")
    PersonIdentifier.objects.create(person=a, kind="club_card", value="17")
    PersonIdentifier.objects.create(person=b, kind="federation", value="17")
    PersonIdentifier.objects.create(person=elsewhere, kind="club_card", value="17")
    with pytest.raises(IntegrityError), transaction.atomic():
        PersonIdentifier.objects.create(person=b, kind="club_card", value="17")


def test_a_spelling_once_per_person(director):
    person = Person.objects.create(owner=director, last_name="Петров-Водкин", first_name="К")
    PersonAlias.objects.create(person=person, last_name="Петров Водкин", first_name="К")
    with pytest.raises(IntegrityError), transaction.atomic():
        PersonAlias.objects.create(person=person, last_name="Петров Водкин", first_name="К")


def test_two_players_of_one_event_are_never_one_person(director, event, other_event):
    person = Person.objects.create(owner=director, last_name="Иванов", first_name="Иван")
    Entry.objects.create(event=event, last_name="Иванов", first_name="Иван", person=person)
    Entry.objects.create(event=event, last_name="Другой", first_name="Иван")
    Entry.objects.create(event=event, last_name="Третий", first_name="Иван")  # two unlinked
    Entry.objects.create(event=other_event, last_name="Иванов", first_name="И", person=person)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(event=event, last_name="Иванов", first_name="И.", person=person)


def test_a_person_with_a_history_is_not_deleted(director, event):
    from django.db.models import ProtectedError

    person = Person.objects.create(owner=director, last_name="Иванов", first_name="Иван")
    Entry.objects.create(event=event, last_name="Иванов", first_name="Иван", person=person)
    with pytest.raises(ProtectedError):
        person.delete()
