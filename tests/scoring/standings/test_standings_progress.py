"""Standings mid-session (issue 21, finding 9; docs/game.md §4.4): the standings' headings say
how far the session is — «после тура 2 из 5» and «предварительно» while a round is still to
play, «итоговая» only once every round is over — and a player scored on few deals is marked
so that his figure does not read as the leader's; the ranking stays as it is. The progress is
read in one query, whatever the size of the event."""

import re

import pytest
from django.test import Client

from events import services as event_services
from events.models import Entry, Event, Round
from movements import planner
from movements.services import session_create
from scoring import standings
from scoring.sheets import services
from tests.factories import (
    THREE_DIAMONDS,
    deal_of,
    entry_at,
    finish,
    play_of,
    play_out,
    seat_players,
)

pytestmark = pytest.mark.django_db


def _publish(event):
    event_services.event_set_results_public(Event.objects.get(pk=event.pk), True)


def _page(path):
    response = Client().get(path, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def _h1(body):
    return " ".join(re.sub(r"<[^>]+>", " ", re.search(r"<h1>(.*?)</h1>", body, re.S)[1]).split())


def _rounds(session, *numbers):
    for number in numbers:
        finish(Round.objects.get(room__session=session, number=number))


def test_mid_session_the_standings_say_after_round_2_of_5_provisional(session15, director):
    event = session15.event
    _rounds(session15, 1, 2)
    play = play_of(session15, 1, 1)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    _publish(event)

    for path in (f"/e/{event.slug}/results/", f"/e/{event.slug}/results/sessions/1/"):
        heading = _h1(_page(path))
        assert "после тура 2 из 5" in heading and "предварительно" in heading, path
        assert "итоговая" not in heading, path


def test_before_any_round_is_over_the_standing_is_provisional(session15, director):
    event = session15.event
    play = play_of(session15, 1, 1)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    _publish(event)
    heading = _h1(_page(f"/e/{event.slug}/results/sessions/1/"))
    assert "предварительно" in heading and "ни один из 5 туров ещё не закончен" in heading


def test_once_every_round_is_over_the_standing_is_final(session15, director):
    event = session15.event
    play_out(session15)
    _publish(event)
    for path in (f"/e/{event.slug}/results/", f"/e/{event.slug}/results/sessions/1/"):
        heading = _h1(_page(path))
        assert "итоговая таблица" in heading and "предварительно" not in heading, path


def test_a_player_with_few_deals_is_marked_and_keeps_his_place(session15, director):
    event = session15.event
    one, two = play_of(session15, 1, 1), play_of(session15, 1, 2)
    for number in (1, 2, 3):
        services.sheet_record(one, deal_of(one, number), THREE_DIAMONDS, by_user=director)
    # Table 2 wrote one deal only: its players stand on 1 deal of the most 3.
    services.sheet_record(two, deal_of(two, 1), THREE_DIAMONDS, by_user=director)
    _publish(event)
    # The public totals count the deals played out only: none yet, nobody marked.
    assert "data-few-deals" not in _page(f"/e/{event.slug}/results/sessions/1/")
    play_out(session15)  # the other tables' rounds over and closed: every deal counts

    body = _page(f"/e/{event.slug}/results/sessions/1/")

    marked = re.findall(r'<tr class="few-deals" data-few-deals>(.*?)</tr>', body, re.S)
    names = {entry_at(two, p).full_name for p in "NES"}
    assert len(marked) == 3 and all(any(n in row for n in names) for row in marked)
    assert all("мало сдач" in row for row in marked)
    assert not any(entry_at(one, p).full_name in row for row in marked for p in "NES")
    assert 'id="few-deals"' in body and "(3)" in body[body.index('id="few-deals"') :]
    # The ranking is the standing's own: the page lists the rows in its order.
    rows = standings.session_standings(session15)
    shown = [m for m in re.findall(r'class="rank">([^<]*)</td>', body)]
    assert shown == [r.rank if r.deals else "—" for r in rows]


def test_the_few_deals_rule_is_half_the_most_not_the_leaders():
    from scoring.standings import StandingRow

    def row(number, deals, total):
        return StandingRow("1", Entry(pk=number, number=number), total, deals, 0, number=number)

    leader, steady, half = row(1, 1, 100), row(2, 10, 60), row(3, 5, 50)
    few = standings.few_deals([leader, steady, half])
    assert leader in few and steady not in few and half not in few and few.most == 10
    assert not standings.few_deals([row(4, 3, 50), row(5, 2, 40)])
    assert not standings.few_deals([row(6, 0, None), row(7, 0, None)])


def test_several_sessions_say_which_is_still_being_played(event, director):
    first = seat_players(event, 15)
    play_out(first)
    for number in (13, 14, 15):
        event_services.entry_withdraw(Entry.objects.get(event=event, number=number), confirmed=True)
    option = planner.plan(12).as_dict()["options"][0]
    second = session_create(Event.objects.get(pk=event.pk), option, number=2, rounds=3)
    finish(Round.objects.filter(room__session=second, number=1).order_by("room__number")[0])
    play = play_of(first, 1, 1)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    _publish(event)

    body = _page(f"/e/{event.slug}/results/")
    assert "предварительно" in _h1(body)
    line = re.search(r'<p[^>]*id="standing-progress"[^>]*>(.*?)</p>', body, re.S)[1]
    assert "Сессия 2" in line and "Сессия 1" not in line
    assert "итоговая таблица" in _h1(_page(f"/e/{event.slug}/results/sessions/1/"))
    assert "предварительно" in _h1(_page(f"/e/{event.slug}/results/sessions/2/"))


def test_rooms_of_different_lengths_and_a_session_without_rounds():
    from scoring.console import progress

    assert progress.session_progress([(11, 2), (11, 3)], 1) == progress.SessionProgress(1, 2, 11)
    # The shorter room is done with the session once its own rounds are over.
    assert progress.session_progress([(11, 10), (9, 9)], 1).done == 10
    assert progress.session_progress([(11, 11), (9, 9)], 1).final
    assert not progress.session_progress([], 1).final


def test_the_progress_is_one_query_whatever_the_event(
    event, director, other_director, django_assert_num_queries
):
    from scoring.console import progress

    small = seat_players(event, 15)
    big_event = event_services.event_create(owner=other_director, name="Большой", date="2026-12-07")
    big = seat_players(big_event, 33)
    _rounds(small, 1)
    _rounds(big, 1, 2)
    event, big_event = Event.objects.get(pk=event.pk), Event.objects.get(pk=big_event.pk)
    with django_assert_num_queries(1):
        found = progress.event_progress(event)
    with django_assert_num_queries(1):
        found_big = progress.event_progress(big_event)
    assert found.of(1) == progress.SessionProgress(1, 1, 5)
    assert found_big.of(1).done == 2 and not found_big.final


def test_a_public_page_that_shows_no_standing_reads_no_progress(
    session15, director, django_assert_num_queries
):
    from scoring.standings.public_access import base_context

    event = Event.objects.get(pk=session15.event_id)
    with django_assert_num_queries(1):  # the sessions, as before: the progress is lazy
        context = base_context(event, False)
    with django_assert_num_queries(1):
        assert context["progress"].final is False
