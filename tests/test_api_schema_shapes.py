"""The API schema tells the truth about the answers' shapes: for each of these endpoints the
JSON type of the answer (array or object) and its properties are the schema's."""

import json

import pytest
from rest_framework.test import APIClient

from events.models import Person, PersonAlias, PersonIdentifier
from scoring.models import Ladder, LadderGrade, LadderRow
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of, start

pytestmark = pytest.mark.django_db


def _schema(client) -> dict:
    return json.loads(client.get("/api/schema/", {"format": "json"}).content)


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _response_schema(schema, path, method, status):
    operation = schema["paths"][path][method]
    content = operation["responses"][str(status)]["content"]["application/json"]["schema"]
    return _resolve(schema, content)


def _matches(schema, node, value) -> list[str]:
    node = _resolve(schema, node)
    if node.get("type") == "array":
        if not isinstance(value, list):
            return [f"expected an array, got {type(value).__name__}"]
        return [p for item in value[:3] for p in _matches(schema, node.get("items", {}), item)]
    if node.get("type") == "object" or "properties" in node:
        if not isinstance(value, dict):
            return [f"expected an object, got {type(value).__name__}"]
        props = node.get("properties", {})
        problems = [f"missing {name}" for name in node.get("required", []) if name not in value]
        problems += [f"undocumented {name}" for name in value if props and name not in props]
        for name, sub in props.items():
            if name in value and value[name] is not None:
                problems += [f"{name}: {p}" for p in _matches(schema, sub, value[name])]
        return problems
    return []


def test_the_answers_have_the_schemas_shapes(director, session15):
    api = APIClient()
    api.force_authenticate(director)
    event = session15.event
    play = play_of(session15, 1, 1)
    start(play.round)
    sheet = services.sheet_record(
        play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N")
    ).sheet
    # The register's and the ladder's answers (issue 24): a person with a number, a
    # spelling and an event, on the ladder with one rated session.
    entry = event.entries.first()
    person = Person.objects.create(owner=director, last_name="Семёнов", first_name="Пётр")
    PersonIdentifier.objects.create(person=person, kind="club_card", value="77")
    PersonAlias.objects.create(person=person, last_name="Семенов", first_name="Петр")
    entry.person = person
    entry.save(update_fields=["person"])
    ladder = Ladder.objects.create(owner=director, name="Клуб", slug="klub")
    figures = {"before": 50.0, "expected": 50.0, "actual": 61.2, "after": 51.2, "deals": 16}
    LadderGrade.objects.create(
        ladder=ladder,
        person=person,
        grade=51.2,
        deals=16,
        sessions=1,
        last_rated=event.date,
        change=1.2,
    )
    LadderRow.objects.create(
        ladder=ladder,
        person=person,
        session=session15,
        entry=entry,
        order=0,
        date=event.date,
        k=0.0075,
        **figures,
    )
    schema = _schema(api)
    e = "/api/v1/events/{id}/"
    r = "/api/v1/register/persons/"
    checks = [
        (f"{e}draws/", "get", 200, f"/api/v1/events/{event.pk}/draws/", None),
        (f"{e}rooms/", "get", 200, f"/api/v1/events/{event.pk}/rooms/", None),
        (
            "/api/v1/events/{event_pk}/sheets/{id}/history/",
            "get",
            200,
            f"/api/v1/events/{event.pk}/sheets/{sheet.pk}/history/",
            None,
        ),
        (
            e + "sessions/{number}/rounds/start/",
            "post",
            200,
            f"/api/v1/events/{event.pk}/sessions/1/rounds/start/",
            {},
        ),
        (r, "get", 200, r, None),
        (r + "{id}/", "get", 200, f"{r}{person.pk}/", None),
        (r + "{id}/", "patch", 200, f"{r}{person.pk}/", {"club": "ЦДШ"}),
        (r, "post", 201, r, {"last_name": "Иванов", "first_name": "Иван"}),
        ("/api/v1/ladders/{slug}/", "get", 200, "/api/v1/ladders/klub/", None),
        (
            "/api/v1/ladders/{slug}/persons/{person_pk}/history/",
            "get",
            200,
            f"/api/v1/ladders/klub/persons/{person.pk}/history/",
            None,
        ),
    ]
    problems = {}
    for path, method, status, url, body in checks:
        assert path in schema["paths"], sorted(schema["paths"])
        if method == "get":
            response = api.get(url)
        else:
            response = getattr(api, method)(url, body, format="json")
        assert response.status_code == status, (url, response.content)
        found = _matches(schema, _response_schema(schema, path, method, status), response.json())
        if found:
            problems[f"{method.upper()} {path}"] = found
    assert problems == {}
