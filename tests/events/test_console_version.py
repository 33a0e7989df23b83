"""The console's «anything changed?»: answered from the room's version without building the
grid, and changed by every writer of what the console shows."""

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events import rounds
from events.models import Entry, Round
from events.services import entry_update
from scoring.models import Adjustment, Proof, TablePlay
from scoring.sheets import services
from tests.console_board import board_doc
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of, seat_players, start

pytestmark = pytest.mark.django_db

#: What a logged-in director's request reads before the view runs: his session and himself.
LOGIN_TABLES = ('"django_session"', '"auth_user"')


def _url(session, **query):
    room = session.rooms.get()
    url = reverse("director:room_console", args=[session.event.pk, room.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def _version(client, session):
    doc = board_doc(client.get(_url(session)))
    assert doc["changed"]
    return doc["version"]


def _since(client, session, version):
    """The poll, and the queries the console itself made (the login's are Django's)."""
    url = _url(session, since=version)
    with CaptureQueriesContext(connection) as queries:
        doc = board_doc(client.get(url))
    own = [q["sql"] for q in queries if not any(t in q["sql"] for t in LOGIN_TABLES)]
    return doc, own


@pytest.mark.parametrize("players", [15, 60])
def test_an_unchanged_console_answers_in_one_query_whatever_the_tables(
    director_client, event, players
):
    # 15: 5 tables, 5 rounds; 60: a skip room of 20 tables × 3, 20 rounds.
    session = seat_players(event, players, kind="prime" if players == 15 else "skip")
    start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N"))
    version = _version(director_client, session)
    url = _url(session, since=version)
    with CaptureQueriesContext(connection) as everything:
        doc = board_doc(director_client.get(url))
    own = [q["sql"] for q in everything if not any(t in q["sql"] for t in LOGIN_TABLES)]
    assert doc == {"version": version, "changed": False}
    assert len(own) == 1, "\n".join(own)  # the room, proved to be this director's
    assert len(everything) <= 3  # with the login's session and user


def _changes_the_version(client, session, change):
    before = _version(client, session)
    change()
    doc, _own = _since(client, session, before)
    assert doc["changed"] and doc["version"] != before
    same, _own = _since(client, session, doc["version"])
    assert same == {"version": doc["version"], "changed": False}
    return doc


def test_a_sheet_saved_confirmed_or_disputed_changes_the_version(director_client, session15):
    start(Round.objects.get(room__session=session15, number=1))
    play = play_of(session15, 1, 2)
    deal = deal_of(play, 1)
    north, east, south = (entry_at(play, p) for p in "NES")
    doc = _changes_the_version(
        director_client,
        session15,
        # With his PIN: an entry without one is confirmed only from another phone.
        lambda: services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=north, proof=Proof.PIN),
    )
    row = next(r for r in doc["rows"] if r["table"] == 2)
    assert row["cells"][0]["state"] == "entered"
    sheet = play.sheets.get(deal=deal)
    doc = _changes_the_version(
        director_client,
        session15,
        lambda: services.sheet_confirm(sheet, by_entry=east, proof=Proof.PIN),
    )
    assert next(r for r in doc["rows"] if r["table"] == 2)["cells"][0]["state"] == "confirmed"
    other = dict(THREE_DIAMONDS, tricks={"N": 6, "E": 4})
    doc = _changes_the_version(
        director_client,
        session15,
        lambda: services.sheet_record(play, deal, other, by_entry=south),
    )
    assert [d["table"] for d in doc["disputes"]] == [2]


def test_an_adjustment_and_its_removal_change_the_version(director_client, session15, director):
    start(Round.objects.get(room__session=session15, number=1))
    play = play_of(session15, 1, 3)
    _changes_the_version(
        director_client,
        session15,
        lambda: services.adjustment_create(
            play,
            entry=entry_at(play, "E"),
            kind=Adjustment.Kind.PENALTY,
            penalty="10",
            reason="late",
            by_user=director,
        ),
    )
    made = Adjustment.objects.get(play=play)
    _changes_the_version(
        director_client, session15, lambda: services.adjustment_delete(made, by_user=director)
    )


def test_every_clock_action_changes_the_version(director_client, session15):
    rnd = Round.objects.get(room__session=session15, number=1)
    doc = _changes_the_version(director_client, session15, lambda: rounds.round_start(rnd))
    assert doc["round_state"] == "running"
    for action, state in (
        (rounds.round_pause, "paused"),
        (rounds.round_resume, "running"),
        (lambda r: rounds.round_adjust(r, seconds=60), "running"),
        (rounds.round_end_now, "finished"),
    ):
        doc = _changes_the_version(
            director_client, session15, lambda action=action: action(Round.objects.get(pk=rnd.pk))
        )
        assert doc["round_state"] == state


def test_table_access_late_marks_substitutes_and_names_change_the_version(
    director_client, session15, director
):
    from events.services import entry_create
    from movements.services import seat_substitute

    rnd = Round.objects.get(room__session=session15, number=1)
    doc = _changes_the_version(
        director_client, session15, lambda: rounds.round_end_now(rounds.round_start(rnd))
    )
    assert {t["table"] for t in doc["late"]} == {1, 2, 3, 4, 5}  # nobody wrote a sheet
    play = TablePlay.objects.get(round=rnd, table__number=1)
    _changes_the_version(
        director_client,
        session15,
        lambda: services.play_access_set(play, TablePlay.Access.CLOSED, by_user=director),
    )
    _changes_the_version(
        director_client,
        session15,
        lambda: services.round_access_set(rnd, TablePlay.Access.OPEN, by_user=director),
    )
    late = entry_create(session15.event, last_name="Поздний", first_name="Пётр")
    leaving = entry_at(play_of(session15, 2, 1), "N")
    doc = _changes_the_version(
        director_client,
        session15,
        lambda: seat_substitute(session15, leaving=leaving, arriving=late, from_round=2),
    )
    doc = _changes_the_version(
        director_client,
        session15,
        lambda: entry_update(Entry.objects.get(pk=late.pk), last_name="Опоздавший"),
    )


def test_a_refused_action_leaves_the_version_as_it_was(director_client, session15):
    version = _version(director_client, session15)
    rnd = Round.objects.get(room__session=session15, number=1)
    with pytest.raises(ValidationError):
        rounds.round_pause(rnd)  # not running: refused
    doc, _own = _since(director_client, session15, version)
    assert doc == {"version": version, "changed": False}


def test_another_directors_poll_is_refused_even_with_a_version(
    director_client, other_client, session15
):
    version = _version(director_client, session15)
    assert other_client.get(_url(session15, since=version)).status_code == 404
