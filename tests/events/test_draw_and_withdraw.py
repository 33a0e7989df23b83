"""A seated event keeps its numbers, and a withdrawal asks first: the page and the API say
the same, in the user's language."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from events.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def test_the_event_page_shows_why_numbers_cannot_be_drawn_once_seated(director_client, session15):
    event = session15.event
    body = director_client.get(event.get_absolute_url()).content.decode()
    assert 'id="draw-refusal"' in body and "Номера нельзя разыграть заново" in body
    assert reverse("director:draw", args=[event.pk]) not in body


def test_a_draw_posted_anyway_is_refused_and_the_numbers_stay(director_client, session15):
    event = session15.event
    before = dict(event.entries.values_list("pk", "number"))
    response = director_client.post(
        reverse("director:draw", args=[event.pk]), {"seed": "x"}, follow=True
    )
    assert "Номера нельзя разыграть заново: игроки уже рассажены" in response.content.decode()
    assert dict(event.entries.values_list("pk", "number")) == before


def test_the_api_refuses_the_draw_with_a_400_naming_the_field(api, session15):
    response = api.post(
        f"/api/v1/events/{session15.event.pk}/draws/",
        {"seed": "x"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "Numbers cannot be drawn again" in response.json()["numbers"][0]


def test_withdraw_asks_first_and_says_what_it_means_for_a_seated_player(director_client, session15):
    event = session15.event
    entry = event.entries.get(number=5)
    url = reverse("director:entry_withdraw", args=[event.pk, entry.pk])
    list_page = director_client.get(event.get_absolute_url()).content.decode()
    assert f'href="{url}"' in list_page  # «Снять» opens the confirmation, it does not post
    page = director_client.get(url).content.decode()
    assert "рассажен под номером 5 в сессии 1 начиная с тура 1" in page
    assert reverse("director:session", args=[event.pk, 1]) + "#substitute" in page
    assert Entry.objects.get(pk=entry.pk).status == "active"
    refused = director_client.post(url, {})
    assert refused.status_code == 400 and "Подтвердите снятие" in refused.content.decode()
    assert Entry.objects.get(pk=entry.pk).status == "active"
    done = director_client.post(url, {"confirm": "yes"})
    assert done.status_code == 302
    assert Entry.objects.get(pk=entry.pk).status == "withdrawn"


def test_the_api_withdraws_a_seated_player_only_with_confirm(api, session15):
    event = session15.event
    entry = event.entries.get(number=5)
    url = f"/api/v1/events/{event.pk}/entries/{entry.pk}/withdraw/"
    refused = api.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400
    assert "participant 5 in session 1" in refused.json()["confirm"][0]
    done = api.post(url, {"confirm": True}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "withdrawn"


def test_another_director_cannot_open_the_withdrawal(other_client, session15):
    event = session15.event
    entry = event.entries.get(number=5)
    url = reverse("director:entry_withdraw", args=[event.pk, entry.pk])
    assert other_client.get(url).status_code == 404
    assert other_client.post(url, {"confirm": "yes"}).status_code == 404
    assert Entry.objects.get(pk=entry.pk).status == "active"
