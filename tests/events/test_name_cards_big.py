"""Name cards of a big event come a page of 240 at a time, each page in well under 5 s (2,000
players: 9 pages), every player once; their QR codes are kept, so a page drawn again is
faster still; a page out of range is a 400 naming the parameter."""

import time

import pytest

from events.models import Entry
from events.views import CARDS_PER_PAGE

pytestmark = pytest.mark.django_db


@pytest.fixture
def big_event(event):
    Entry.objects.bulk_create(
        Entry(event=event, last_name=f"Игроков{i:04d}", first_name="Игорь", number=i)
        for i in range(1, 2001)
    )
    return event


def test_2000_players_name_cards_page_by_page_each_in_under_5_s(director_client, big_event):
    url = f"/director/events/{big_event.pk}/cards/names/"
    seen, slowest = [], 0.0
    pages = -(-2000 // CARDS_PER_PAGE)
    for page in range(1, pages + 1):
        began = time.monotonic()
        response = director_client.get(url, {"page": page}, HTTP_ACCEPT_LANGUAGE="ru")
        slowest = max(slowest, time.monotonic() - began)
        assert response.status_code == 200
        body = response.content.decode()
        count = body.count('class="name-card"')
        assert count == (CARDS_PER_PAGE if page < pages else 2000 - (pages - 1) * CARDS_PER_PAGE)
        assert body.count("<svg") >= count
        seen += [c["entry"].pk for c in response.context["cards"]]
        assert "2000 игроков: печатайте карточки по страницам." in body
        assert f"Карточки {(page - 1) * CARDS_PER_PAGE + 1}–" in body
    assert slowest < 5, slowest
    assert len(seen) == len(set(seen)) == 2000
    began = time.monotonic()
    assert director_client.get(url, {"page": 1}).status_code == 200
    assert time.monotonic() - began < 2  # the codes come from the cache now


def test_a_page_out_of_range_is_a_400_naming_it(director_client, big_event):
    url = f"/director/events/{big_event.pk}/cards/names/"
    response = director_client.get(url, {"page": 99}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "«page»" in response.content.decode()
