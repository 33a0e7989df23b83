"""The player's seat fragment (/p/<key>/places) that hundreds of phones poll: a fixed number
of queries whatever the number of tables and rounds, and what it shows stays right — a save
shows on the next read, the open sheets follow the rule, the place is the standing's."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from events import rounds
from events import services as event_services
from events.models import Entry, Round, Seat
from scoring import standings
from scoring.models import TablePlay
from scoring.player import page as player_page
from scoring.sheets import services
from scoring.standings import disclosure
from tests.factories import (
    THREE_DIAMONDS,
    deal_of,
    play_of,
    round_link,
    seat_players,
    wait_until,
)

pytestmark = pytest.mark.django_db

# What a phone reads after a change: entry, the rooms of his sessions (after a change of the
# seating only), room, rounds, seats, sets, open sheets, played deals; once published also
# the sessions, their cache check (2), his figures, the totals, the round penalties and the
# substitutions; and which deals are played out (scoring.standings.disclosure: the session's rooms and
# the director's mark, then the rule's six queries after a change) with the totals over
# those deals alone (the cache check again (2), the played-out deals' figures, the session's
# players), as the public standing counts them (docs/game.md §4.4–4.5). Once published the
# fragment is kept under the public results' version (scoring.standings.public_cache), whose digest the
# first reader after a change builds for everyone (the event and its rooms (2), then per
# session its cache check (2), the played-out deals' figures, their sheets, the deal
# versions, the round penalties): a sheet of a deal in play elsewhere then changes no phone's
# fragment. One more for a replaced player (who replaced him). Until the next change the
# fragment comes from the cache: the entry alone.
UNPUBLISHED_MAX = 9
PUBLISHED_MAX = 36
CACHED_MAX = 1


def _event_day(event, director, players, rounds_count):
    """Round 1 running and every table's deal 1 entered, then (for the open sheets) ended."""
    session = seat_players(event, players, rounds=rounds_count)
    first = Round.objects.get(room__session=session, number=1)
    rounds.round_start(first)
    for play in TablePlay.objects.filter(round=first).select_related("board_set"):
        services.sheet_record(
            play, play.board_set.deals.get(number=1), THREE_DIAMONDS, by_user=director
        )
    return session


def _fragment_queries(client, entry) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(f"/p/{entry.key}/places")
    assert response.status_code == 200
    return len(captured)


def _play_out_deal(play, number, director, data=THREE_DIAMONDS):
    """The director writes deal ``number`` of ``play``'s set at every table that holds the
    set (confirming a table's own sheet of the same result): the deal is played out, and
    counts in the public totals and places (scoring.standings.disclosure)."""
    for other in TablePlay.objects.filter(board_set=play.board_set).select_related("board_set"):
        services.sheet_record(other, deal_of(other, number), data, by_user=director)


def _north_of_table_1(session):
    return Seat.objects.get(
        round__room__session=session, round__number=1, table__number=1, position="N"
    ).entry


@pytest.mark.parametrize("published", [False, True], ids=["unpublished", "published"])
def test_the_seat_fragment_reads_as_much_for_a_long_session_of_many_tables_as_for_a_short_one(
    client, director, event, published, django_assert_max_num_queries
):
    other = event_services.event_create(owner=director, name="Большой", date="2026-12-05")
    small = _event_day(event, director, 15, 5)  # 5 tables, 5 rounds
    large = _event_day(other, director, 39, None)  # 13 tables, all 13 rounds
    counts = {}
    for session in (small, large):
        session.event.results_public = published
        session.event.save()
        standings.session_refresh(session)  # as the saves' on-commit recompute does
        entry = _north_of_table_1(session)
        most = PUBLISHED_MAX if published else UNPUBLISHED_MAX
        with django_assert_max_num_queries(most):
            during = _fragment_queries(client, entry)
        with django_assert_max_num_queries(CACHED_MAX):
            during_again = _fragment_queries(client, entry)
        rounds.round_end_now(Round.objects.get(room__session=session, number=1))
        with django_assert_max_num_queries(most):
            after = _fragment_queries(client, entry)
        with django_assert_max_num_queries(CACHED_MAX):
            after_again = _fragment_queries(client, entry)
        counts[session.pk] = (during, during_again, after, after_again)
    assert counts[small.pk] == counts[large.pk]


