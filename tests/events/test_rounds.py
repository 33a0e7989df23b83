"""The round lifecycle as services, with explicit instants (no worker needed)."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from events import announcements, rounds
from events.models import Announcement, Round
from scoring.models import TablePlay

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("en")]


def _round(session, number=1):
    return Round.objects.get(room__session=session, number=number)


def test_start_sets_the_end_from_deals_and_minutes_per_deal(session15):
    rnd = rounds.round_start(_round(session15))
    assert rnd.state == "running"
    assert rnd.ends_at - rnd.started_at == timedelta(minutes=15)  # 3 deals × 5 minutes
    start = Announcement.objects.get(round=rnd)
    assert start.kind == "start" and announcements.headline(start) == "Round start!"


def test_rounds_start_in_order_and_one_at_a_time(session15):
    with pytest.raises(ValidationError, match="Earlier rounds"):
        rounds.round_start(_round(session15, 2))
    rounds.round_start(_round(session15, 1))
    with pytest.raises(ValidationError, match="already started"):
        rounds.round_start(_round(session15, 1))
    with pytest.raises(ValidationError, match="still on the clock"):
        rounds.round_start(_round(session15, 2))


def test_a_task_before_the_end_does_nothing_and_after_it_fires_once(session15):
    rnd = rounds.round_start(_round(session15), length_seconds=60)
    assert not rounds.round_fire_end(rnd.pk, now=rnd.ends_at - timedelta(seconds=1))
    assert rounds.round_fire_end(rnd.pk, now=rnd.ends_at)
    assert not rounds.round_fire_end(rnd.pk, now=rnd.ends_at + timedelta(seconds=5))
    assert Announcement.objects.filter(round=rnd, kind="end").count() == 1
    assert Round.objects.get(pk=rnd.pk).state == "finished"


def test_the_end_tells_each_lines_move_and_where_the_sets_go(session15):
    rnd = rounds.round_start(_round(session15), length_seconds=60)
    rounds.round_fire_end(rnd.pk, now=rnd.ends_at)
    end = Announcement.objects.get(round=rnd, kind="end")
    assert end.data["lines"] == [
        {"line": "N", "tables": 0},
        {"line": "E", "tables": 1},
        {"line": "S", "tables": 2},
    ]
    assert end.data["sets"] == {"1": [5], "2": [1], "3": [2], "4": [3], "5": [4]}
    text = announcements.details(end)
    assert "N stay at their tables" in text and "E move 1 table up" in text
    assert "table numbered one lower" in text
    assert end.due_at == rnd.ends_at


def test_the_end_marks_tables_that_have_not_recorded_every_deal(session15):
    rnd = rounds.round_start(_round(session15), length_seconds=60)
    rounds.round_fire_end(rnd.pk, now=rnd.ends_at)
    assert TablePlay.objects.filter(round=rnd, late=True).count() == 5


def test_pause_keeps_the_remaining_time_and_a_stale_task_does_nothing(session15):
    rnd = rounds.round_start(_round(session15), length_seconds=60)
    old_end = rnd.ends_at
    rnd = rounds.round_pause(rnd)
    assert rnd.state == "paused" and rnd.ends_at is None
    assert timedelta(seconds=58) < rnd.paused_remaining <= timedelta(seconds=60)
    assert not rounds.round_fire_end(rnd.pk, now=old_end + timedelta(seconds=1))
    rnd = rounds.round_resume(rnd)
    assert rnd.state == "running" and rnd.ends_at > timezone.now() + timedelta(seconds=55)
    assert not rounds.round_fire_end(rnd.pk, now=old_end)


def test_extension_moves_the_end_and_the_old_time_fires_nothing(session15):
    rnd = rounds.round_start(_round(session15), length_seconds=60)
    old_end = rnd.ends_at
    rnd = rounds.round_adjust(rnd, seconds=120)
    assert rnd.ends_at == old_end + timedelta(seconds=120)
    assert not rounds.round_fire_end(rnd.pk, now=old_end)
    assert rounds.round_fire_end(rnd.pk, now=rnd.ends_at)


def test_taking_off_time_never_ends_the_round_in_the_past(session15):
    rnd = rounds.round_start(_round(session15), length_seconds=60)
    rnd = rounds.round_adjust(rnd, seconds=-600)
    assert rnd.ends_at > timezone.now()


def test_bad_clock_actions_are_refused(session15):
    rnd = _round(session15)
    with pytest.raises(ValidationError, match="Only a running round"):
        rounds.round_pause(rnd)
    with pytest.raises(ValidationError, match="Only a paused round"):
        rounds.round_resume(rnd)
    with pytest.raises(ValidationError, match="only while the round is on the clock"):
        rounds.round_adjust(rnd, seconds=60)
    with pytest.raises(ValidationError):
        rounds.round_adjust(rnd, seconds=0)
    with pytest.raises(ValidationError, match="1 second to 4 hours"):
        rounds.round_start(rnd, length_seconds=0)
    assert Round.objects.get(pk=rnd.pk).state == "pending"


def test_end_now_fires_at_once(session15):
    rnd = rounds.round_start(_round(session15))
    rnd = rounds.round_end_now(rnd)
    assert rnd.state == "finished"
    assert Announcement.objects.filter(round=rnd, kind="end").count() == 1
    with pytest.raises(ValidationError):
        rounds.round_end_now(rnd)


def test_the_warning_fires_once_in_its_window(session15):
    event = session15.event
    rnd = rounds.round_start(_round(session15))  # 15 minutes, warning at 5
    early = rnd.ends_at - timedelta(minutes=6)
    assert not rounds.round_fire_warning(rnd.pk, now=early)
    at = rnd.ends_at - timedelta(minutes=5)
    assert rounds.round_fire_warning(rnd.pk, now=at)
    assert not rounds.round_fire_warning(rnd.pk, now=at + timedelta(seconds=1))
    warning = Announcement.objects.get(round=rnd, kind="warning")
    assert announcements.headline(warning) == "5 minutes left"
    event.warning_minutes = 0
    event.save()
    assert not rounds.round_fire_warning(rnd.pk, now=at)


def test_the_sweep_fires_what_is_overdue_exactly_once(session15):
    rnd = rounds.round_start(_round(session15), length_seconds=60)
    assert rounds.clock_sweep(now=rnd.ends_at - timedelta(minutes=2))["end"] == 0
    later = rnd.ends_at + timedelta(seconds=30)
    assert rounds.clock_sweep(now=later)["end"] == 1
    assert rounds.clock_sweep(now=later)["end"] == 0
    assert Announcement.objects.filter(round=rnd, kind="end").count() == 1


def test_the_next_round_starts_by_itself_after_the_changeover(session15):
    event = session15.event
    event.changeover_minutes = 2
    event.save()
    rnd = rounds.round_start(_round(session15), length_seconds=60)
    rounds.round_fire_end(rnd.pk, now=rnd.ends_at)
    following = _round(session15, 2)
    assert following.auto_start_at == rnd.ends_at + timedelta(minutes=2)
    assert not rounds.round_fire_auto_start(
        following.pk, now=following.auto_start_at - timedelta(seconds=1)
    )
    assert rounds.round_fire_auto_start(following.pk, now=following.auto_start_at)
    assert Round.objects.get(pk=following.pk).state == "running"
    assert not rounds.round_fire_auto_start(following.pk, now=following.auto_start_at)


def test_the_last_round_says_so(session15):
    for n in range(1, 6):
        rnd = rounds.round_start(_round(session15, n), length_seconds=60)
        rounds.round_fire_end(rnd.pk, now=rnd.ends_at)
    last = Announcement.objects.get(round__number=5, kind="end")
    assert "last round of the session" in announcements.details(last)


def test_the_room_page_lists_announcements_with_their_lag(director_client, session15):
    rnd = rounds.round_start(_round(session15), length_seconds=60)
    rounds.round_fire_end(rnd.pk, now=rnd.ends_at + timedelta(milliseconds=250))
    room = session15.rooms.get()
    page = director_client.get(f"/director/events/{session15.event.pk}/rooms/{room.pk}/")
    body = page.content.decode()
    assert page.status_code == 200
    assert "Конец тура!" in body and "Начало тура!" in body
    assert "0,250" in body  # seconds late, Russian decimal comma
    # The clock's state is in the reader's language from the first paint, not only once the
    # script has run.
    state = body.split("data-state-label", 1)[1].split("</span>", 1)[0].rsplit(">", 1)[1]
    assert state == "окончен"


def test_clock_actions_belong_to_the_events_director(other_client, client, session15):
    rnd = _round(session15)
    url = f"/director/events/{session15.event.pk}/rounds/{rnd.pk}/start/"
    assert other_client.post(url).status_code == 404
    client.logout()
    assert client.post(url).status_code == 302
    assert Round.objects.get(pk=rnd.pk).state == "pending"


def test_a_bad_clock_action_is_refused_on_the_page_with_the_input_kept(director_client, session15):
    rnd = rounds.round_start(_round(session15), length_seconds=60)
    url = f"/director/events/{session15.event.pk}/rounds/{rnd.pk}/adjust/"
    page = director_client.post(url, {"minutes": "пять"})
    assert page.status_code == 400
    body = page.content.decode()
    assert "должно быть целое число, а не «пять»" in body and 'value="пять"' in body
    assert (
        director_client.post(
            f"/director/events/{session15.event.pk}/rounds/{rnd.pk}/fly/"
        ).status_code
        == 404
    )


def test_a_round_shorter_than_the_warning_window_gets_no_warning(session15):
    rnd = rounds.round_start(_round(session15), length_seconds=180)  # 3 min, warning at 5
    assert not rounds.round_fire_warning(rnd.pk, now=rnd.started_at)
    assert rounds.clock_sweep(now=rnd.started_at + timedelta(seconds=1))["warning"] == 0
    assert not Announcement.objects.filter(round=rnd, kind="warning").exists()


def test_the_rooms_current_round_in_two_one_row_queries_is_the_clocks_rule(
    session15, django_assert_num_queries
):
    """``room_current_round`` reads one row, and one more for the round that follows it (who
    may still write a finished round asks it); it answers as ``clock.current_round`` over all
    the room's rounds in every state the room goes through."""
    from events import clock

    room = session15.rooms.get()
    first, second = list(room.rounds.order_by("number"))[:2]

    def both():
        with django_assert_num_queries(2):
            one = rounds.room_current_round(room)
        later = list(room.rounds.filter(number__gt=one.number).order_by("number"))
        assert one.following_round == (later[0] if later else None)
        return one, clock.current_round(list(room.rounds.order_by("number")))

    seen = []
    for step in (
        lambda: None,  # nothing started: the first
        lambda: rounds.round_start(first),  # on the clock
        lambda: rounds.round_pause(Round.objects.get(pk=first.pk)),  # paused: still it
        lambda: rounds.round_resume(Round.objects.get(pk=first.pk)),
        lambda: rounds.round_end_now(Round.objects.get(pk=first.pk)),  # over: the latest over
        lambda: rounds.round_start(Round.objects.get(pk=second.pk)),
        lambda: rounds.round_end_now(Round.objects.get(pk=second.pk)),
    ):
        step()
        one, rule = both()
        assert one == rule
        seen.append(one.number)
    assert seen == [1, 1, 1, 1, 1, 2, 2]


def test_a_rooms_round_by_number_comes_with_its_following_round_in_one_query(
    session15, django_assert_num_queries
):
    room = session15.rooms.get()
    numbers = list(room.rounds.order_by("number").values_list("number", flat=True))
    for number in numbers:
        with django_assert_num_queries(1):
            rnd = rounds.room_round(room, number)
        assert rnd.number == number
        following = rnd.following_round
        assert (following.number if following else None) == next(
            (n for n in numbers if n > number), None
        )
    with django_assert_num_queries(1):
        assert rounds.room_round(room, max(numbers) + 1) is None
