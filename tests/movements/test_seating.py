"""session_create turns a planner option into rooms, tables, rounds, seats, sets and deals."""

import pytest
from django.core.exceptions import ValidationError

from events import services as event_services
from events.models import Seat
from movements import planner
from movements.services import seat_substitute, session_create
from scoring.models import BoardSet, Deal, TablePlay

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("en")]


def _players(event, n):
    for i in range(n):
        event_services.entry_create(event, last_name=f"Игрок{i:02d}", first_name="И")
    event_services.draw_make(event, seed="fixed")
    return {e.number: e for e in event.entries.all()}


def _option(n, **match):
    for option in planner.plan(n).as_dict()["options"]:
        rooms = option["rooms"]
        if all(all(r.get(k) == v for k, v in match.items()) for r in rooms):
            return option
    raise AssertionError(f"no option for {n} with {match}")


def test_a_prime_room_of_5_tables_of_3_is_seated_as_the_engine_says(event):
    by_number = _players(event, 15)
    session = session_create(event, _option(15, kind="prime", seats=3))
    (room,) = session.rooms.all()
    assert (room.kind, room.seats, room.rounds_planned, room.participants) == ("prime", 3, 5, 15)
    assert room.tables.count() == 5 and room.rounds.count() == 5
    r1 = room.rounds.get(number=1)
    seat = Seat.objects.get(round=r1, table__number=2, position="E")
    assert (seat.participant, seat.entry) == (7, by_number[7])
    assert TablePlay.objects.get(round=r1, table__number=2).board_set.number == 2
    r2 = room.rounds.get(number=2)
    assert Seat.objects.get(round=r2, participant=7).table.number == 3  # E moves +1
    assert TablePlay.objects.get(round=r2, table__number=1).board_set.number == 2  # sets −1
    assert BoardSet.objects.filter(session=session).count() == 5
    deals = Deal.objects.filter(board_set__session=session, board_set__number=1)
    assert [(d.number, d.first_hand, d.talon_pocket, d.active_seats) for d in deals] == [
        (1, "N", "W", "NES"),
        (2, "E", "W", "ESN"),
        (3, "S", "W", "SNE"),
    ]
    assert Seat.objects.filter(round__room=room).count() == 15 * 5


def test_a_scheme_room_keeps_shared_sets_and_pauses(event):
    _players(event, 9)
    session = session_create(event, _option(9, kind="scheme"))
    room = session.rooms.get()
    r1 = room.rounds.get(number=1)
    assert Seat.objects.filter(round=r1, table__isnull=True).count() == 1
    sets = set(TablePlay.objects.filter(round=r1).values_list("board_set__number", flat=True))
    assert len(sets) == 1  # both tables play the same set
    assert Deal.objects.filter(board_set__session=session).count() == 4 * session.board_sets.count()


def test_twin_rooms_play_the_same_boards(event):
    _players(event, 26)
    option = _option(26, kind="scheme", participants=13)
    assert len(option["rooms"]) == 2
    session = session_create(event, option)
    one, two = session.rooms.all()
    assert (one.first_participant, two.first_participant) == (1, 14)
    assert session.board_sets.values("family").distinct().count() == 1
    for number in (1, 2):
        sets_one = {
            p.board_set_id for p in TablePlay.objects.filter(round__room=one, round__number=number)
        }
        sets_two = {
            p.board_set_id for p in TablePlay.objects.filter(round__room=two, round__number=number)
        }
        assert sets_one == sets_two


def test_it_refuses_when_the_player_count_does_not_match(event):
    _players(event, 14)
    with pytest.raises(ValidationError, match="seats 15 participants but 14 players"):
        session_create(event, _option(15, kind="prime", seats=3))
    assert not event.sessions.exists()


def test_it_refuses_unnumbered_players(event):
    for i in range(15):
        event_services.entry_create(event, last_name=f"Игрок{i}", first_name="И")
    with pytest.raises(ValidationError, match="draw the numbers first"):
        session_create(event, _option(15, kind="prime", seats=3))


def test_a_shorter_session_stops_after_the_chosen_rounds(event):
    _players(event, 20)
    session = session_create(event, _option(20, kind="prime", seats=4), rounds=3)
    assert session.rooms.get().rounds.count() == 3


def test_a_substitute_takes_the_place_from_a_round_on_and_nobody_else_moves(event):
    by_number = _players(event, 15)
    session = session_create(event, _option(15, kind="prime", seats=3))
    late = event_services.entry_create(event, last_name="Поздний", first_name="П")
    before = {(s.round_id, s.participant, s.table_id, s.position) for s in Seat.objects.all()}
    assert seat_substitute(session, leaving=by_number[4], arriving=late, from_round=3) == 3
    after = {(s.round_id, s.participant, s.table_id, s.position) for s in Seat.objects.all()}
    assert before == after
    assert list(Seat.objects.filter(entry=late).values_list("round__number", flat=True)) == [
        3,
        4,
        5,
    ]
    assert Seat.objects.filter(entry=by_number[4]).count() == 2
    with pytest.raises(ValidationError):
        seat_substitute(session, leaving=by_number[5], arriving=late, from_round=1)
