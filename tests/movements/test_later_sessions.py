"""A further session planned from what happened (docs/game.md §6.4): who met whom, the
«by lines» option, and who plays now."""

from collections import defaultdict
from itertools import combinations
from math import comb

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from events import services as event_services
from events.models import Seat
from movements import seating
from movements.services import session_create
from tests.factories import seat_players

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("en")]


def _lines_and_meetings(session):
    """position → entry ids, and pair → times met, read from the session's Seat rows."""
    line_of, at = {}, defaultdict(list)
    for rnd, table, position, entry in Seat.objects.filter(
        round__room__session=session, table__isnull=False
    ).values_list("round_id", "table_id", "position", "entry_id"):
        line_of.setdefault(entry, set()).add(position)
        at[(rnd, table)].append(entry)
    met = defaultdict(int)
    for people in at.values():
        for a, b in combinations(sorted(people), 2):
            met[(a, b)] += 1
    lines = defaultdict(set)
    for entry, positions in line_of.items():
        (position,) = positions  # a prime room: everybody keeps his line
        lines[position].add(entry)
    return dict(lines), met


@pytest.fixture
def first_session(event):
    return seat_players(event, 52, kind="prime", seats=4)


def test_52_on_13_tables_meet_every_cross_line_pair_once_and_never_their_own_line(first_session):
    lines, met = _lines_and_meetings(first_session)
    assert sorted(len(m) for m in lines.values()) == [13] * 4
    line_of = {e: p for p, members in lines.items() for e in members}
    for a, b in combinations(sorted(line_of), 2):
        assert met.get((a, b), 0) == (0 if line_of[a] == line_of[b] else 1), (a, b)


def test_session_2_is_offered_by_lines_first_and_seated_room_by_line(event, first_session):
    lines, _met = _lines_and_meetings(first_session)
    plan = seating.event_plan(event)
    assert plan["history"]["never_met"] == 4 * comb(13, 2) == 312
    best = plan["options"][0]
    assert best.get("by_lines")
    assert [(r["kind"], r["participants"], r["lines"]) for r in best["rooms"]] == [
        ("scheme", 13, ["N"]),
        ("scheme", 13, ["E"]),
        ("scheme", 13, ["S"]),
        ("scheme", 13, ["W"]),
    ]
    assert best["meetings"]["never_after"] == 0
    assert best["meetings"]["first_time"] == 312 and best["meetings"]["never_before"] == 312
    generic = next(o for o in plan["options"] if not o.get("by_lines"))
    assert generic["meetings"]["first_time"] < 312
    session = session_create(event, best, number=2)
    rooms = {}
    for room, entry, participant in Seat.objects.filter(round__room__session=session).values_list(
        "round__room__number", "entry_id", "participant"
    ):
        rooms.setdefault(room, set()).add(entry)
        assert 13 * (room - 1) < participant <= 13 * room
    assert [rooms[i] for i in (1, 2, 3, 4)] == [lines[p] for p in "NESW"]
    assert seating.event_plan(event)["history"]["sessions"] == 2


def test_a_withdrawn_player_is_not_seated_and_his_line_gets_the_planners_room_for_12(
    event, first_session
):
    lines, _met = _lines_and_meetings(first_session)
    gone = event.entries.get(pk=min(lines["E"]))
    event_services.entry_withdraw(gone, confirmed=True)
    plan = seating.event_plan(event)
    assert plan["participants"] == 51
    best = plan["options"][0]
    assert best.get("by_lines")
    east = next(r for r in best["rooms"] if r["lines"] == ["E"])
    assert east["participants"] == 12 and gone.pk not in east["entries"]
    assert east["kind"] in ("skip", "scheme")
    m = best["meetings"]
    # the planner's room for 12 does not make every pair meet: the option says how many stay
    assert m["never_before"] == 3 * comb(13, 2) + comb(12, 2) and m["again"] == 0
    assert m["first_time"] == m["never_before"] - m["never_after"] > 0
    session = session_create(event, best, number=2)
    seated = set(Seat.objects.filter(round__room__session=session).values_list("entry", flat=True))
    assert gone.pk not in seated and len(seated) == 51


def test_a_late_arrival_is_seated_in_session_2(event, first_session):
    late = event_services.entry_create(event, last_name="Опоздавший", first_name="Пётр", number=53)
    plan = seating.event_plan(event)
    assert plan["participants"] == 53 and plan["options"]
    best = plan["options"][0]
    session = session_create(event, best, number=2)
    seated = set(Seat.objects.filter(round__room__session=session).values_list("entry", flat=True))
    assert late.pk in seated and len(seated) == 53


def test_a_generic_option_after_a_withdrawal_seats_the_playing_players_in_number_order(
    event, first_session
):
    by_number = {e.number: e for e in event.entries.all()}
    event_services.entry_withdraw(by_number[7], confirmed=True)
    event_services.entry_withdraw(by_number[8], confirmed=True)
    event_services.entry_withdraw(by_number[9], confirmed=True)
    event_services.entry_withdraw(by_number[10], confirmed=True)
    plan = seating.event_plan(event)
    generic = next(o for o in plan["options"] if not o.get("by_lines"))
    session = session_create(event, generic, number=2)
    seat = Seat.objects.filter(round__room__session=session, participant=7).first()
    assert seat.entry == by_number[11]  # participant k = the k-th playing entry by number


