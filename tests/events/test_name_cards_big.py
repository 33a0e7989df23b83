"""Name cards of a big event come a page of 240 at a time, each page in well under 5 s (2,000
players: 9 pages), the pages covering every player once; their QR codes are kept, so a page
drawn again is faster still; a page out of range is a 400 naming the parameter.

The bounds are on this process's CPU time (the test client serves in it): what drawing
the codes costs, not how busy the machine is with other work at that moment."""

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
    pages = -(-2000 // CARDS_PER_PAGE)
    first = director_client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
    # The pages' links cover every player once, in order.
    ranges = [(p["first"], p["last"]) for p in first.context["pages"]]
    assert len(ranges) == pages and ranges[0] == (1, CARDS_PER_PAGE) and ranges[-1][1] == 2000
    assert all(b[0] == a[1] + 1 for a, b in zip(ranges, ranges[1:], strict=False))
    seen = []
    for page in (1, 5, pages):  # the first, one in the middle and the last: each drawn anew
        began = time.process_time()
        response = director_client.get(url, {"page": page}, HTTP_ACCEPT_LANGUAGE="ru")
        took = time.process_time() - began
        assert response.status_code == 200 and took < 5, (page, took)
        body = response.content.decode()
        low, high = ranges[page - 1]
        count = body.count('class="name-card"')
        assert count == high - low + 1 and body.count("<svg") >= count
        assert [c["entry"].number for c in response.context["cards"]] == list(range(low, high + 1))
        assert "2000 игроков: печатайте карточки по страницам." in body
        assert f"Карточки {low}–{high}" in body
        seen += [c["entry"].pk for c in response.context["cards"]]
    assert len(seen) == len(set(seen))
    began = time.process_time()
    assert director_client.get(url, {"page": 1}).status_code == 200
    assert time.process_time() - began < 2  # the codes come from the cache now


def test_a_page_out_of_range_is_a_400_naming_it(director_client, big_event):
    url = f"/director/events/{big_event.pk}/cards/names/"
    response = director_client.get(url, {"page": 99}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "«page»" in response.content.decode()
