"""A bounded schemathesis run over the whole API (issue 11, finding 7): for every operation of
the schema, requests generated from it — valid ones, and invalid ones — against a director's
event with a session, rounds on the clock and sheets. Every answer must be no server error
(0 × 5xx), a status the schema documents, JSON where the schema says JSON, and a body the
schema describes.

In process (the WSGI application, the test's own database transaction), derandomised so that
a run repeats; about 15 requests per operation and mode. Path ids are drawn from the schema
and, as often as not, replaced with ids of the event's own rows, so that the operations get
past «not found» to their real work.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from events.models import Person, PersonIdentifier
from scoring.models import Adjustment, Deal, Ladder, ScoreSheet, TablePlay
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of, start

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
#: Requests per operation and mode; ``API_FUZZ_EXAMPLES`` and ``API_FUZZ_RANDOM=1`` run a
#: longer, randomised search by hand (make test keeps the bounded, repeatable one).
EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "15"))
RANDOM = os.environ.get("API_FUZZ_RANDOM") == "1"


@pytest.fixture
def in_process():
    """Requests served in this thread keep the test's connection (and its transaction)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def world(director, session15):
    """The director's event: session 1 seated, round 1 on the clock with sheets (one
    disputed), an adjustment; the ids the operations may be given."""
    event = session15.event
    play = play_of(session15, 1, 1)
    start(play.round)
    done = services.sheet_record(
        play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N")
    )
    services.sheet_record(play, deal_of(play, 2), THREE_DIAMONDS, by_user=director)
    services.adjustment_create(
        play,
        entry=entry_at(play, "E"),
        kind=Adjustment.Kind.PENALTY,
        by_user=director,
        penalty="1.5",
        reason="опоздание",
    )
    # The register's and the ladder's (issue 24): a person with a number, the club's ladder.
    person = Person.objects.create(owner=director, last_name="Семёнов", first_name="Пётр")
    PersonIdentifier.objects.create(person=person, kind="club_card", value="77")
    Ladder.objects.create(owner=director, name="Клуб", slug="klub")
    ids = {
        "person": [person.pk],
        "slug": ["klub"],
        "event_pk": [event.pk],
        "event": [event.pk],
        "sheet": list(ScoreSheet.objects.values_list("pk", flat=True)) + [done.sheet.pk],
        "round": [play.round_id],
        "entry": list(event.entries.values_list("pk", flat=True)[:5]),
        "play": list(TablePlay.objects.filter(round=play.round).values_list("pk", flat=True)),
        "deal": list(Deal.objects.filter(board_set=play.board_set).values_list("pk", flat=True)),
        "adjustment": list(Adjustment.objects.values_list("pk", flat=True)),
        "session": [session15.pk],
        "number": [1],
    }
    return ids, Token.objects.create(user=director).key


def _kind_of_id(path: str, name: str) -> str:
    """Which rows a path parameter names: ``{id}`` after «sheets/» is a sheet's, and so on."""
    if name != "id":
        return {
            "event_pk": "event",
            "deal_pk": "deal",
            "entry_pk": "entry",
            "person_pk": "person",
        }.get(name, name)
    before = path.split("{id}")[0].rstrip("/").rsplit("/", 1)[-1]
    return {
        "events": "event",
        "sheets": "sheet",
        "rounds": "round",
        "entries": "entry",
        "plays": "play",
        "adjustments": "adjustment",
        "sessions": "session",
        "persons": "person",
    }.get(before, "event")


def _schema(app):
    return schemathesis.openapi.from_wsgi("/api/schema/?format=json", app)


def _operations(app):
    return [result.ok() for result in _schema(app).get_all_operations()]


def _fuzz(operation, mode, ids: dict, headers: dict, failures: dict) -> int:
    """Send one operation's generated requests; record what breaks; the number sent."""
    path, sent = operation.path, []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=not RANDOM,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(
        case=operation.as_strategy(generation_mode=mode),
        own=st.booleans(),
        pick=st.integers(min_value=0, max_value=99),
    )
    def run(case, own, pick):
        if own and case.path_parameters:
            for name in list(case.path_parameters):
                known = ids.get(_kind_of_id(path, name)) or []
                if known:
                    case.path_parameters[name] = known[pick % len(known)]
        response = case.call(headers=headers)
        sent.append(response.status_code)
        try:
            case.validate_response(response, checks=CHECKS)
        except (Exception, BaseExceptionGroup) as error:  # every failure is listed
            problems = failures.setdefault(f"{operation.method.upper()} {path}", [])
            if len(problems) < 3:
                problems.append(f"{response.status_code}: {str(error)[:600]}")

    run()
    return len(sent)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_every_operation_answers_as_its_schema_says(in_process, world, mode):
    ids, token = world
    headers = {"Authorization": f"Token {token}", "Accept-Language": "ru"}
    operations = _operations(in_process)
    assert len(operations) >= 45  # the whole API, round clock included
    failures: dict[str, list[str]] = {}
    sent = sum(_fuzz(op, mode, ids, headers, failures) for op in operations)
    assert sent >= len(operations) * 5
    assert not failures, "\n\n".join(f"{op}\n" + "\n".join(p) for op, p in failures.items())
