"""Substitutes seated before the number rule (only the seats changed hands) are carried
forward by the migration: recorded, the number given to the last holder, the replaced
player marked replaced."""

import importlib

import pytest
from django.apps import apps

from events import services
from events.models import Entry, Seat, Substitution

pytestmark = pytest.mark.django_db

migration = importlib.import_module("events.migrations.0003_substitutes_keep_the_number")


def test_earlier_substitutes_are_recorded_and_take_the_number(session15):
    event = session15.event
    leaving = event.entries.get(number=6)
    late = services.entry_create(event, last_name="Поздний", first_name="П")
    # What the old seat_substitute did: the seats alone changed hands.
    Seat.objects.filter(entry=leaving, round__number__gte=4).update(entry=late)
    migration.record_earlier_substitutes(apps, None)
    sub = Substitution.objects.get()
    assert (sub.session, sub.number, sub.from_round) == (session15, 6, 4)
    assert (sub.leaving, sub.arriving) == (leaving, late)
    assert Entry.objects.get(pk=late.pk).number == 6
    assert Entry.objects.get(pk=leaving.pk).status == "replaced"
    assert event.entries.active().count() == 15
