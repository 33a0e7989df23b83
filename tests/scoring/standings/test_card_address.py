"""A player's public score card is addressed by his participant number, not by a database id
(issue 21, finding 14): ``/e/<slug>/results/cards/7/``, its CSV and XLSX beside it; a
substitute who took number 7 over has «7-2»; the old addresses by id lead to the new ones;
the pages link the new ones; before publishing, neither kind tells anyone anything."""

import re

import pytest
from django.urls import reverse

from events import services as event_services
from events.models import Seat
from movements.services import seat_substitute
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, play_of, play_out

pytestmark = pytest.mark.django_db


def _number(session, number):
    return Seat.objects.select_related("entry").filter(participant=number)[0].entry


@pytest.fixture
def published(session15, director):
    play = play_of(session15, 1, 1)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    play_out(session15)
    event_services.event_set_results_public(session15.event, True)
    return session15.event, session15


def test_the_card_is_at_the_players_number(client, published):
    event, session = published
    seven = _number(session, 7)
    url = f"/e/{event.slug}/results/cards/7/"
    assert reverse("public:card", args=[event.slug, 7]) == url
    page = client.get(url)
    assert page.status_code == 200 and page.context["card"].entry == seven
    for kind in ("csv", "xlsx"):
        assert client.get(f"/e/{event.slug}/results/cards/7.{kind}").status_code == 200
    assert client.get(f"/e/{event.slug}/results/cards/99/").status_code == 404
    assert client.get(f"/e/{event.slug}/results/cards/7-1/").status_code == 404


def test_the_old_address_by_id_leads_to_the_new_one(client, published):
    event, session = published
    seven = _number(session, 7)
    old = client.get(f"/e/{event.slug}/results/players/{seven.pk}/")
    assert old.status_code == 302 and old["Location"] == f"/e/{event.slug}/results/cards/7/"
    for kind in ("csv", "xlsx"):
        moved = client.get(f"/e/{event.slug}/results/players/{seven.pk}.{kind}")
        assert moved["Location"] == f"/e/{event.slug}/results/cards/7.{kind}"


def test_the_pages_link_cards_by_number_only(client, published):
    event, session = published
    pages = [
        reverse("public:event", args=[event.slug]),
        reverse("public:session", args=[event.slug, 1]),
        reverse("public:traveller", args=[event.slug, deal_of(play_of(session, 1, 1), 1).pk]),
        reverse("public:card", args=[event.slug, 7]),
    ]
    for url in pages:
        body = client.get(url).content.decode()
        assert "/results/players/" not in body, url
        assert re.search(rf'href="/e/{event.slug}/results/cards/\d+(\.csv|\.xlsx)?/?"', body)


def test_a_substitute_has_the_number_and_its_next_rank(client, published, director):
    event, session = published
    leaving = _number(session, 7)
    late = event_services.entry_create(event, last_name="Late", first_name="Lou")
    event.results_public = False
    event.save()
    seat_substitute(session, leaving=leaving, arriving=late, from_round=3, by=director)
    event_services.event_set_results_public(event, True)
    first = client.get(f"/e/{event.slug}/results/cards/7/")
    second = client.get(f"/e/{event.slug}/results/cards/7-2/")
    assert first.context["card"].entry == leaving and second.context["card"].entry == late
    assert client.get(f"/e/{event.slug}/results/cards/7-3/").status_code == 404
    moved = client.get(f"/e/{event.slug}/results/players/{late.pk}/")
    assert moved["Location"] == f"/e/{event.slug}/results/cards/7-2/"


def test_before_publishing_neither_address_says_anything(client, session15):
    event = session15.event
    seven = _number(session15, 7)
    for url in (
        f"/e/{event.slug}/results/cards/7/",
        f"/e/{event.slug}/results/players/{seven.pk}/",
    ):
        answer = client.get(url)
        assert answer.status_code == 403 and "Location" not in answer