def test_listed_players_are_checked(event, first_session):
    best = seating.event_plan(event)["options"][0]
    twice = {**best, "rooms": [dict(r) for r in best["rooms"]]}
    twice["rooms"][1]["entries"] = [
        twice["rooms"][0]["entries"][0],
        *twice["rooms"][1]["entries"][1:],
    ]
    with pytest.raises(ValidationError, match="Room 2: .* is listed twice"):
        session_create(event, twice)
    short = {**best, "rooms": [dict(r) for r in best["rooms"]]}
    short["rooms"][0]["entries"] = short["rooms"][0]["entries"][:12]
    with pytest.raises(
        ValidationError, match="Room 1: 12 players are listed but the room seats 13"
    ):
        session_create(event, short)
    stranger = {**best, "rooms": [dict(r) for r in best["rooms"]]}
    stranger["rooms"][3]["entries"] = [*stranger["rooms"][3]["entries"][:12], 10**9]
    with pytest.raises(ValidationError, match="Room 4: player 1000000000 is not playing"):
        session_create(event, stranger)
    assert event.sessions.count() == 1


def test_the_planner_page_shows_the_pairs_never_met_and_seats_by_lines(
    director_client, event, first_session
):
    url = reverse("director:plan", args=[event.pk])
    page = director_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Before this session 312 pairs of the playing players have never met" in page
    assert "by lines" in page and "line N: " in page
    assert "Meeting for the first time" in page and "Still never met after it" in page
    data = {"option": 0, "participants": 52, "number": 2, "another": "on"}
    response = director_client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302, response.content.decode()[:3000]
    session = event.sessions.get(number=2)
    assert session.rooms.count() == 4 and session.plan["by_lines"]
    assert all(len(r["entries"]) == 13 for r in session.plan["rooms"])


def test_no_movement_for_the_lines_is_said_plainly(event):
    assert "line N: 1" in seating.by_lines_refusal({"N": 1, "E": 1, "S": 1})


def test_a_substitute_in_session_2_takes_the_players_own_number(event, first_session):
    from movements.services import seat_substitute

    session = session_create(event, seating.event_plan(event)["options"][0], number=2)
    seat = (
        Seat.objects.filter(round__room__session=session, round__room__number=2, round__number=1)
        .select_related("entry")
        .exclude(participant__in=range(1, 14))
        .first()
    )
    leaving = seat.entry
    reserve = event_services.entry_create(event, last_name="Запасной", first_name="Иван")
    seat_substitute(session, leaving=leaving, arriving=reserve, from_round=2)
    reserve.refresh_from_db()
    assert reserve.number == leaving.number
    assert session.substitutions.get().number == leaving.number
    assert Seat.objects.filter(round__room__session=session, entry=reserve).count() == 12


def test_the_session_page_names_the_lines_of_each_room(director_client, event, first_session):
    session_create(event, seating.event_plan(event)["options"][0], number=2)
    url = reverse("director:session", args=[event.pk, 2])
    page = director_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "line W: " in page


def test_reading_the_history_and_planning_take_a_fixed_number_of_queries(
    event, first_session, django_assert_max_num_queries
):
    with django_assert_max_num_queries(6):
        plan = seating.event_plan(event)
    assert plan["options"][0]["by_lines"]


def test_when_no_movement_fits_the_lines_the_page_says_which_lines(director_client, event):
    seat_players(event, 42, kind="skip", seats=3)  # lines N, E, S of 14: nothing seats 14
    plan = seating.event_plan(event)
    assert not any(o.get("by_lines") for o in plan["options"])
    url = reverse("director:plan", args=[event.pk])
    page = director_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "cannot be seated by lines" in page
    assert "line N: 14; line E: 14; line S: 14 players" in page


def test_a_later_sessions_cards_and_grid_show_each_players_own_number(
    director_client, event, first_session
):
    """Seated by lines, a player's seat number in session 2 is not his own number; the
    grid, the table cards and his participant card show his own (the phones' and the
    standings' number), and a substitute plays under the number of the player he replaces."""
    from movements import cards
    from movements.services import seat_substitute

    event_services.entry_withdraw(event.entries.get(number=7), confirmed=True)
    session = session_create(event, seating.event_plan(event)["options"][0], number=2)
    seat = next(
        s
        for s in Seat.objects.filter(round__room__session=session, round__number=1)
        .select_related("entry")
        .order_by("participant")
        if s.participant != s.entry.number and s.table_id
    )
    own, participant = seat.entry.number, seat.participant
    reserve = event_services.entry_create(event, last_name="Запасной", first_name="Пётр")
    seat_substitute(session, leaving=seat.entry, arriving=reserve, from_round=2)
    rooms = seating.session_seating(session)
    shown = {
        who.entry: who.number
        for room in rooms
        for rnd in room.rounds
        for table in rnd.tables
        for who in table.seats.values()
    }
    numbers = dict(event.entries.values_list("pk", "number"))
    assert all(shown[e] == numbers[e] for e in shown if e != reserve.pk)
    assert shown[reserve.pk] == own
    card = next(c for c in cards.participant_cards(rooms) if c.participant == participant)
    assert card.number == own and len(card.names) == 2
    url = reverse("director:participant_cards", args=[event.pk, 2])
    page = director_client.get(f"{url}?participant={own}").content.decode()
    assert f"№ {own} — {seat.entry.full_name}" in page
    grid = director_client.get(reverse("director:session", args=[event.pk, 2])).content.decode()
    assert f'{own} <span class="name" dir="auto">{seat.entry.full_name}</span>' in grid
