"""The one rule of what anyone sees of a deal (scoring.standings.disclosure, docs/game.md §4.5): its
cards, talon, analysis and the other tables' results only once every table that plays it
is done with it; a session's seed once every deal of it is; the director always."""

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from events import rounds
from events.models import Deal, Round, Session
from events.services import event_set_results_public
from movements import seating
from movements.services import session_create
from scoring.models import Adjustment, DealsShown, TablePlay
from scoring.sheets import services
from scoring.standings import disclosure
from tests.factories import THREE_DIAMONDS, deal_of, finish, play_of, play_out, seat_players
from tests.public_pages import deal_urls, public_urls

pytestmark = pytest.mark.django_db


def _shown(session) -> set[int]:
    return set(disclosure.session_disclosure(session).shown)


def _plays_of_set(play):
    return list(
        TablePlay.objects.filter(board_set=play.board_set)
        .select_related("round__room__session__event", "table", "board_set")
        .order_by("round__number")
    )


def test_a_deal_is_shown_once_every_table_that_plays_it_wrote_its_sheet(session15, director):
    plays = _plays_of_set(play_of(session15, 1, 1))
    assert len(plays) == 5  # the prime movement: one table a round plays each set
    deal = deal_of(plays[0], 1)
    assert _shown(session15) == set()
    for play in plays[:-1]:
        services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    assert _shown(session15) == set()  # the round-5 table has still to play it
    services.sheet_record(plays[-1], deal_of(plays[-1], 1), THREE_DIAMONDS, by_user=director)
    assert _shown(session15) == {deal.pk}  # deal 2 and 3 of that set: not yet
    assert not disclosure.session_disclosure(session15).complete


def test_an_artificial_score_at_a_table_counts_as_its_play(session15, director):
    plays = _plays_of_set(play_of(session15, 1, 1))
    deal = deal_of(plays[0], 2)
    for play in plays[:-1]:
        services.sheet_record(play, deal_of(play, 2), THREE_DIAMONDS, by_user=director)
    last = plays[-1]
    seat = last.round.placements.filter(table=last.table, position="N").get()
    services.adjustment_create(
        last,
        entry=seat.entry,
        deal=deal_of(last, 2),
        kind=Adjustment.Kind.ARTIFICIAL,
        score=Adjustment.Score.AVERAGE,
        reason="не успели",
        by_user=director,
    )
    assert _shown(session15) == {deal.pk}


def test_a_round_is_done_once_its_next_round_starts_and_the_last_once_closed(session15, director):
    room_rounds = list(Round.objects.filter(room__session=session15).order_by("number"))
    for rnd in room_rounds:
        finish(rnd)
    # Every round over, none written: rounds 1–4 are done (their next round started), but
    # the last round's tables may still write theirs until the director closes it.
    assert _shown(session15) == set()
    services.round_access_set(room_rounds[-1], TablePlay.Access.CLOSED, by_user=director)
    found = disclosure.session_disclosure(session15)
    assert found.count == found.total == 15 and found.complete
    # Opened again for one table: its deals are hidden again until it is done.
    play = play_of(session15, 5, 1)
    services.play_access_set(play, TablePlay.Access.OPEN, by_user=director)
    assert len(_shown(session15)) == 12


def test_the_director_may_show_the_session_and_no_one_else_may(session15, director, other_director):
    with pytest.raises(PermissionDenied):
        disclosure.deals_show(session15, by_user=other_director)
    assert not DealsShown.objects.exists()
    disclosure.deals_show(session15, by_user=director)
    found = disclosure.session_disclosure(session15)
    assert found.complete and found.by_director


def test_the_director_sees_every_deal_and_the_public_the_played_out(
    director_client, session15, director
):
    client = Client()  # an anonymous phone beside the director's laptop
    event = session15.event
    event_set_results_public(event, True)
    deal = deal_of(play_of(session15, 1, 1), 1)
    url = reverse("public:traveller", args=[event.slug, deal.pk])
    assert client.get(url).status_code == 403
    # The public address shows the director what the public sees; his own view is behind
    # the switch (?view=director), marked, and kept by no browser or proxy.
    public = director_client.get(url)
    assert public.status_code == 403
    assert f'href="{url}?view=director"' in public.content.decode()  # his switch
    own = director_client.get(f"{url}?view=director")
    body = own.content.decode()
    assert own.status_code == 200 and 'id="traveller"' in body
    assert 'class="preview-banner director-view"' in body
    assert "no-store" in own["Cache-Control"]


