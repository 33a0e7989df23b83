"""The planner, seating and scheme pages for the owner, another director and an anonymous phone."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events import services as event_services
from events.models import Seat, Session
from movements import engine
from movements.models import Scheme
from movements.services import scheme_create, session_create
from tests.movements.conftest import add_players, option_for

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
EIGHT = {
    "groups": [{"route": ["1S", "1W", "2W", "1E", "2N", "2S", "2E"], "fixed": {"8": "1N"}}],
    "set_groups": [[1, 2]],
}


def plan_url(event):
    return reverse("director:plan", args=[event.pk])


def session_url(event, number=1, name="session"):
    return reverse(f"director:{name}", args=[event.pk, number])


def choose(event, option=0, **extra):
    data = {"option": option, "participants": event.entries.active().count(), "number": 1}
    data.update(extra)
    return data


def _pages(event, scheme):
    return (
        [plan_url(event)]
        + [
            session_url(event, 1, name)
            for name in (
                "session",
                "table_cards",
                "participant_cards",
                "grid_csv",
                "table_csv",
                "participant_csv",
            )
        ]
        + [reverse("director:scheme_detail", args=[scheme.pk])]
    )


def _posts(event, by_number):
    late = event.entries.get(last_name="Запасной")
    return [
        (plan_url(event), choose(event, number=2, another="on")),
        (
            session_url(event),
            {"leaving": by_number[1].pk, "arriving": late.pk, "from_round": 1},
        ),
    ]


@pytest.fixture
def world(event, director):
    by_number = add_players(event, 20)
    session_create(event, option_for(20, kind="prime", tables=5, seats=4))
    event.entries.create(last_name="Запасной", first_name="Пётр", status="withdrawn")
    scheme = scheme_create(director, name="Моя восьмёрка", data=EIGHT)
    return by_number, scheme


def _seats(event):
    return sorted(
        Seat.objects.filter(round__room__session__event=event).values_list(
            "round_id", "participant", "entry_id", "table_id", "position"
        )
    )


# --- three actors ------------------------------------------------------------------------------


def test_the_owner_opens_every_movement_page(director_client, event, world):
    _, scheme = world
    urls = _pages(event, scheme) + [
        reverse("director:scheme_list"),
        reverse("director:scheme_create"),
    ]
    for url in urls:
        response = director_client.get(url)
        assert response.status_code == 200, url
        if not url.endswith(".csv"):
            assert b'name="viewport"' in response.content, url
            assert b"cards.css" in response.content, url
            # Nothing is loaded from elsewhere (links printed for people to scan are fine).
            assert not re.search(rb'(src|href)="(https?:)?//(?!testserver/)', response.content), url


def test_another_director_gets_404_everywhere_and_changes_nothing(other_client, event, world):
    by_number, scheme = world
    before = _seats(event)
    for url in _pages(event, scheme):
        assert other_client.get(url).status_code == 404, url
    for url, data in _posts(event, by_number):
        assert other_client.post(url, data).status_code == 404, url
    assert event.sessions.count() == 1 and _seats(event) == before
    assert "Моя восьмёрка" not in other_client.get(reverse("director:scheme_list")).content.decode()


def test_an_anonymous_visitor_is_sent_to_the_login_page_and_changes_nothing(client, event, world):
    by_number, scheme = world
    before = _seats(event)
    urls = _pages(event, scheme) + [
        reverse("director:scheme_list"),
        reverse("director:scheme_create"),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and "/director/login/" in response["Location"], url
    posts = _posts(event, by_number) + [
        (reverse("director:scheme_create"), {"name": "x", "text": json.dumps(EIGHT)})
    ]
    for url, data in posts:
        response = client.post(url, data)
        assert response.status_code == 302 and "/director/login/" in response["Location"], url
    assert event.sessions.count() == 1 and _seats(event) == before
    assert Scheme.objects.count() == 1


def test_a_missing_session_is_a_404(director_client, event):
    assert director_client.get(session_url(event, 1)).status_code == 404
    assert director_client.get(session_url(event, 1, "grid_csv")).status_code == 404


# --- the planner -------------------------------------------------------------------------------


def test_the_planner_shows_the_options_for_20_players_with_prime_5_by_4_first(
    director_client, event
):
    add_players(event, 20)
    page = director_client.get(plan_url(event), **EN).content.decode()
    assert "20 playing players" in page
    assert page.count('name="option"') >= 2
    best = page[page.index('id="recommended"') : page.index('id="other-options"')]
    assert "Recommended: option 1" in best and 'class="plan-name">prime rule<' in best
    assert "prime rule — 5 tables × 4 players, 5 rounds, 20 participants" in best
    assert page.index('id="row-1"') > page.index('id="other-options"')
    for text in (
        "Coverage",
        "79% of all pairs of players meet",
        "never: 40 pairs",
        "1 time: 150 pairs",
    ):
        assert text in best, text
    assert "none: nobody plays a set twice" in best and "5; every deal is compared" in best
    assert "What the figures mean" in page
    assert 'value="0" checked' in page


def test_the_planner_says_why_26_players_are_split_into_two_rooms_of_13(director_client, event):
    add_players(event, 26)
    page = director_client.get(plan_url(event)).content.decode()
    why = page[
        page.index('id="why-rooms"') : page.index("</section>", page.index('id="why-rooms"'))
    ]
    assert "Ни при каком простом числе столов (5, 7, 11, 13…)" in why
    assert "ровно 26 игроков" in why and "26 не делится ни на 3, ни на 4" in why
    assert "одной комнатой их не рассадить" in why
    assert "24 игрока (на 2 меньше) — процедура пропуска, 6 столов по 4" in why
    assert "27 игроков (на 1 больше) — процедура пропуска, 9 столов по 3" in why
    best = page[page.index('for="option-0"') : page.index('id="why-rooms"')]
    assert "26 = 13 + 13." in best
    assert "копии одних и тех же комплектов" in best
    # Tables per deal counts the twin room: the 13 scheme's table 1 is compared with the other.
    assert "Столов на сдачу" in best and "2–4; каждая сдача сравнивается" in best
    assert "Столов на комплект" not in page
    assert "Сдач в комплекте" in best
    assert "4 ч 20 мин: 13 туров × 4 сдачи × 5 мин на сдачу" in best
    assert "переходы между турами не учтены" in best
    assert "Конец сессии" in best and "по времени турнира, UTC+3" in best


def test_a_split_of_a_count_one_prime_room_seats_points_to_that_room(director_client, event):
    add_players(event, 20)
    page = director_client.get(plan_url(event), **EN).content.decode()
    assert 'id="why-rooms"' not in page
    assert "One room would do too: prime rule, 5 tables of 4 (option 1)." in page


def test_the_session_length_follows_the_events_minutes_per_deal(director_client, event):
    event.minutes_per_deal = 7
    event.save()
    add_players(event, 20)
    page = director_client.get(plan_url(event), **EN).content.decode()
    best = page[page.index('for="option-0"') : page.index('for="option-1"')]
    assert "2 h 20 min: 5 rounds × 4 deals × 7 min per deal" in best
    assert "rounds × deals per set × 7 min per deal" in page


def test_the_session_end_is_given_in_the_events_time_zone():
    from datetime import UTC, datetime

    from django.utils import translation

    from movements.views import length_figures

    option = {"rooms": [{"kind": "prime", "tables": 5, "seats": 4, "rounds": 5}]}
    now = datetime(2026, 12, 5, 21, 0, tzinfo=UTC)  # 00:00 on the 6th in Moscow
    with translation.override("en"):
        (_, length, _), (_, ends, _) = length_figures(option, 5, now)
        assert length.startswith("1 h 40 min: 5 rounds × 4 deals × 5 min per deal")
        assert ends == "at 01:40 if started now (now 00:00, the event's time, UTC+3)"
        late = datetime(2026, 12, 5, 19, 30, tzinfo=UTC)  # 22:30 in Moscow: ends next day
        (_, _, _), (_, ends, _) = length_figures(option, 5, late)
        assert ends.startswith("on 6 December at 00:10 if started now (now 22:30")
    with translation.override("ru"):
        (_, _, _), (_, ends, _) = length_figures(option, 5, late)
        assert ends.startswith("6 декабря в 00:10, если начать сейчас (сейчас 22:30")


def test_the_planner_says_when_nothing_seats_the_count_and_shows_the_nearest(
    director_client, event
):
    add_players(event, 11)
    page = director_client.get(plan_url(event), **EN).content.decode()
    assert "No movement seats exactly 11 players." in page
    assert "Nearest player counts that can be seated:" in page and "9, 12" in page
    assert 'name="option"' not in page


def test_the_planner_warns_about_players_without_numbers(director_client, event):
    add_players(event, 20, draw=False)
    page = director_client.get(plan_url(event), **EN).content.decode()
    assert "20 playing players have no number." in page


def test_choosing_an_option_seats_the_session_as_the_engine_says(director_client, event):
    by_number = add_players(event, 20)
    response = director_client.post(plan_url(event), choose(event), **EN)
    assert response.status_code == 302
    assert response["Location"] == session_url(event, 1)
    session = Session.objects.get(event=event)
    schedule = engine.prime_schedule(5, 4)
    for rnd, table, position in [(1, 1, "N"), (2, 3, "E"), (4, 5, "W"), (5, 2, "S")]:
        want = schedule.round(rnd).tables[table - 1].seats[position]
        seat = Seat.objects.get(
            round__room__session=session, round__number=rnd, table__number=table, position=position
        )
        assert (seat.participant, seat.entry) == (want, by_number[want])
    page = director_client.get(response["Location"], **EN).content.decode()
    assert "Session 1 is seated: 20 participants." in page


def test_choosing_fewer_rounds_stops_the_session_early(director_client, event):
    add_players(event, 20)
    director_client.post(plan_url(event), choose(event, rounds=3))
    room = Session.objects.get(event=event).rooms.get()
    assert room.rounds.count() == 3 and room.metrics["rounds"] == 3


@pytest.mark.parametrize(
    "change, message",
    [
        ({"option": 99}, "There is no option 99"),
        ({"option": "x"}, "There is no option x"),
        ({"rounds": 6}, "This option has at most 5 rounds; choose 1–5."),
        ({"rounds": 0}, "greater than or equal to 1"),
        ({"participants": 19}, "changed from 19 to 20"),
    ],
)
def test_bad_choices_are_shown_and_nothing_is_saved(director_client, event, change, message):
    add_players(event, 20)
    response = director_client.post(plan_url(event), choose(event, **change), **EN)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not event.sessions.exists() and not Seat.objects.exists()


def test_unnumbered_players_are_refused_with_a_clear_error(director_client, event):
    add_players(event, 20, draw=False)
    response = director_client.post(plan_url(event), choose(event), **EN)
    assert response.status_code == 400
    assert "Playing players must be numbered 1–20 without gaps" in response.content.decode()
    assert not event.sessions.exists()


def test_a_gap_in_the_numbers_is_refused(director_client, event):
    by_number = add_players(event, 20)
    by_number[20].number = 21
    by_number[20].save()
    response = director_client.post(plan_url(event), choose(event), **EN)
    assert "numbered 1–20 without gaps" in response.content.decode()
    assert not event.sessions.exists()


def test_a_second_session_needs_an_explicit_tick_and_a_double_click_creates_nothing(
    director_client, event
):
    add_players(event, 20)
    data = choose(event)
    assert director_client.post(plan_url(event), data).status_code == 302
    again = director_client.post(plan_url(event), data, **EN)  # the same form, posted twice
    text = again.content.decode()
    assert again.status_code == 400 and "Tick the box to create session 2" in text
    assert event.sessions.count() == 1
    page = director_client.get(plan_url(event), **EN).content.decode()
    assert "Sessions already seated" in page and session_url(event, 1) in page
    stale = director_client.post(plan_url(event), {**data, "another": "on"}, **EN)
    assert "Session 1 of this event already exists; nothing was created." in stale.content.decode()
    assert event.sessions.count() == 1
    second = director_client.post(plan_url(event), {**data, "another": "on", "number": 2})
    assert second.status_code == 302 and second["Location"] == session_url(event, 2)
    assert event.sessions.count() == 2


# --- substitutes -------------------------------------------------------------------------------


def test_a_substitute_takes_a_place_from_a_round_on(director_client, event, world):
    by_number, _ = world
    late = event.entries.get(last_name="Запасной")
    response = director_client.post(
        session_url(event),
        {"leaving": by_number[4].pk, "arriving": late.pk, "from_round": 3},
        **EN,
    )
    assert response.status_code == 302
    assert list(Seat.objects.filter(entry=late).values_list("round__number", flat=True)) == [
        3,
        4,
        5,
    ]
    assert set(Seat.objects.filter(entry=late).values_list("participant", flat=True)) == {4}
    late.refresh_from_db()
    assert late.status == "active"
    page = director_client.get(session_url(event), **EN).content.decode()
    assert "Запасной Пётр plays as participant 4 in place of" in page


@pytest.mark.parametrize(
    "make, field, message",
    [
        (
            lambda b, late: {"leaving": b[4].pk, "arriving": b[4].pk, "from_round": 1},
            "arriving",
            "cannot replace himself",
        ),
        (
            lambda b, late: {"leaving": b[4].pk, "arriving": b[5].pk, "from_round": 1},
            "arriving",
            "already has a seat in this session",
        ),
        (
            lambda b, late: {"leaving": b[4].pk, "arriving": late.pk, "from_round": 6},
            "from_round",
            "less than or equal to 5",
        ),
        (
            lambda b, late: {"leaving": b[4].pk, "arriving": late.pk, "from_round": ""},
            "from_round",
            "required",
        ),
        (
            lambda b, late: {"leaving": late.pk, "arriving": b[4].pk, "from_round": 1},
            "leaving",
            "Select a valid choice",
        ),
    ],
)
def test_a_bad_substitute_is_refused_with_the_input_kept(
    director_client, event, world, make, field, message
):
    by_number, _ = world
    late = event.entries.get(last_name="Запасной")
    before = _seats(event)
    data = make(by_number, late)
    response = director_client.post(session_url(event), data, **EN)
    assert response.status_code == 400
    form = response.context["form"]
    assert field in form.errors and message in " ".join(form.errors[field])
    page = response.content.decode()
    assert message in page
    if data["from_round"]:
        assert f'value="{data["from_round"]}"' in page
    assert _seats(event) == before


def test_a_player_of_another_event_cannot_be_a_substitute(
    director_client, event, world, other_event
):
    by_number, _ = world
    stranger = event_services.entry_create(other_event, last_name="Чужой", first_name="Ч")
    before = _seats(event)
    response = director_client.post(
        session_url(event), {"leaving": by_number[1].pk, "arriving": stranger.pk, "from_round": 1}
    )
    assert response.status_code == 400 and "arriving" in response.context["form"].errors
    assert _seats(event) == before


# --- custom schemes ----------------------------------------------------------------------------


def test_a_broken_scheme_is_refused_naming_round_and_seat(director_client):
    broken = json.loads(json.dumps(EIGHT))
    broken["groups"][0]["route"][6] = "2S"  # 2S twice
    response = director_client.post(
        reverse("director:scheme_create"),
        {"name": "Сломанная", "text": json.dumps(broken)},
        **EN,
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "round 1, table 2 S: participants 6 and 7 both sit here" in page
    assert "Сломанная" in page  # input kept
    assert not Scheme.objects.exists()


def test_the_scheme_errors_are_in_russian_by_default(director_client):
    broken = json.loads(json.dumps(EIGHT))
    broken["groups"][0]["route"][6] = "2S"
    response = director_client.post(
        reverse("director:scheme_create"), {"name": "С", "text": json.dumps(broken)}
    )
    assert "тур 1, стол 2 S: участники 6 и 7 сидят на одном месте" in response.content.decode()


@pytest.mark.parametrize(
    "data, message",
    [
        ({"name": "X", "text": "{not json"}, "This is not JSON: line 1"),
        ({"name": "X", "text": "[1, 2]"}, "must be a JSON object"),
        ({"name": "X", "text": ""}, "Paste the scheme or upload a file."),
        ({"name": "", "text": json.dumps(EIGHT)}, "This field is required."),
        ({"name": "X", "text": json.dumps({"groups": []})}, "the scheme has no group with a route"),
    ],
)
def test_malformed_scheme_input_is_refused(director_client, data, message):
    response = director_client.post(reverse("director:scheme_create"), data, **EN)
    assert response.status_code == 400 and message in response.content.decode()
    assert not Scheme.objects.exists()


def test_a_valid_scheme_is_saved_listed_and_shown_with_its_balance(director_client, director):
    upload = SimpleUploadedFile("eight.json", json.dumps(EIGHT).encode("utf-8-sig"))
    response = director_client.post(
        reverse("director:scheme_create"), {"name": "Моя восьмёрка", "file": upload}, **EN
    )
    scheme = Scheme.objects.get()
    assert response.status_code == 302
    assert (scheme.owner, scheme.participants, scheme.builtin) == (director, 8, False)
    listing = director_client.get(reverse("director:scheme_list"), **EN).content.decode()
    assert "Моя восьмёрка" in listing
    detail = director_client.get(response["Location"], **EN).content.decode()
    assert "3 times: 28 pairs" in detail and "Table 2" in detail


def test_the_planner_offers_the_directors_own_scheme_and_seats_it(director_client, event, director):
    add_players(event, 8)
    custom = dict(
        EIGHT, groups=[{"route": ["1S", "1W", "2W", "1E", "2N", "2S", "2E"], "fixed": {"8": "1N"}}]
    )
    scheme = scheme_create(director, name="Своя", data=custom)
    page = director_client.get(plan_url(event), **EN).content.decode()
    assert "your scheme «Своя»" in page
    # The row (or the card) that names the scheme carries the radio that chooses it.
    index = next(
        int(re.search(r'id="option-(\d+)"', part).group(1))
        for part in re.split(r'(?=<tr id="row-)|(?=<label class="card option)', page)
        if "«Своя»" in part and 'name="option"' in part
    )
    response = director_client.post(plan_url(event), choose(event, option=index))
    assert response.status_code == 302
    room = event.sessions.get().rooms.get()
    assert room.kind == "scheme" and event.sessions.get().plan["rooms"][0]["scheme_id"] == scheme.pk
    assert room.rounds.count() == 7


def test_another_directors_scheme_is_not_offered(director_client, event, other_director):
    add_players(event, 8)
    scheme_create(other_director, name="Чужая", data=EIGHT)
    assert "Чужая" not in director_client.get(plan_url(event)).content.decode()
