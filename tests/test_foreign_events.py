"""Nobody learns which event ids exist: on every route of one event — the director's pages
``/director/events/<pk>/…`` and the API's ``/api/v1/events/<pk>/…`` — an anonymous caller,
and a director whose event it is not, get the same answer for an existing event as for an
id that is no event's (status, redirect, and the API's body). The owner gets his pages.

The routes are read from the URL configuration, so a route added later is checked too; every
other part of its address names a real object of the existing event (its session, room,
round, table-round, deal, sheet, player, adjustment), so nothing but the event differs."""

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from events import calls
from events.models import Event
from scoring.models import Adjustment
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of, start

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "delete")


def _routes():
    """(route, name) of every URL pattern, its prefixes joined."""

    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                yield prefix + str(p.pattern), p.name or ""

    return list(walk(get_resolver().url_patterns))


#: ``<int:pk>`` (path) and ``(?P<pk>[^/.]+)`` (the router's regex) alike.
PARAM = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


#: Routes whose ``pk`` is the event's (the director's pages, the router's, movements').
BY_PK = ("director/events/<int:pk>/", "api/v1/events/(?P<pk>", "api/v1/events/<int:pk>/")


def _event_routes():
    found = []
    for route, name in _routes():
        route = route.replace("^", "").replace("$", "").replace("\\.", ".").replace("/?", "/")
        if route.startswith("api/v1/events/<int:event_pk>/"):
            found.append((route, name, "event_pk"))
        elif route.startswith(BY_PK):
            found.append((route, name, "pk"))
    return found


@pytest.fixture
def world(director, session15):
    """The director's event with a round on the clock, a sheet and an adjustment: an id of
    each for the rest of the addresses."""
    event = session15.event
    play = play_of(session15, 1, 1)
    start(play.round)
    done = services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    adjustment = services.adjustment_create(
        play,
        entry=entry_at(play, "E"),
        kind=Adjustment.Kind.PENALTY,
        by_user=director,
        penalty="1.5",
        reason="опоздание",
    )
    ids = {
        "number": 1,
        "entry_pk": entry_at(play, "N").pk,
        "room_pk": play.table.room_id,
        "round_pk": play.round_id,
        "play_pk": play.pk,
        "deal_pk": deal_of(play, 1).pk,
        "sheet_pk": done.sheet.pk,
        "adjustment_pk": adjustment.pk,
        "report_pk": 1,
        # A table's «Позвать судью» (events.calls): its «Иду» and «Решено».
        "call_pk": calls.call_open(play.table, reason="dispute").pk,
        "action": "pause",
        "format": "json",
        "login": "nobody",  # a staff member's address (…/staff/<login>/)
    }
    # The API's nested ``pk``: the object its route is about.
    nested = {
        "entry": ids["entry_pk"],
        "round": ids["round_pk"],
        "scoring-play": ids["play_pk"],
        "scoring-sheet": ids["sheet_pk"],
        "scoring-adjustment": ids["adjustment_pk"],
    }
    return event, ids, nested


def _url(route, name, event_param, event_pk, ids, nested):
    def fill(match):
        param = match.group(1) or match.group(2)
        if param == event_param:
            return str(event_pk)
        if param == "pk":
            kind = next(k for k in nested if name.startswith(k))
            return str(nested[kind])
        return str(ids[param])

    return "/" + PARAM.sub(fill, route)


def _answer(client, method, url, event_pk):
    response = getattr(client, method)(url, HTTP_ACCEPT_LANGUAGE="en")
    location = response.get("Location", "").replace(f"/events/{event_pk}/", "/events/<event>/")
    body = b""
    if url.startswith("/api/"):
        body = response.content
    return response.status_code, location, body


def test_every_route_of_an_event_is_found_by_the_check(world):
    routes = _event_routes()
    names = {name for _route, name, _p in routes}
    # The director's pages, the API's event and its nested routes: all of them seen.
    assert {"event_detail", "name_cards", "room_detail", "sheet", "session"} <= names
    assert {"event-detail", "entry-list", "round-start", "scoring-standings"} <= names
    assert {"scoring-traveller", "scoring-card", "event-plan"} <= names
    assert len(routes) > 60


@pytest.mark.parametrize("actor", ["anonymous", "another director"])
def test_an_existing_event_and_a_missing_one_answer_alike(
    actor, world, other_director, django_user_model
):
    event, ids, nested = world
    missing = (Event.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1000
    client = Client()
    if actor == "another director":
        client.force_login(other_director)
    differ = []
    for route, name, event_param in _event_routes():
        there = _url(route, name, event_param, event.pk, ids, nested)
        nowhere = _url(route, name, event_param, missing, ids, nested)
        for method in METHODS:
            absent = _answer(client, method, nowhere, missing)
            present = _answer(client, method, there, event.pk)
            if absent != present:
                differ.append(f"{method.upper()} {there}: {present[:2]} but {absent[:2]}")
            elif absent[0] < 300 and method != "get":
                differ.append(f"{method.upper()} {there}: {absent[0]} — a write went through")
    assert differ == []
    event.refresh_from_db()
    assert event.name == "Кубок Москвы" and not event.results_public


def test_even_with_published_results_a_director_of_another_event_writes_nothing(
    world, other_client
):
    event, ids, nested = world
    event.results_public = True
    event.save()
    answers = {
        other_client.post(f"/api/v1/events/{event.pk}/results-public/", {"public": False}),
        other_client.post(f"/director/events/{event.pk}/scores/publish/", {"public": "0"}),
    }
    assert {a.status_code for a in answers} == {404}
    event.refresh_from_db()
    assert event.results_public


#: The API's results: they answer their director what the public sees, his own view behind
#: ``?view=director`` (scoring.standings.disclosure).
RESULTS = {"scoring-standings", "scoring-traveller", "scoring-card"}


def test_the_owner_gets_his_event_and_the_same_404_for_a_missing_one(world, director_client):
    event, ids, nested = world
    missing = event.pk + 1000
    for route, name, event_param in _event_routes():
        there = _url(route, name, event_param, event.pk, ids, nested)
        nowhere = _url(route, name, event_param, missing, ids, nested)
        status = director_client.get(nowhere).status_code
        assert status in (404, 405), (nowhere, status)
        if status == 404 and "report_pk" not in route:  # no box report was made
            if name in RESULTS:
                # Without the switch he reads what the public does: the deal, still in
                # play at other tables, is refused to him as to anyone.
                public = director_client.get(there).status_code
                assert public == (403 if name == "scoring-traveller" else 200), (there, public)
                there += "?view=director"
            found = director_client.get(there)
            assert found.status_code not in (401, 403, 404), (there, found.status_code)


def test_an_anonymous_caller_of_an_unpublished_events_results_is_answered_as_for_none(
    client, world
):
    """The results are the API's only routes open to anyone (once published): before that
    an anonymous caller is refused as on every other route — for a missing event too."""
    event, ids, _nested = world
    missing = event.pk + 1000
    for path in ("standings/", f"deals/{ids['deal_pk']}/traveller/"):
        here = client.get(f"/api/v1/events/{event.pk}/{path}")
        none = client.get(f"/api/v1/events/{missing}/{path}")
        assert here.status_code == none.status_code == 401  # no credentials (docs/api.md)
        assert here["WWW-Authenticate"] == none["WWW-Authenticate"] == "Token"
        assert here.json() == none.json()
    event.results_public = True
    event.save()
    assert client.get(f"/api/v1/events/{event.pk}/standings/").status_code == 200