def test_the_overview_counts_and_the_show_action_needs_its_box_ticked(
    director_client, other_client, session15
):
    client = Client()
    event = session15.event
    overview = director_client.get(reverse("director:overview", args=[event.pk]))
    body = overview.content.decode()
    assert 'id="publish-rule"' in body
    assert "Сессия 1: сыграно до конца сдач — 0 из 15" in body
    url = reverse("director:deals_show", args=[event.pk, session15.number])
    assert client.post(url, {"confirm": "1"}).status_code == 302  # to the login page
    assert other_client.post(url, {"confirm": "1"}).status_code == 404
    assert not DealsShown.objects.exists()
    answer = director_client.post(url, {}, follow=True)
    assert "Отметьте флажок" in answer.content.decode() and not DealsShown.objects.exists()
    director_client.post(url, {"confirm": "1"})
    assert DealsShown.objects.filter(session=session15).exists()
    body = director_client.get(reverse("director:overview", args=[event.pk])).content.decode()
    assert "15 из 15" in body and "открыты вами" in body


def test_publishing_says_what_is_public_now_and_what_later(director_client, session15):
    event = session15.event
    answer = director_client.post(
        reverse("director:publish", args=[event.pk]), {"public": "1"}, follow=True
    )
    text = answer.content.decode()
    assert "Ни одна сдача ещё не сыграна до конца" in text and "зерно раздачи" in text
    play_out(session15)
    answer = director_client.post(
        reverse("director:publish", args=[event.pk]), {"public": "1"}, follow=True
    )
    assert "Из 15 сдач сыграно до конца 15" in answer.content.decode()


def test_the_rule_reads_a_fixed_number_of_queries_whatever_the_session(
    event, django_assert_num_queries, director
):
    small = seat_players(event, 15)
    with django_assert_num_queries(6):
        disclosure._build(small.pk)
    from events.models import Event

    bigger = seat_players(
        Event.objects.create(name="Большой", date=event.date, owner=director), 20, seats=4
    )
    with django_assert_num_queries(6):
        disclosure._build(bigger.pk)
    # Read again with nothing changed: from the cache, after two small reads.
    disclosure.session_disclosure(small)
    with django_assert_num_queries(2):
        disclosure.session_disclosure(small)


# --- a published session 1 and a dealt, unplayed session 2 (issue 21, finding 1) ---------


@pytest.fixture
def two_sessions(event, director):
    first = seat_players(event, 15, dealing="app")
    play_out(first)
    event_set_results_public(event, True)
    option = seating.event_plan(event)["options"][0]
    second = session_create(event, option, number=2, dealing="app")
    return first, Session.objects.get(pk=second.pk)


def _public_urls(event, session) -> list[str]:
    deals = Deal.objects.filter(board_set__session=session)
    return public_urls(event, session) + [u for d in deals for u in deal_urls(event, d)]


def test_a_later_sessions_cards_and_seed_are_nowhere_before_it_is_played(client, two_sessions):
    first, second = two_sessions
    event = second.event
    later = list(Deal.objects.filter(board_set__session=second))
    assert later and all(d.cards for d in later)
    ppns = {d.cards for d in later}
    for url in _public_urls(event, second) + _public_urls(event, first):
        answer = client.get(url)
        assert answer.status_code in (200, 403), url
        body = answer.content.decode("utf-8-sig", errors="replace")  # XLSX is binary
        assert second.deal_seed not in body, url
        assert not any(ppn in body for ppn in ppns), url
        if "/sessions/2/" in url:
            assert "hand-record" not in body, url
    # Session 1, played out, shows its seed and its hand records; session 2 links neither.
    page = client.get(reverse("public:session", args=[event.slug, 2])).content.decode()
    assert 'id="hand-records-links"' not in page and 'id="seed-later"' in page
    assert not re.search(r"/results/deals/\d+/", page)
    hands = client.get(reverse("public:session_hands", args=[event.slug, 2])).content.decode()
    assert 'id="hands-in-play"' in hands and "15 сдач ещё играются" in hands
    first_page = client.get(reverse("public:session", args=[event.slug, 1])).content.decode()

    assert first.deal_seed in first_page and 'id="hand-records-links"' in first_page


def test_the_round_of_session_2_once_started_does_not_show_its_deals(client, two_sessions):
    _first, second = two_sessions
    rnd = Round.objects.get(room__session=second, room__number=1, number=1)
    rounds.round_start(rnd)
    assert _shown(second) == set()