def test_the_phone_page_reads_the_same_few_queries_as_its_fragment(
    client, director, event, django_assert_max_num_queries
):
    session = _event_day(event, director, 15, 5)
    entry = _north_of_table_1(session)
    # One more than its fragment while he sits at a table in a round on the clock: the
    # table's «Позвать судью» state (events.calls.table_call_doc), read once per change of the
    # table's token, then from the cache.
    with django_assert_max_num_queries(UNPUBLISHED_MAX + 1):
        assert client.get(f"/p/{entry.key}/").status_code == 200


def test_a_saved_sheet_shows_on_the_players_next_fragment(client, director, session15):
    rounds.round_start(Round.objects.get(room__session=session15, number=1))
    play = play_of(session15, 1, 1)
    north = Seat.objects.get(round=play.round, table=play.table, position="N").entry
    assert ">70</td>" not in client.get(f"/p/{north.key}/places").content.decode()
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_entry=north)
    body = client.get(f"/p/{north.key}/places").content.decode()
    assert "1.1 <small" in body and ">70</td>" in body
    event = session15.event
    event.results_public = True
    event.save()
    # Published, but the deal is still to be played at other tables: no figure, no place.
    body = client.get(f"/p/{north.key}/places").content.decode()
    assert ">70</td>" in body and "50.00" not in body and "Место " not in body
    _play_out_deal(play, 1, director)
    assert "50.00" in client.get(f"/p/{north.key}/places").content.decode()
    # Published: his next deal's figure shows on the very next read as well — the read
    # after the save that plays it out at the last table.
    services.sheet_record(play, deal_of(play, 2), THREE_DIAMONDS, by_user=director)
    body = client.get(f"/p/{north.key}/places").content.decode()
    assert "1.2 <small" in body and body.count(">50.00</td>") == 1
    _play_out_deal(play, 2, director)
    body = client.get(f"/p/{north.key}/places").content.decode()
    assert "1.2 <small" in body and body.count(">50.00</td>") == 2
    assert "по 2 сдачам" in body


def _his_plays_by_the_rule(entry):
    plays = TablePlay.objects.filter(
        round__placements__entry=entry, round__placements__table__isnull=False
    ).select_related("round", "table")
    mine = [
        p
        for p in plays
        if Seat.objects.filter(round=p.round, table=p.table, entry=entry).exists()
        and p.round.state == Round.State.FINISHED
        and services.players_access(p).open
    ]
    return sorted(p.pk for p in mine)


def test_the_open_sheets_are_those_the_rule_opens_in_every_state_of_the_round(director, event):
    session = seat_players(event, 15, rounds=2)
    entry = _north_of_table_1(session)
    first, second = Round.objects.filter(room__session=session).order_by("number")

    def check():
        found = sorted(p.pk for p in services.entry_open_plays(entry))
        assert found == _his_plays_by_the_rule(entry)
        return len(found)

    assert check() == 0  # nothing played yet
    rounds.round_start(first)
    assert check() == 0  # on the clock: his table page, not the open-sheets link
    rounds.round_end_now(first)
    assert check() == 1  # after «Конец тура!», until round 2 starts
    rounds.round_start(second)
    assert check() == 0
    his_first = TablePlay.objects.get(
        round=first, table=Seat.objects.get(round=first, entry=entry).table
    )
    services.play_access_set(his_first, "open", by_user=director)
    assert check() == 1  # the director opened it again
    rounds.round_end_now(second)
    assert check() == 2  # the last round stays open until the director closes it
    his_second = TablePlay.objects.get(
        round=second, table=Seat.objects.get(round=second, entry=entry).table
    )
    services.play_access_set(his_second, "closed", by_user=director)
    assert check() == 1


