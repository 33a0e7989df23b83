"""A player joins an event through one service, whatever the door (issue 33): the API's
paste, import and single player are matched against the register as the director's pages
match them — a new person, the person found, or «несколько похожих» left for the director
to link on the player's edit page (or through ``…/link/``)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from events import services
from events.models import Entry, Person

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(director):
    client = APIClient(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_authenticate(director)
    return client


def _second_event(director):
    return services.event_create(owner=director, name="Кубок зимы", date="2026-12-12")


def _person(owner, last, first, club=""):
    return Person.objects.create(owner=owner, last_name=last, first_name=first, club=club)


def test_an_api_pasted_player_is_found_in_the_register(api, director, event):
    semenov = _person(director, "Семёнов", "Пётр", "ЦДШ")
    response = api.post(
        f"/api/v1/events/{event.pk}/entries/paste/",
        {"text": "Семенов Петр; ЦДШ\nИванов Иван"},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    found, new = (row["register"] for row in body["rows"])
    assert (found["state"], found["chosen"]) == ("found", str(semenov.pk))
    assert found["label"] == "найден: Семёнов Пётр (ЦДШ)"
    assert (new["state"], new["label"]) == ("new", "новый")
    assert Entry.objects.get(event=event, last_name="Семенов").person == semenov
    ivanov = Entry.objects.get(event=event, last_name="Иванов").person
    assert ivanov is not None and ivanov.owner == director
    assert [e["person_id"] for e in body["created"]] == [semenov.pk, ivanov.pk]


def test_an_api_imported_player_is_found_in_the_register(api, director, event):
    semenov = _person(director, "Семёнов", "Пётр", "ЦДШ")
    csv_text = "Фамилия;Имя;Клуб\nСемёнов;Пётр;ЦДШ\n"
    response = api.post(
        f"/api/v1/events/{event.pk}/entries/import/",
        {"file": SimpleUploadedFile("игроки.csv", csv_text.encode())},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    assert Entry.objects.get(event=event).person == semenov


def test_a_same_name_player_of_two_events_is_one_person(api, director, event):
    url = "/api/v1/events/{}/entries/"
    first = api.post(
        url.format(event.pk), {"last_name": "Иванов", "first_name": "Иван"}, format="json"
    )
    assert first.status_code == 201, first.content
    assert first.json()["register"]["state"] == "new"
    other = _second_event(director)
    pasted = api.post(url.format(other.pk) + "paste/", {"text": "иванов иван"}, format="json")
    assert pasted.status_code == 201, pasted.content
    assert Person.objects.filter(owner=director).count() == 1
    assert Entry.objects.get(event=event).person == Entry.objects.get(event=other).person


def test_several_similar_join_unlinked_and_the_director_links_later_on_the_edit_page(
    api, director, director_client, event
):
    cdsh = _person(director, "Иванов", "Иван", "ЦДШ")
    _person(director, "Иванов", "Иван", "Спартак")
    response = api.post(
        f"/api/v1/events/{event.pk}/entries/paste/", {"text": "Иванов Иван"}, format="json"
    )
    assert response.status_code == 201, response.content
    row = response.json()["rows"][0]["register"]
    assert (row["state"], row["label"], row["chosen"]) == ("several", "несколько похожих", "")
    assert len(row["persons"]) == 2
    entry = Entry.objects.get(event=event)
    assert entry.person is None

    edit = reverse("director:entry_edit", args=[event.pk, entry.pk])
    page = director_client.get(edit).content.decode()
    assert "несколько похожих" in page and 'name="person_0"' in page
    link = reverse("director:entry_link", args=[event.pk, entry.pk])
    refused = director_client.post(link, {"person_0": ""})
    assert refused.status_code == 400
    assert "выберите" in refused.content.decode()
    assert director_client.post(link, {"person_0": str(cdsh.pk)}).status_code == 302
    entry.refresh_from_db()
    assert entry.person == cdsh
    assert "Иванов Иван (ЦДШ)" in director_client.get(edit).content.decode()


def test_the_api_links_later_too_and_a_choice_given_is_taken(api, director, event):
    spartak = _person(director, "Иванов", "Иван", "Спартак")
    _person(director, "Иванов", "Иван", "ЦДШ")
    created = api.post(
        f"/api/v1/events/{event.pk}/entries/",
        {"last_name": "Иванов", "first_name": "Иван"},
        format="json",
    )
    assert created.status_code == 201, created.content
    pk = created.json()["id"]
    assert created.json()["person_id"] is None
    shown = api.get(f"/api/v1/events/{event.pk}/entries/{pk}/").json()["register"]
    assert shown["state"] == "several"
    linked = api.post(
        f"/api/v1/events/{event.pk}/entries/{pk}/link/", {"person": str(spartak.pk)}, format="json"
    )
    assert linked.status_code == 200, linked.content
    assert linked.json()["person_id"] == spartak.pk
    other = _second_event(director)
    chosen = api.post(
        f"/api/v1/events/{other.pk}/entries/paste/",
        {"text": "Иванов Иван", "choices": {"1": str(spartak.pk)}},
        format="json",
    )
    assert chosen.status_code == 201, chosen.content
    assert Entry.objects.get(event=other).person == spartak


def test_bad_input_is_a_400_naming_the_field(api, director, other_director, event):
    stranger = _person(other_director, "Иванов", "Иван")
    url = f"/api/v1/events/{event.pk}/entries/"
    bad_choice = api.post(
        url + "paste/", {"text": "Иванов Иван", "choices": {"1": str(stranger.pk)}}, format="json"
    )
    assert bad_choice.status_code == 400
    assert "choices" in bad_choice.json()["errors"]
    assert "строка 1" in bad_choice.json()["errors"]["choices"][0]
    not_an_object = api.post(url + "paste/", {"text": "Иванов Иван", "choices": [1]}, format="json")
    assert not_an_object.status_code == 400 and "choices" in not_an_object.json()
    no_line = api.post(
        url + "paste/", {"text": "Иванов Иван", "choices": {"7": "new"}}, format="json"
    )
    assert no_line.status_code == 400 and "7" in no_line.json()["errors"]["choices"][0]
    joined = api.post(url, {"last_name": "Петров", "first_name": "Пётр"}, format="json").json()
    assert joined["register"]["state"] == "new" and joined["person_id"] is not None
    again = api.post(f"{url}{joined['id']}/link/", {"person": "new"}, format="json")
    assert again.status_code == 400 and "уже связан" in again.json()["person"][0]
    # A player who joined before the API matched: linked later, to a new person.
    before = services.entry_create(event, last_name="Сидоров", first_name="Сидор")
    unknown = api.post(f"{url}{before.pk}/link/", {"person": str(stranger.pk)}, format="json")
    assert unknown.status_code == 400 and "person" in unknown.json()
    linked = api.post(f"{url}{before.pk}/link/", {"person": "new"}, format="json")
    assert linked.status_code == 200 and linked.json()["person_id"] is not None
    assert not Entry.objects.filter(last_name="Иванов").exists()
