"""The register's API (issue 24; docs/register.md «API»): the director's own persons listed
and searched by the name key, a person with his numbers, spellings and events as published,
an edit and a new person through the register's services — a number another person holds
refused on its field naming him, a name too long refused on its field, in Russian or English
— nobody else's register, and nothing for a caller without credentials."""

import pytest
from rest_framework.test import APIClient

from events import services as event_services
from events.models import Person, PersonAlias, PersonIdentifier
from events.register.merging import person_merge

pytestmark = pytest.mark.django_db

URL = "/api/v1/register/persons/"


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


@pytest.fixture
def persons(director, other_director):
    semenov = Person.objects.create(
        owner=director, last_name="Семёнов", first_name="Пётр", club="ЦДШ"
    )
    vodkin = Person.objects.create(
        owner=director, last_name="Петров-Водкин", first_name="Кузьма", club="Тула"
    )
    PersonIdentifier.objects.create(person=vodkin, kind="club_card", value="77")
    PersonIdentifier.objects.create(person=vodkin, kind="federation", value="R-1001")
    foreign = Person.objects.create(owner=other_director, last_name="Семенов", first_name="Пётр")
    return semenov, vodkin, foreign


def _names(body) -> list[str]:
    return [f"{p['last_name']} {p['first_name']}" for p in body["results"]]


def test_the_list_is_the_directors_own_register_paginated(api, persons):
    body = api.get(URL).json()
    assert body["count"] == 2 and body["next"] is None
    assert _names(body) == ["Петров-Водкин Кузьма", "Семёнов Пётр"]
    vodkin = body["results"][0]
    assert vodkin["identifiers"] == {"club_card": ["77"], "federation": ["R-1001"]}
    assert vodkin["club"] == "Тула" and vodkin["hidden"] is False
    page = api.get(URL, {"limit": 1, "offset": 1}).json()
    assert page["count"] == 2 and _names(page) == ["Семёнов Пётр"]


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("семенов", ["Семёнов Пётр"]),
        ("СЕМЁНОВ пётр", ["Семёнов Пётр"]),
        ("петров водкин", ["Петров-Водкин Кузьма"]),
        ("77", ["Петров-Водкин Кузьма"]),
        ("R-1001", ["Петров-Водкин Кузьма"]),
        ("тула", ["Петров-Водкин Кузьма"]),
        ("Сидоров", []),
        ("", ["Петров-Водкин Кузьма", "Семёнов Пётр"]),
    ],
)
def test_the_search_is_the_register_pages(api, persons, query, names):
    response = api.get(URL, {"q": query})
    assert response.status_code == 200
    assert _names(response.json()) == names


def test_a_search_too_long_or_with_a_nul_is_a_400_naming_q(api, persons):
    for bad in ("я" * 201, "Семёнов\x00"):
        response = api.get(URL, {"q": bad})
        assert response.status_code == 400, bad
        assert list(response.json()) == ["q"]


def test_a_person_shows_his_numbers_spellings_and_events_as_published(api, director, persons):
    semenov = persons[0]
    PersonAlias.objects.create(person=semenov, last_name="Семенов", first_name="Петр")
    event = event_services.event_create(owner=director, name="Вечер", date="2026-03-02")
    entry = event_services.entry_create(event, last_name="Семенов", first_name="Петр", club="Пуля")
    entry.person = semenov
    entry.save(update_fields=["person"])
    body = api.get(f"{URL}{semenov.pk}/").json()
    assert body["id"] == semenov.pk and body["patronymic"] == "" and body["merged_into"] is None
    assert body["identifiers"] == {"club_card": [], "federation": []}
    assert body["aliases"] == [
        {"last_name": "Семенов", "first_name": "Петр", "patronymic": "", "club": ""}
    ]
    assert body["entries"] == [
        {
            "entry": entry.pk,
            "event": event.pk,
            "event_name": "Вечер",
            "date": "2026-03-02",
            "name": "Семенов Петр",
            "club": "Пуля",
        }
    ]