def test_the_place_on_the_phone_is_the_row_of_the_session_standing(client, director, session15):
    from movements.services import seat_substitute

    event = session15.event
    rounds.round_start(Round.objects.get(room__session=session15, number=1))
    for table, tricks in [(1, 7), (2, 8), (3, 7), (4, 6), (5, 8)]:
        play = play_of(session15, 1, table)
        data = dict(THREE_DIAMONDS, tricks={"N": tricks, "E": 10 - tricks})
        services.sheet_record(play, deal_of(play, 1), data, by_user=director)
    late = event_services.entry_create(event, last_name="Поздний", first_name="П")
    leaving = Entry.objects.get(event=event, number=7)
    seat_substitute(session15, leaving=leaving, arriving=late, from_round=2)
    # Deal 1 of table 2's set played out: the director writes it, a different result each
    # time, at the other tables that hold the set (later rounds); the other sets' deal 1 is
    # still to be played elsewhere: the public counts deal 2.1 only.
    second = play_of(session15, 1, 2)
    later = TablePlay.objects.filter(board_set=second.board_set).exclude(pk=second.pk)
    for tricks, play in zip((5, 6, 7, 9), later.select_related("board_set"), strict=True):
        data = dict(THREE_DIAMONDS, tricks={"N": tricks, "E": 10 - tricks})
        services.sheet_record(play, deal_of(play, 1), data, by_user=director)
    standings.session_refresh(session15)
    rows = standings.session_standings(session15)
    public = disclosure.Viewer(event, director=False)
    public_rows = standings.session_standings(session15, public)
    counted = public.counts(session15)
    assert counted is not None and counted.count == 1
    for entry in [*Entry.objects.filter(event=event).exclude(pk=late.pk), late]:
        entry.refresh_from_db()
        place = standings.session_place(entry, session15)
        row = next((r for r in rows if entry.pk in r.entry_ids), None)
        assert (place.rank, place.shown, place.deals) == (row.rank, row.shown, row.deals)
        # The place his phone shows: the row of the public standing.
        place = standings.session_place(entry, session15, counted)
        row = next((r for r in public_rows if entry.pk in r.entry_ids), None)
        if row is None or not row.deals:
            assert place is None or not place.deals
        else:
            assert (place.rank, place.shown, place.deals) == (row.rank, row.shown, row.deals)
    event.results_public = True
    event.save()
    table = play_of(session15, 1, 2).round.placements
    north = Entry.objects.get(pk=table.get(table__number=2, position="N").entry_id)
    row = next(r for r in public_rows if north.pk in r.entry_ids)
    assert row.deals == 1 and row.rank != "1–15"
    assert sorted(r.deals for r in public_rows) != sorted(r.deals for r in rows)
    body = client.get(f"/p/{north.key}/").content.decode()
    assert f"Место {row.rank}: {row.shown} по {row.deals} сдачам" in body


def test_the_fragment_from_the_cache_follows_every_change_it_shows(client, director, session15):
    event = session15.event
    first = Round.objects.get(room__session=session15, number=1)
    play = play_of(session15, 1, 1)
    east = Seat.objects.get(round=first, table=play.table, position="E").entry
    url = f"/p/{east.key}/places"

    def fragment():
        client.get(url)  # the second read is the cached one: both must be right
        return client.get(url).content.decode()

    assert "Следующий тур 1: идите" in fragment()
    rounds.round_start(first)
    assert "Сейчас — тур 1" in fragment()
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_entry=east)
    assert ">30</td>" in fragment()  # E whisted and took 3
    rounds.round_end_now(first)
    assert round_link(play) in fragment()  # his table may still write
    services.play_access_set(play, "closed", by_user=director)
    assert round_link(play) not in fragment()
    event_services.event_set_results_public(event, True)
    assert "Место " not in fragment()  # his deal is still to be played at other tables
    _play_out_deal(play, 1, director)  # … now it is played out: the public counts it
    assert "Место " in fragment()
    event_services.event_set_results_public(event, False)
    assert "Место " not in fragment()
    assert "Затем — тур 3" in fragment()
    rounds.round_start(Round.objects.get(room__session=session15, number=2))
    assert "Сейчас — тур 2" in fragment()
    with translation.override(None):  # the request switches the thread to English: undo
        english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Now — round 2" in english and "Сейчас" not in english


def test_another_tables_save_leaves_a_players_fragment_in_the_cache(client, director, session15):
    """Before publishing a phone shows only his own tables' sheets: a save at another table
    (100 of them in the hall's busy minute) must not make 400 phones build theirs again."""
    first = Round.objects.get(room__session=session15, number=1)
    rounds.round_start(first)
    mine, other = play_of(session15, 1, 1), play_of(session15, 1, 2)
    north = Seat.objects.get(round=first, table=mine.table, position="N").entry
    client.get(f"/p/{north.key}/places")
    cached = _fragment_queries(client, north)
    services.sheet_record(other, deal_of(other, 1), THREE_DIAMONDS, by_user=director)
    assert _fragment_queries(client, north) == cached  # still from the cache
    services.sheet_record(mine, deal_of(mine, 1), THREE_DIAMONDS, by_user=director)
    assert _fragment_queries(client, north) > cached  # his own table: built again
    assert _fragment_queries(client, north) == cached


