"""The events API: the same operations, the same refusals, never a 500."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from events import services
from events.models import Event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("en")]

EVENT = {"name": "Кубок", "date": "2026-12-05", "venue": "ЦДШ"}


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


@pytest.fixture
def other_api(other_director):
    client = APIClient()
    client.force_authenticate(other_director)
    return client


@pytest.fixture
def entry(event):
    return services.entry_create(event, last_name="Иванов", first_name="Иван", number=1)


def test_token_auth_creates_an_event_owned_by_the_director(director):
    token = Token.objects.create(user=director)
    client = APIClient(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = client.post("/api/v1/events/", EVENT, format="json")
    assert response.status_code == 201, response.content
    assert Event.objects.get(pk=response.json()["id"]).owner == director
    assert response.json()["minutes_per_deal"] == 5


def test_an_anonymous_client_gets_401_or_403_and_nothing_is_created():
    response = APIClient().post("/api/v1/events/", EVENT, format="json")
    assert response.status_code in (401, 403)
    assert not Event.objects.exists()


def test_a_bad_event_names_each_field(api):
    response = api.post(
        "/api/v1/events/", {"name": "", "date": "not a date", "minutes_per_deal": 0}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()) >= {"name", "date", "minutes_per_deal"}
    assert not Event.objects.exists()


def test_artificial_scores_out_of_order_are_a_400(api):
    response = api.post("/api/v1/events/", {**EVENT, "average_plus": 30}, format="json")
    assert response.status_code == 400
    assert not Event.objects.exists()


def test_another_directors_event_is_a_404_for_read_and_write(other_api, event, entry):
    assert other_api.get(f"/api/v1/events/{event.pk}/").status_code == 404
    assert (
        other_api.patch(f"/api/v1/events/{event.pk}/", {"name": "x"}, format="json").status_code
        == 404
    )
    assert other_api.get(f"/api/v1/events/{event.pk}/entries/").status_code == 404
    assert (
        other_api.post(
            f"/api/v1/events/{event.pk}/entries/",
            {"last_name": "a", "first_name": "b"},
            format="json",
        ).status_code
        == 404
    )
    assert (
        other_api.post(f"/api/v1/events/{event.pk}/entries/{entry.pk}/withdraw/").status_code == 404
    )
    assert other_api.post(f"/api/v1/events/{event.pk}/draws/", {}, format="json").status_code == 404
    event.refresh_from_db()
    entry.refresh_from_db()
    assert event.name == "Кубок Москвы" and entry.status == "active"
    assert event.entries.count() == 1


def test_a_404_speaks_the_requests_language_and_names_no_model(other_api, event, entry):
    """get_object_or_404's «No Event matches the given query.» is English and names a
    model: the API answers DRF's own «Not found.», translated."""
    ru = other_api.get(f"/api/v1/events/{event.pk}/entries/", HTTP_ACCEPT_LANGUAGE="ru")
    en = other_api.get(f"/api/v1/events/{event.pk}/entries/", HTTP_ACCEPT_LANGUAGE="en")
    assert ru.status_code == en.status_code == 404
    assert ru.json() == {"detail": "Страница не найдена."}
    assert en.json() == {"detail": "Not found."}


def test_the_event_list_holds_only_own_events(api, event, other_event):
    names = [e["name"] for e in api.get("/api/v1/events/").json()["results"]]
    assert names == ["Кубок Москвы"]


def test_entries_create_update_withdraw_reinstate(api, event):
    url = f"/api/v1/events/{event.pk}/entries/"
    created = api.post(
        url, {"last_name": "Петров", "first_name": "Пётр", "club": "ЦДШ"}, format="json"
    )
    assert created.status_code == 201
    pk = created.json()["id"]
    assert api.patch(f"{url}{pk}/", {"number": 7}, format="json").json()["number"] == 7
    assert api.post(f"{url}{pk}/withdraw/").json()["status"] == "withdrawn"
    assert api.post(f"{url}{pk}/reinstate/").json()["status"] == "active"


def test_a_duplicate_number_is_a_400_naming_the_field(api, event, entry):
    response = api.post(
        f"/api/v1/events/{event.pk}/entries/",
        {"last_name": "Петров", "first_name": "Пётр", "number": 1},
        format="json",
    )
    assert response.status_code == 400
    assert "уже занят: Иванов Иван" in response.json()["number"][0]
    assert event.entries.count() == 1