def test_an_edit_saves_names_club_hidden_and_numbers_and_leaves_the_events_as_published(
    api, director, persons
):
    semenov = persons[0]
    event = event_services.event_create(owner=director, name="Вечер", date="2026-03-02")
    entry = event_services.entry_create(event, last_name="Семёнов", first_name="Пётр")
    entry.person = semenov
    entry.save(update_fields=["person"])
    response = api.patch(
        f"{URL}{semenov.pk}/",
        {
            "last_name": " Семёнов-Тянь ",
            "club": "Пуля",
            "hidden": True,
            "identifiers": {"club_card": ["12 34", "1234", " "], "federation": ["F9"]},
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["last_name"] == "Семёнов-Тянь" and body["first_name"] == "Пётр"
    assert body["club"] == "Пуля" and body["hidden"] is True
    assert body["identifiers"] == {"club_card": ["1234"], "federation": ["F9"]}
    semenov.refresh_from_db()
    assert semenov.hidden and semenov.key == "семенов-тяньпетр".replace("-", "")
    entry.refresh_from_db()
    assert (entry.last_name, entry.club) == ("Семёнов", "")
    # A kind left out stays; an empty list takes that kind away.
    api.patch(f"{URL}{semenov.pk}/", {"identifiers": {"club_card": []}}, format="json")
    body = api.get(f"{URL}{semenov.pk}/").json()
    assert body["identifiers"] == {"club_card": [], "federation": ["F9"]}


@pytest.mark.parametrize(
    ("language", "words"),
    [("ru", "77 уже принадлежит Петров-Водкин Кузьма"), ("en", "77 already belongs to")],
)
def test_a_number_another_person_holds_is_a_400_on_its_field_naming_him(
    api, persons, language, words
):
    semenov = persons[0]
    response = api.patch(
        f"{URL}{semenov.pk}/",
        {"club": "Пуля", "identifiers": {"club_card": ["7 7"]}},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    body = response.json()
    assert list(body) == ["identifiers"] and list(body["identifiers"]) == ["club_card"]
    assert words in body["identifiers"]["club_card"][0]
    assert "Петров-Водкин Кузьма" in body["identifiers"]["club_card"][0]
    semenov.refresh_from_db()
    assert semenov.club == "ЦДШ" and not semenov.identifiers.exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [("ru", "не более 100 символов"), ("en", "no more than 100 characters")],
)
def test_a_name_too_long_is_a_400_on_its_field(api, persons, language, words):
    semenov = persons[0]
    response = api.patch(
        f"{URL}{semenov.pk}/",
        {"first_name": "Я" * 101},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    assert list(response.json()) == ["first_name"]
    assert words in response.json()["first_name"][0]
    semenov.refresh_from_db()
    assert semenov.first_name == "Пётр"


@pytest.mark.parametrize(
    ("language", "words"),
    [("ru", "клубная карта длиннее 40 символов"), ("en", "club card is longer than 40")],
)
def test_a_number_too_long_is_a_400_naming_its_kind(api, persons, language, words):
    response = api.patch(
        f"{URL}{persons[0].pk}/",
        {"identifiers": {"club_card": ["9" * 41]}},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    assert words in response.json()["identifiers"]["club_card"][0]


@pytest.mark.parametrize(
    "bad",
    [
        {"last_name": "   "},
        {"last_name": None},
        {"hidden": "perhaps"},
        {"identifiers": "77"},
        {"identifiers": {"club_card": "77"}},
        {"identifiers": {"club_card": [{"a": 1}]}},
        {"identifiers": {"federation": ["x\x00"]}},
    ],
)
def test_bad_fields_are_a_400_naming_them(api, persons, bad):
    response = api.patch(f"{URL}{persons[0].pk}/", bad, format="json")
    assert response.status_code == 400, response.content
    assert set(response.json()) == set(bad)


def test_a_new_person_is_created_with_his_spelling_and_numbers(api, director, persons):
    response = api.post(
        URL,
        {
            "last_name": "Иванов",
            "first_name": "Иван",
            "patronymic": "Иванович",
            "identifiers": {"federation": ["R 2002"]},
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    person = Person.objects.get(pk=body["id"])
    assert person.owner == director and person.full_name == "Иванов Иван Иванович"
    assert body["identifiers"] == {"club_card": [], "federation": ["R2002"]}
    assert body["aliases"] == [
        {"last_name": "Иванов", "first_name": "Иван", "patronymic": "Иванович", "club": ""}
    ]
    assert body["entries"] == [] and body["hidden"] is False
    assert "Иванов" in _names(api.get(URL, {"q": "иванов"}).json())[0]


@pytest.mark.parametrize(
    ("language", "words"), [("ru", "уже принадлежит"), ("en", "already belongs to")]
)
def test_a_new_person_with_a_number_held_is_refused_and_nothing_is_created(
    api, persons, language, words
):
    before = Person.objects.count()
    response = api.post(
        URL,
        {"last_name": "Иванов", "first_name": "Иван", "identifiers": {"federation": ["R-1001"]}},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    assert words in response.json()["identifiers"]["federation"][0]
    assert "Петров-Водкин Кузьма" in response.json()["identifiers"]["federation"][0]
    assert Person.objects.count() == before and not PersonAlias.objects.exists()


@pytest.mark.parametrize(("language", "words"), [("ru", "обязательное"), ("en", "required")])
def test_a_new_person_needs_both_names(api, language, words):
    response = api.post(URL, {"club": "ЦДШ"}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert set(response.json()) == {"last_name", "first_name"}
    assert words in response.json()["last_name"][0].lower()
    long = api.post(URL, {"last_name": "Я" * 101, "first_name": "Иван"}, format="json")
    assert long.status_code == 400 and list(long.json()) == ["last_name"]
    assert not Person.objects.exists()


def test_another_directors_person_is_a_404(api, persons):
    foreign = persons[2]
    assert api.get(f"{URL}{foreign.pk}/").status_code == 404
    response = api.patch(f"{URL}{foreign.pk}/", {"club": "Наш"}, format="json")
    assert response.status_code == 404
    foreign.refresh_from_db()
    assert foreign.club == ""
    assert foreign.pk not in [p["id"] for p in api.get(URL, {"q": "семенов"}).json()["results"]]


def test_a_caller_without_credentials_gets_nothing(persons):
    """401 with «WWW-Authenticate: Token», as every operation of the API (docs/api.md)."""
    anonymous = APIClient()
    semenov = persons[0]
    answers = [
        anonymous.get(URL),
        anonymous.get(f"{URL}{semenov.pk}/"),
        anonymous.patch(f"{URL}{semenov.pk}/", {"club": "X"}, format="json"),
        anonymous.post(URL, {"last_name": "А", "first_name": "Б"}, format="json"),
    ]
    for answer in answers:
        assert answer.status_code == 401 and answer["WWW-Authenticate"] == "Token"
    wrong = APIClient(HTTP_AUTHORIZATION="Token not-a-token").get(URL)
    assert wrong.status_code == 401
    semenov.refresh_from_db()
    assert semenov.club == "ЦДШ" and Person.objects.count() == 3


def test_no_put_and_no_delete(api, persons):
    semenov = persons[0]
    assert api.put(f"{URL}{semenov.pk}/", {}, format="json").status_code == 405
    assert api.delete(f"{URL}{semenov.pk}/").status_code == 405


@pytest.mark.parametrize(
    ("language", "words"), [("ru", "сначала отмените"), ("en", "undo that merge first")]
)
def test_a_merged_person_is_listed_nowhere_shows_whom_and_is_not_edited(
    api, director, persons, language, words
):
    semenov, vodkin, _foreign = persons
    person_merge(vodkin, semenov, by_user=director)
    assert _names(api.get(URL).json()) == ["Петров-Водкин Кузьма"]
    assert _names(api.get(URL, {"q": "семенов"}).json()) == []
    body = api.get(f"{URL}{semenov.pk}/").json()
    assert body["merged_into"] == vodkin.pk
    response = api.patch(
        f"{URL}{semenov.pk}/", {"club": "Пуля"}, format="json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 400
    assert list(response.json()) == ["merged_into"]
    assert words in response.json()["merged_into"][0]
    semenov.refresh_from_db()
    assert semenov.club == "ЦДШ"


@pytest.mark.parametrize(("language", "words"), [("ru", "не найдена"), ("en", "Not found")])
def test_a_404_speaks_the_callers_language(api, persons, language, words):
    response = api.get(f"{URL}{persons[2].pk}/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert words in response.json()["detail"]