def test_the_worker_builds_the_fragments_a_save_changed_in_the_language_each_phone_reads(
    client, director, session15, django_assert_max_num_queries
):
    """After a save the worker builds the fragments of the table's phones (those that have
    asked, in their language): their next poll reads the entry alone and shows the save."""
    rounds.round_start(Round.objects.get(room__session=session15, number=1))
    play = play_of(session15, 1, 1)
    seats = {s.position: s.entry for s in Seat.objects.filter(round=play.round, table=play.table)}
    north, east = seats["N"], seats["E"]
    assert client.get(f"/p/{north.key}/places", HTTP_ACCEPT_LANGUAGE="ru").status_code == 200
    assert client.get(f"/p/{east.key}/places", HTTP_ACCEPT_LANGUAGE="en").status_code == 200
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_entry=north)
    # The third player's phone never asked: nothing is built for it.
    assert player_page.fragments_build([s.pk for s in seats.values()]) == 2
    with django_assert_max_num_queries(CACHED_MAX):
        body = client.get(f"/p/{north.key}/places", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "1.1 <small" in body and "тур 1" in body
    with django_assert_max_num_queries(CACHED_MAX):
        body = client.get(f"/p/{east.key}/places", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1.1 <small" in body and "round 1" in body


def test_after_the_rounds_end_the_worker_builds_the_fragment_of_every_phone_of_the_session(
    client, director, session15, django_assert_max_num_queries
):
    """The round's end makes every fragment of the session stale at once (the hall's phones
    then fetch them together, or all together after an outage in which it ended): the
    worker builds the fragment of each phone that has asked, in every room of the session,
    so the phones' next fetch reads the entry alone and shows the end."""
    first = Round.objects.get(room__session=session15, number=1)
    rounds.round_start(first)
    asked = list(Seat.objects.filter(round=first).select_related("entry")[:3])
    for seat in asked:
        body = client.get(f"/p/{seat.entry.key}/places").content.decode()
        assert 'data-round="1" data-state="running"' in body
    rounds.round_end_now(Round.objects.get(pk=first.pk))
    # The three phones that asked, not the ones that never did.
    assert player_page.room_fragments_build(first.room_id) == 3
    for seat in asked:
        with django_assert_max_num_queries(CACHED_MAX):
            body = client.get(f"/p/{seat.entry.key}/places").content.decode()
        assert 'data-round="" data-state="" data-upcoming="2"' in body  # round 2 next


@pytest.mark.django_db(transaction=True)
def test_a_round_end_queues_the_build_and_the_worker_does_it(client, event, celery_worker_process):
    """Through the broker: the end committed, the worker finds the task queued by the clock
    change and leaves the fragment in the shared cache before the phone asks again."""
    session = seat_players(event, 15, rounds=2)
    first = Round.objects.get(room__session=session, number=1)
    rounds.round_start(first)
    entry = Seat.objects.filter(round=first).select_related("entry").first().entry
    assert client.get(f"/p/{entry.key}/places").status_code == 200
    rounds.round_end_now(Round.objects.get(pk=first.pk))
    entry = Entry.objects.select_related("event").get(pk=entry.pk)
    key, _ = player_page._fragment_key(entry)
    wait_until(lambda: cache.get(key) is not None, timeout=30)
    assert 'data-upcoming="2"' in cache.get(key)


def test_once_published_a_sheet_of_a_deal_in_play_elsewhere_leaves_his_fragment_as_it_is(
    client, director, event, django_assert_max_num_queries
):
    """The hall's phones are not all rebuilt by every sheet saved in the hall: once
    published, a player's fragment is kept under the public results' version, which a sheet
    of a deal still in play at other tables does not change (issue 36)."""
    session = _event_day(event, director, 15, 5)
    event.results_public = True
    event.save()
    standings.session_refresh(session)
    entry = _north_of_table_1(session)
    before = client.get(f"/p/{entry.key}/places").content
    play = (
        TablePlay.objects.filter(round__room__session=session, round__number=1)
        .exclude(table__number=1)
        .select_related("board_set")
        .first()
    )
    services.sheet_record(play, deal_of(play, 2), THREE_DIAMONDS, by_user=director)
    assert client.get(f"/e/{event.slug}/results/version.json").status_code == 200  # a reader
    with django_assert_max_num_queries(CACHED_MAX):
        assert client.get(f"/p/{entry.key}/places").content == before