def test_an_empty_or_over_long_name_is_a_400(api, event):
    url = f"/api/v1/events/{event.pk}/entries/"
    assert "last_name" in api.post(url, {"last_name": " ", "first_name": "x"}, format="json").json()
    assert (
        "first_name"
        in api.post(url, {"last_name": "x", "first_name": "y" * 101}, format="json").json()
    )
    assert not event.entries.exists()


def test_paste_all_or_nothing(api, event):
    url = f"/api/v1/events/{event.pk}/entries/paste/"
    bad = api.post(url, {"text": "Иванов Иван\nПетров\n"}, format="json")
    assert bad.status_code == 400 and bad.json()["rows"][1]["problems"]
    assert not event.entries.exists()
    good = api.post(url, {"text": "Иванов Иван; А\nПетров Пётр\n"}, format="json")
    assert good.status_code == 201 and len(good.json()["created"]) == 2


def test_csv_import_dry_run_then_real(api, event):
    data = ("Фамилия;Имя\n" + "".join(f"Ф{i};И{i}\n" for i in range(30))).encode("cp1251")
    url = f"/api/v1/events/{event.pk}/entries/import/"
    dry = api.post(
        url, {"file": SimpleUploadedFile("a.csv", data), "dry_run": True}, format="multipart"
    )
    assert dry.status_code == 200 and len(dry.json()["rows"]) == 30
    assert not event.entries.exists()
    real = api.post(url, {"file": SimpleUploadedFile("a.csv", data)}, format="multipart")
    assert real.status_code == 201 and event.entries.count() == 30


def test_csv_import_with_wrong_columns_or_binary_is_a_400(api, event):
    url = f"/api/v1/events/{event.pk}/entries/import/"
    for data in (b"Rating;Elo\n1;2\n", b"\x00\x01\x02binary"):
        response = api.post(url, {"file": SimpleUploadedFile("a.csv", data)}, format="multipart")
        assert response.status_code == 400 and "file" in response.json()
    assert api.post(url, {}, format="multipart").status_code == 400
    assert not event.entries.exists()


def test_draw_through_the_api_records_its_seed(api, event, entry):
    services.entry_create(event, last_name="Петров", first_name="Пётр")
    response = api.post(f"/api/v1/events/{event.pk}/draws/", {"seed": "s1"}, format="json")
    assert response.status_code == 201 and response.json()["seed"] == "s1"
    assert sorted(response.json()["numbers"].values()) == [1, 2]
    assert api.get(f"/api/v1/events/{event.pk}/draws/").json()[0]["seed"] == "s1"


def test_a_draw_with_no_players_is_a_400(api, event):
    assert api.post(f"/api/v1/events/{event.pk}/draws/", {}, format="json").status_code == 400


def test_rooms_are_listed(api, event):
    session = event.sessions.create(participants=15)
    room = session.rooms.create(number=1, kind="prime", seats=3, rounds_planned=5, participants=15)
    table = room.tables.create(number=1, seats=3)
    body = api.get(f"/api/v1/events/{event.pk}/rooms/").json()
    assert body == [
        {
            "id": room.pk,
            "session": session.pk,
            "number": 1,
            "name": "",
            "kind": "prime",
            "seats": 3,
            "rounds_planned": 5,
            "first_participant": 1,
            "participants": 15,
            "tables": [{"id": table.pk, "number": 1, "seats": 3}],
        }
    ]


def test_the_schema_and_docs_are_served_from_local_assets(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/v1/events/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    body = docs.content.decode()
    assert "swagger-ui" in body and "cdn" not in body.lower() and "//unpkg" not in body


def test_artificial_scores_out_of_order_are_a_400_naming_the_field(api):
    """Found by a schemathesis run: the database constraint's own text came back instead."""
    bad = EVENT | {"average_minus": 70, "average": 50, "average_plus": 60}
    answer = api.post("/api/v1/events/", bad, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 400
    body = answer.json()
    assert list(body) == ["average_minus"]
    assert "«Среднее минус» (70 %) не может быть больше «среднего» (50 %)." in body["average_minus"]
    bad = EVENT | {"average_minus": 40, "average": 70, "average_plus": 60}
    body = api.post("/api/v1/events/", bad, format="json", HTTP_ACCEPT_LANGUAGE="en").json()
    assert list(body) == ["average_plus"]
    assert "cannot be below «average» (70 %)" in body["average_plus"][0]
