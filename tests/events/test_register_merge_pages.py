"""The director's merge pages (issue 24; docs/register.md «Merging and its undo»): choose
the other person by a search, confirm which one is kept, the merge's page, its undo, the
register's merges — his own register only, and in Russian."""

import re

import pytest
from django.urls import reverse

from events.models import Entry, Person, PersonMerge
from events.register.merging import person_merge
from events.services import event_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair(director):
    kept = Person.objects.create(owner=director, last_name="Семёнов", first_name="Пётр", club="ЦДШ")
    double = Person.objects.create(owner=director, last_name="Семенов", first_name="Петр")
    march = event_create(owner=director, name="Мартовский турнир", date="2026-03-01")
    april = event_create(owner=director, name="Апрельский турнир", date="2026-04-05")
    Entry.objects.create(event=march, last_name="Семёнов", first_name="Пётр", person=kept)
    Entry.objects.create(event=april, last_name="Семенов", first_name="Петр", person=double)
    return kept, double


def _text(response) -> str:
    return response.content.decode()


def test_the_person_page_offers_the_merge(director_client, pair):
    kept, _double = pair
    page = _text(director_client.get(reverse("director:person_edit", args=[kept.pk])))
    assert "Объединить с другим человеком" in page
    assert reverse("director:person_merge", args=[kept.pk]) in page


def test_the_choice_page_searches_and_lists_the_others_with_their_events(director_client, pair):
    kept, double = pair
    url = reverse("director:person_merge", args=[kept.pk])
    response = director_client.get(url)  # searched by his last name at first
    assert response.status_code == 200
    assert [c["person"] for c in response.context["candidates"]] == [double]
    page = _text(response)
    assert f'name="other" value="{double.pk}"' in page
    assert "Мартовский турнир" in page and "Апрельский турнир" in page  # both persons' events
    response = director_client.get(url, {"q": "нет такого"})
    assert "Больше никто в реестре не подходит под «нет такого»" in _text(response)


def test_the_choice_must_be_made(director_client, pair):
    kept, double = pair
    url = reverse("director:person_merge", args=[kept.pk])
    response = director_client.get(url, {"q": "семенов", "next": "1"})
    assert response.status_code == 200
    assert "Выберите второго человека" in _text(response)
    response = director_client.get(url, {"q": "семенов", "next": "1", "other": "999999"})
    assert "Выбранного человека нет среди найденных" in _text(response)
    assert 'value="семенов"' in _text(response)  # the search typed stays
    response = director_client.get(url, {"q": "семенов", "next": "1", "other": double.pk})
    assert response.status_code == 302
    assert response.url == reverse("director:person_merge_confirm", args=[kept.pk, double.pk])


def test_the_confirmation_merges_the_one_chosen_into_the_one_kept(director_client, pair):
    kept, double = pair
    url = reverse("director:person_merge_confirm", args=[kept.pk, double.pk])
    page = _text(director_client.get(url))
    assert "Оставить: Семёнов Пётр, присоединить: Семенов Петр" in page
    assert "Оставить: Семенов Петр, присоединить: Семёнов Пётр" in page
    assert not PersonMerge.objects.exists()
    response = director_client.post(url, {"keep": double.pk})  # the director's choice
    merge = PersonMerge.objects.get()
    assert (merge.kept, merge.absorbed) == (double, kept)
    assert response.status_code == 302
    assert response.url == reverse("director:merge_detail", args=[merge.pk])
    page = _text(director_client.get(response.url))
    assert "Мартовский турнир" in page and "в силе" in page
    assert reverse("director:merge_undo", args=[merge.pk]) in page


def test_the_confirmation_without_a_choice_loses_nothing(director_client, pair):
    kept, double = pair
    url = reverse("director:person_merge_confirm", args=[kept.pk, double.pk])
    response = director_client.post(url, {})
    assert response.status_code == 400
    assert "Выберите, кого из двоих оставить" in _text(response)
    assert not PersonMerge.objects.exists()


def test_two_players_of_one_event_are_refused_before_the_confirmation(
    director, director_client, pair
):
    kept, double = pair
    june = event_create(owner=director, name="Июньский турнир", date="2026-06-07")
    Entry.objects.create(event=june, last_name="Семёнов", first_name="Пётр", person=kept)
    Entry.objects.create(event=june, last_name="Семенов", first_name="Петр", person=double)
    choice = _text(director_client.get(reverse("director:person_merge", args=[kept.pk])))
    assert "«Июньский турнир»: они играли в одном турнире" in choice
    url = reverse("director:person_merge_confirm", args=[kept.pk, double.pk])
    page = _text(director_client.get(url))
    assert "«Июньский турнир» (07.06.2026)" in page
    assert 'id="merge-confirm"' not in page
    response = director_client.post(url, {"keep": kept.pk})
    assert response.status_code == 200 and not PersonMerge.objects.exists()


