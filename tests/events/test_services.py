"""Services: every write to events, entries and draws."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from events import roster, services
from events.models import Entry, Event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("en")]


def test_it_creates_an_event_with_the_default_rules(director):
    event = services.event_create(owner=director, name="Турнир", date=datetime.date(2026, 12, 1))
    assert (event.minutes_per_deal, event.stake, event.pot_rule, event.scoring_method) == (
        5,
        100,
        "fixed",
        "matchpoints",
    )
    assert event.results_public is False


def test_it_refuses_an_event_with_artificial_scores_out_of_order(director):
    with pytest.raises(ValidationError):
        services.event_create(
            owner=director, name="x", date="2026-12-01", average_plus=40, average=50
        )
    assert not Event.objects.exists()


def test_a_director_sees_only_his_own_events_and_a_superuser_all(
    event, other_event, director, superuser
):
    assert list(Event.objects.visible_to(director)) == [event]
    assert set(Event.objects.visible_to(superuser)) == {event, other_event}


def test_it_refuses_a_participant_number_already_taken(event):
    services.entry_create(event, last_name="Иванов", first_name="Иван", number=3)
    with pytest.raises(ValidationError) as caught:
        services.entry_create(event, last_name="Петров", first_name="Пётр", number=3)
    assert "already taken by Иванов Иван" in str(caught.value.message_dict["number"])
    assert event.entries.count() == 1


def test_the_same_number_may_be_used_in_another_event(event, other_event):
    services.entry_create(event, last_name="Иванов", first_name="Иван", number=3)
    services.entry_create(other_event, last_name="Петров", first_name="Пётр", number=3)
    assert Entry.objects.filter(number=3).count() == 2


def test_it_refuses_an_empty_name(event):
    with pytest.raises(ValidationError) as caught:
        services.entry_create(event, last_name="  ", first_name="Иван")
    assert "last_name" in caught.value.message_dict


def test_withdraw_and_reinstate_keep_the_number(event):
    entry = services.entry_create(event, last_name="Иванов", first_name="Иван", number=4)
    services.entry_withdraw(entry)
    assert Entry.objects.get(pk=entry.pk).status == "withdrawn"
    services.entry_reinstate(entry)
    entry.refresh_from_db()
    assert (entry.status, entry.number) == ("active", 4)


def test_each_entry_gets_its_own_unguessable_key(event):
    a = services.entry_create(event, last_name="А", first_name="А")
    b = services.entry_create(event, last_name="Б", first_name="Б")
    assert a.key != b.key and len(a.key) >= 20


def test_import_saves_every_row_or_none(event):
    services.entry_create(event, last_name="Кузнецов", first_name="Кузьма", number=2)
    good = roster.parse_csv("Фамилия;Имя;Номер\nИванов;Иван;1\nПетров;Пётр;3\n")
    assert len(services.entries_import(event, good)) == 2
    bad = roster.parse_csv("Фамилия;Имя;Номер\nСидоров;Сидор;4\nОрлов;Олег;2\n")
    with pytest.raises(ValidationError, match="nothing was saved"):
        services.entries_import(event, bad)
    assert event.entries.count() == 3
    assert any("already taken" in p for p in bad[1].problems)


def test_a_draw_numbers_every_playing_player_and_can_be_repeated(event):
    entries = [
        services.entry_create(event, last_name=f"Игрок{i}", first_name="И") for i in range(9)
    ]
    services.entry_withdraw(entries[0])
    first = services.draw_make(event, seed="abc")
    numbers = dict(event.entries.values_list("pk", "number"))
    assert numbers[entries[0].pk] is None
    assert sorted(n for n in numbers.values() if n) == list(range(1, 9))
    assert first.numbers == {str(k): v for k, v in numbers.items() if v}
    services.draw_make(event, seed="other")
    services.draw_make(event, seed="abc")
    assert dict(event.entries.values_list("pk", "number")) == numbers
    assert event.draws.count() == 3


def test_a_draw_without_seed_records_a_random_one(event):
    services.entry_create(event, last_name="Иванов", first_name="Иван")
    made = services.draw_make(event)
    assert len(made.seed) == 8


def test_a_draw_needs_players(event):
    with pytest.raises(ValidationError, match="no playing players"):
        services.draw_make(event, seed="x")


# --- a seated event keeps its numbers; a withdrawal says what it means ---------------------


def test_a_draw_is_refused_once_players_are_seated_and_nothing_changes(session15):
    event = session15.event
    before = dict(event.entries.values_list("pk", "number"))
    with pytest.raises(ValidationError) as caught:
        services.draw_make(event, seed="again")
    text = caught.value.message_dict["numbers"][0]
    assert "seated in session 1" in text and "substitute" in text
    assert dict(event.entries.values_list("pk", "number")) == before
    assert event.draws.count() == 1


def test_a_seated_players_number_cannot_be_changed_by_hand(session15):
    entry = session15.event.entries.get(number=3)
    with pytest.raises(ValidationError) as caught:
        services.entry_update(entry, number=99)
    assert "seated as participant 3 in session 1" in caught.value.message_dict["number"][0]
    services.entry_update(Entry.objects.get(pk=entry.pk), club="Клуб")  # others still change
    assert Entry.objects.get(pk=entry.pk).number == 3


def test_withdrawing_a_seated_player_needs_a_confirmation_that_says_what_it_means(session15):
    entry = session15.event.entries.get(number=4)
    with pytest.raises(ValidationError) as caught:
        services.entry_withdraw(entry)
    text = caught.value.message_dict["confirm"][0]
    assert "participant 4 in session 1 from round 1" in text
    assert "not counted for the next session" in text
    assert Entry.objects.get(pk=entry.pk).status == "active"
    services.entry_withdraw(entry, confirmed=True)
    assert Entry.objects.get(pk=entry.pk).status == "withdrawn"


def test_withdrawing_an_unseated_player_needs_no_confirmation(event):
    entry = services.entry_create(event, last_name="Иванов", first_name="Иван")
    assert services.entry_withdraw(entry).status == "withdrawn"
