"""The standing across sessions (docs/game.md §4.4): two sessions with different results; the
event standing equals an independent computation over every deal of both (the average
percentage over all the deals, not the average of the sessions' averages; the points' sum),
a player who played one session only stands with his deals; the public results page and the
standings CSV show it with each session's figure and deals."""

import csv
import io
from collections import defaultdict
from fractions import Fraction

import pytest

from events import services as event_services
from events.models import Entry, Event
from movements import planner
from movements.services import session_create
from scoring import standings
from tests.factories import seat_players
from tests.scoring.standings.test_standings import expected_figures, fill

pytestmark = pytest.mark.django_db


def _two_sessions(event, director, method):
    """Session 1: 15 players; then 13, 14 and 15 withdraw; session 2: the other 12."""
    Event.objects.filter(pk=event.pk).update(scoring_method=method)
    first = seat_players(Event.objects.get(pk=event.pk), 15)
    fill(first, director, seed=41)
    for number in (13, 14, 15):
        event_services.entry_withdraw(Entry.objects.get(event=event, number=number), confirmed=True)
    option = planner.plan(12).as_dict()["options"][0]
    second = session_create(Event.objects.get(pk=event.pk), option, number=2, rounds=3)
    fill(second, director, seed=43)
    return first, second


def _expected(sessions, method):
    """entry → (figure, deals) over every deal of every session, from the rows themselves."""
    figures = defaultdict(list)
    for session in sessions:
        for entry_id, net in expected_figures(session).values():
            figures[entry_id].append(net)
    out = {}
    for entry_id, values in figures.items():
        total = sum(values, Fraction(0))
        out[entry_id] = (total / len(values) if method == "matchpoints" else total, len(values))
    return out


def _session_expected(session, method):
    return _expected([session], method)


@pytest.mark.parametrize("method", ["matchpoints", "points"])
def test_the_event_standing_is_over_every_deal_of_every_session(event, director, method):
    first, second = _two_sessions(event, director, method)
    want = _expected([first, second], method)
    rows = standings.event_standings(Event.objects.get(pk=event.pk))
    got = {r.entry.pk: (r.total, r.deals) for r in rows}
    assert got == want
    # Best first.
    totals = [r.total for r in rows]
    assert totals == sorted(totals, reverse=True)
    # The players who left after session 1 stand with their session-1 deals only.
    gone = Entry.objects.filter(event=event, number__in=(13, 14, 15))
    for entry in gone:
        assert got[entry.pk] == _session_expected(first, method)[entry.pk]
    if method == "matchpoints":
        # Not the average of the sessions' averages: the sessions have different deal counts.
        one, two = _session_expected(first, method), _session_expected(second, method)
        differs = [pk for pk in two if (one[pk][0] + two[pk][0]) / 2 != want[pk][0]]
        assert differs
    else:
        one, two = _session_expected(first, method), _session_expected(second, method)
        for pk in two:
            assert want[pk][0] == one[pk][0] + two[pk][0]


def _csv(client, event):
    response = client.get(f"/e/{event.slug}/results/standings.csv", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    text = response.content.decode("utf-8").lstrip("\ufeff")
    return list(csv.reader(io.StringIO(text), delimiter=";"))


@pytest.mark.parametrize("method", ["matchpoints", "points"])
def test_the_results_page_and_the_csv_show_the_event_and_each_session(
    client, event, director, method
):
    first, second = _two_sessions(event, director, method)
    Event.objects.filter(pk=event.pk).update(results_public=True)
    want = _expected([first, second], method)
    per_session = {1: _session_expected(first, method), 2: _session_expected(second, method)}
    number_of = dict(Entry.objects.filter(event=event).values_list("pk", "number"))

    page = client.get(f"/e/{event.slug}/results/", HTTP_ACCEPT_LANGUAGE="en")
    body = page.content.decode()
    assert page.status_code == 200
    assert 'id="standing-rule"' in body
    assert "in every session" in body
    for number in (1, 2):
        # An English page's links lead to English pages (config/locale.py).
        assert f'href="/en/e/{event.slug}/results/sessions/{number}/"' in body
    for total, _deals in want.values():
        assert f"{float(total):.2f}" in body
    # Each session's own page has its own standing.
    for number, session_want in per_session.items():
        session_page = client.get(
            f"/e/{event.slug}/results/sessions/{number}/", HTTP_ACCEPT_LANGUAGE="en"
        ).content.decode()
        for total, _deals in session_want.values():
            assert f"{float(total):.2f}" in session_page

    head, *lines = _csv(client, event)
    assert head[:7] == ["Place", "No.", "Player", "Club", "Total", "Deals", "Penalty"]
    assert head[7:] == [
        "Session 1: total",
        "Session 1: deals",
        "Session 2: total",
        "Session 2: deals",
    ]
    assert len(lines) == 15
    by_number = {int(line[1]): line for line in lines}
    for entry_id, (total, deals) in want.items():
        line = by_number[number_of[entry_id]]
        assert line[4] == f"{float(total):.2f}" and int(line[5]) == deals
        for number, column in ((1, 7), (2, 9)):
            found = per_session[number].get(entry_id)
            if found is None:
                assert line[column] == "" and line[column + 1] == ""
            else:
                assert line[column] == f"{float(found[0]):.2f}"
                assert int(line[column + 1]) == found[1]
    # Those who left after session 1 carry session 1 only.
    for number in (13, 14, 15):
        assert by_number[number][9:11] == ["", ""]
