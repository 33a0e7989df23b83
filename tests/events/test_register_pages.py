"""The director's register pages (issue 24; docs/register.md): the list and its search by
the name key, a person's page — edit, hide from public pages, his numbers — and nobody
else's register."""

import pytest
from django.urls import reverse

from events.models import Entry, Person, PersonIdentifier
from events.register.matching import name_key

pytestmark = pytest.mark.django_db


@pytest.fixture
def persons(director, other_director):
    semenov = Person.objects.create(
        owner=director, last_name="Семёнов", first_name="Пётр", club="ЦДШ"
    )
    vodkin = Person.objects.create(
        owner=director, last_name="Петров-Водкин", first_name="Кузьма", club="Тула"
    )
    PersonIdentifier.objects.create(person=vodkin, kind="club_card", value="77")
    foreign = Person.objects.create(owner=other_director, last_name="Семенов", first_name="Пётр")
    return semenov, vodkin, foreign


def _list(client, q=""):
    return client.get(reverse("director:register_list"), {"q": q} if q else {})


def test_the_list_holds_the_directors_own_register(director_client, persons):
    semenov, vodkin, foreign = persons
    response = _list(director_client)
    assert response.status_code == 200
    assert list(response.context["persons"]) == [vodkin, semenov]
    assert "Реестр игроков" in response.content.decode()


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("семенов", ["Семёнов Пётр"]),
        ("СЕМЁНОВ пётр", ["Семёнов Пётр"]),
        ("петров водкин", ["Петров-Водкин Кузьма"]),
        ("77", ["Петров-Водкин Кузьма"]),
        ("тула", ["Петров-Водкин Кузьма"]),
        ("Сидоров", []),
    ],
)
def test_the_search_ignores_yo_case_spaces_and_hyphens(director_client, persons, query, names):
    response = _list(director_client, query)
    assert [p.full_name for p in response.context["persons"]] == names
    if not names:
        assert "Никто в реестре не подходит" in response.content.decode()


def test_another_directors_person_is_not_found(director_client, persons):
    foreign = persons[2]
    assert (
        director_client.get(reverse("director:person_edit", args=[foreign.pk])).status_code == 404
    )


def test_the_register_needs_a_login(client):
    assert client.get(reverse("director:register_list")).status_code == 302


def test_editing_a_person_keeps_his_events_names(director_client, persons, event):
    semenov = persons[0]
    Entry.objects.create(
        event=event, last_name="Семенов", first_name="Петр", club="ЦДШ", person=semenov
    )
    url = reverse("director:person_edit", args=[semenov.pk])
    page = director_client.get(url).content.decode()
    assert "Кубок Москвы" in page and "Семенов Петр (ЦДШ)" in page
    data = {
        "last_name": "Семёнов",
        "first_name": "Павел",
        "patronymic": "Ильич",
        "club": "Питер",
        "hidden": "on",
        "club_card": " 12, 13 ",
        "federation": "",
    }
    assert director_client.post(url, data).status_code == 302
    semenov.refresh_from_db()
    assert semenov.full_name == "Семёнов Павел Ильич" and semenov.hidden
    assert semenov.key == name_key("Семенов", "Павел", "Ильич")
    assert sorted(semenov.identifiers.values_list("value", flat=True)) == ["12", "13"]
    entry = event.entries.get()
    assert (entry.first_name, entry.club) == ("Петр", "ЦДШ")
    # A number removed from the field is gone.
    data["club_card"] = "13"
    director_client.post(url, data)
    assert list(semenov.identifiers.values_list("value", flat=True)) == ["13"]


def test_a_number_of_another_person_is_refused_on_its_field(director_client, persons):
    semenov = persons[0]
    url = reverse("director:person_edit", args=[semenov.pk])
    data = {"last_name": "Семёнов", "first_name": "Пётр", "club": "ЦДШ", "club_card": "77"}
    response = director_client.post(url, data)
    assert response.status_code == 400
    assert "77 уже принадлежит Петров-Водкин Кузьма (Тула)" in str(
        response.context["form"].errors["club_card"]
    )
    assert not semenov.identifiers.exists()


def test_an_empty_name_is_refused_and_what_was_typed_stays(director_client, persons):
    semenov = persons[0]
    url = reverse("director:person_edit", args=[semenov.pk])
    response = director_client.post(url, {"last_name": " ", "first_name": "Пётр", "club": "Х"})
    assert response.status_code == 400
    assert response.context["form"].errors["last_name"]
    assert 'value="Х"' in response.content.decode()
    semenov.refresh_from_db()
    assert semenov.club == "ЦДШ"