def test_a_merged_persons_page_says_with_whom_and_is_not_edited(director, director_client, pair):
    kept, double = pair
    person_merge(kept, double, by_user=director)
    url = reverse("director:person_edit", args=[double.pk])
    page = _text(director_client.get(url))
    assert "Объединён с" in page
    assert reverse("director:person_edit", args=[kept.pk]) in page
    assert 'id="merge-start"' not in page
    response = director_client.post(url, {"last_name": "Другой", "first_name": "Иван"})
    assert response.status_code == 302
    double.refresh_from_db()
    assert double.last_name == "Семенов"
    assert (
        director_client.get(reverse("director:person_merge", args=[double.pk])).status_code == 302
    )
    # Nor is he in the register's list.
    listed = director_client.get(reverse("director:register_list")).context["persons"]
    assert list(listed) == [kept]


def test_the_undo_asks_then_restores(director, director_client, pair):
    kept, double = pair
    merge = person_merge(kept, double, by_user=director)
    person_page = _text(director_client.get(reverse("director:person_edit", args=[kept.pk])))
    assert "Отменить объединение" in person_page
    url = reverse("director:merge_undo", args=[merge.pk])
    page = _text(director_client.get(url))
    assert 'id="merge-undo"' in page
    merge.refresh_from_db()
    assert merge.undone_at is None  # a GET changes nothing
    response = director_client.post(url)
    assert response.status_code == 302
    merge.refresh_from_db()
    double.refresh_from_db()
    assert merge.undone_at is not None and double.merged_into is None
    assert double.entries.get().event.name == "Апрельский турнир"
    page = _text(director_client.get(response.url))
    assert "отменено" in page
    # Undoing twice says so.
    response = director_client.post(url, follow=True)
    assert "Это объединение уже отменено" in _text(response)


def test_a_later_merge_is_named_on_the_undo(director, director_client, pair):
    kept, double = pair
    third = Person.objects.create(owner=director, last_name="Семёнов", first_name="П.")
    first = person_merge(kept, double, by_user=director)
    second = person_merge(third, kept, by_user=director)
    url = reverse("director:merge_undo", args=[first.pk])
    page = _text(director_client.get(url))
    assert 'id="merge-undo"' not in page
    assert reverse("director:merge_detail", args=[second.pk]) in page
    response = director_client.post(url)
    assert "Сначала отмените более позднее объединение" in _text(response)
    first.refresh_from_db()
    assert first.undone_at is None


def test_the_registers_merges_are_listed_from_the_register(director, director_client, pair):
    kept, double = pair
    merge = person_merge(kept, double, by_user=director)
    listing = _text(director_client.get(reverse("director:register_list")))
    assert reverse("director:register_merges") in listing
    page = _text(director_client.get(reverse("director:register_merges")))
    assert reverse("director:merge_detail", args=[merge.pk]) in page
    assert "Семенов Петр" in page and "в силе" in page


def test_nobody_elses_register(director, other_client, client, pair):
    kept, double = pair
    merge = person_merge(kept, double, by_user=director)
    urls = [
        reverse("director:person_merge", args=[kept.pk]),
        reverse("director:person_merge_confirm", args=[kept.pk, double.pk]),
        reverse("director:merge_detail", args=[merge.pk]),
        reverse("director:merge_undo", args=[merge.pk]),
    ]
    for url in urls:
        assert other_client.get(url).status_code == 404
        assert other_client.post(url, {"keep": kept.pk}).status_code == 404
        assert client.get(url).status_code == 302  # the login
    assert "Семенов" not in _text(other_client.get(reverse("director:register_merges")))
    merge.refresh_from_db()
    assert merge.undone_at is None


def test_another_directors_person_is_no_choice(director, other_director, director_client, pair):
    kept, _double = pair
    foreign = Person.objects.create(owner=other_director, last_name="Семенов", first_name="Пётр")
    url = reverse("director:person_merge", args=[kept.pk])
    response = director_client.get(url, {"q": "семенов", "next": "1", "other": foreign.pk})
    assert response.status_code == 200
    assert foreign not in [c["person"] for c in response.context["candidates"]]
    confirm = reverse("director:person_merge_confirm", args=[kept.pk, foreign.pk])
    assert director_client.post(confirm, {"keep": kept.pk}).status_code == 404


def test_every_merge_page_is_russian(director, director_client, pair):
    kept, double = pair
    pages = [
        reverse("director:person_merge", args=[kept.pk]),
        reverse("director:person_merge_confirm", args=[kept.pk, double.pk]),
    ]
    merge = person_merge(kept, double, by_user=director)
    pages += [
        reverse("director:merge_detail", args=[merge.pk]),
        reverse("director:merge_undo", args=[merge.pk]),
        reverse("director:register_merges"),
        reverse("director:person_edit", args=[double.pk]),
        reverse("director:person_edit", args=[kept.pk]),
    ]
    english = re.compile(
        r"\b(Merge|Merges|Keep|Joined|Kept|State|undone|in force|Undo|Choose|Next|"
        r"Search|Who is|Spellings|Numbers|Club|event|events|None|No events)\b"
    )
    for url in pages:
        main = _text(director_client.get(url)).split('<main id="main">', 1)[1]
        visible = re.sub(r"<[^>]+>", " ", main)
        assert not english.findall(visible), (url, english.findall(visible))
