"""Every 404 and 403 speaks the reader's language (issue 33): the site's own page, never
Django's «No Event matches the given query.»; the API's answer in JSON, in his language; a
form refused is a 400 on every door, re-rendered with its errors and what was typed."""

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

from events import links

pytestmark = pytest.mark.django_db

DJANGO_WORDS = ("matches the given query", "Page not found", "Forbidden (403)")


def _page(response) -> str:
    page = response.content.decode()
    assert "<html" in page, page[:200]
    for words in DJANGO_WORDS:
        assert words not in page
    return page


def test_a_public_page_of_no_event_is_a_404_in_russian_by_default(client):
    response = client.get("/e/zzzz/results/")
    assert response.status_code == 404
    page = _page(response)
    assert "Не найдено" in page and "No Event" not in page


def test_the_same_404_in_english_when_the_address_says_english(client):
    response = client.get("/en/e/zzzz/results/")
    assert response.status_code == 404
    page = _page(response)
    assert "Not found" in page and "Не найдено" not in page


def test_a_directors_page_of_a_missing_player_is_the_sites_404(director_client, event):
    response = director_client.get(reverse("director:entry_edit", args=[event.pk, 999]))
    assert response.status_code == 404
    assert "Не найдено" in _page(response)
    english = director_client.get(
        reverse("director:entry_edit", args=[event.pk, 999]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "Not found" in _page(english)


def test_the_api_answers_404_and_403_in_the_readers_language(director):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="ru")
    api.force_authenticate(director)
    missing = api.get("/api/v1/events/999/")
    assert missing.status_code == 404
    assert missing.json() == {"detail": "Страница не найдена."}  # DRF's own Russian
    assert APIClient().get("/api/v1/nothing-here/").status_code == 404
    anonymous = APIClient(HTTP_ACCEPT_LANGUAGE="ru").post("/api/v1/events/", {}, format="json")
    assert anonymous.status_code in (401, 403)
    assert "detail" in anonymous.json() and "credentials" not in anonymous.json()["detail"]


def test_a_403_is_the_sites_page_with_our_reason_or_our_general_words(rf: RequestFactory):
    request = rf.get("/director/")
    ours = links.permission_denied(request, PermissionDenied("Только директор турнира."))
    assert ours.status_code == 403 and "Только директор турнира." in ours.content.decode()
    general = links.permission_denied(request, PermissionDenied())
    assert "Вам это действие недоступно." in general.content.decode()
    api = links.permission_denied(rf.get("/api/v1/events/"), PermissionDenied())
    assert api.status_code == 403 and api["Content-Type"].startswith("application/json")


def test_a_form_sent_without_its_csrf_token_is_the_sites_403_in_russian():
    response = Client(enforce_csrf_checks=True).post(
        reverse("director:login"), {"username": "a", "password": "b"}
    )
    assert response.status_code == 403
    page = _page(response)
    assert "Страница устарела" in page and "CSRF" not in page


@pytest.mark.parametrize(
    ("name", "data", "typed"),
    [
        ("director:event_edit", {"name": "Кубок осени", "date": "не дата"}, "Кубок осени"),
        ("director:entry_add", {"last_name": "Петров", "first_name": ""}, "Петров"),
    ],
)
def test_a_refused_form_is_a_400_with_its_errors_and_what_was_typed(
    director_client, event, name, data, typed
):
    response = director_client.post(reverse(name, args=[event.pk]), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert 'class="error"' in page and typed in page


def test_a_refused_player_edit_is_a_400_too(director_client, event):
    from events import services

    entry = services.entry_create(event, last_name="Иванов", first_name="Иван")
    response = director_client.post(
        reverse("director:entry_edit", args=[event.pk, entry.pk]),
        {"last_name": "Сидоров", "first_name": "", "club": ""},
    )
    assert response.status_code == 400
    assert "Сидоров" in response.content.decode()
