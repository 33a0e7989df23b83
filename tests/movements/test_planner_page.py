"""The planner page: one recommended option in a card, the others in a table, the seats
choice, one name per movement, and why no single room seats 31 or 34."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from events.models import Session
from tests.movements.conftest import add_players

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def plan_url(event, query=""):
    return reverse("director:plan", args=[event.pk]) + query


def part(page, start, end):
    return page[page.index(start) : page.index(end, page.index(start))]


def text_of(html):
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def club33(event):
    event.minutes_per_deal = 3
    event.save()
    add_players(event, 33)
    return event


def test_33_players_get_one_recommended_card_and_a_table_of_the_rest(director_client, club33):
    before = timezone.localtime()
    page = director_client.get(plan_url(club33)).content.decode()
    card = text_of(part(page, 'id="recommended"', "</label>"))
    assert "Рекомендуем: вариант 1" in card
    for words in (
        "простое число столов",
        "Комнаты 1 комната",
        "Столы 11 столов по 3",
        "Туры 11",
        "Сдачи 33 за каждым столом, по 3 в комплекте",
        "Длина 1:39 по 3 мин на сдачу",
        "каждый встречается с каждым игроком других линий ровно один раз",
        "каждый играет все 11 комплектов",
        "каждая сдача сравнивается (столов на сдачу: 11)",
        "без пауз",
    ):
        assert words in card, words
    # «Конец 01:39 …», or past midnight «Конец 3 декабря в 00:49, …»: the time either way.
    ends = re.search(r"Конец.*?(\d\d:\d\d),? если начать сейчас", card).group(1)
    expected = {
        (moment + timedelta(minutes=99)).strftime("%H:%M")
        for moment in (before, timezone.localtime())
    }
    assert ends in expected
    table = part(page, 'id="other-options"', "</table>")
    rows = re.findall(r'<tr id="row-(\d+)"', table)
    assert rows == [str(i) for i in range(1, 18)]  # 18 options: 1 card + 17 rows
    assert table.count('name="option"') == 17 and table.count("Выбрать") >= 17
    for header in ("Движение", "Комнаты", "Столы × места", "Туры", "Сдачи", "Длина", "Паузы"):
        assert f">{header}<" in table, header
    second = text_of(part(table, 'id="row-1"', "</tr>"))
    assert "процедура пропуска + специальная схема на 9" in second
    assert "6 × 4 + 2 × 4" in second and "1:48" in second


def test_a_movement_goes_by_one_name_everywhere(director_client, club33):
    page = text_of(director_client.get(plan_url(club33)).content.decode())
    # the prime rule's and the special schemes' second names are gone
    assert "простое правило" not in page and not re.search(r"\bособ", page)
    # the built-in schemes by their count, not by their long descriptions
    assert "участников: 2 стола" not in page and "специальная схема на 9" in page
    assert "одной комнатой: простое число столов, 11 столов по 3 (вариант 1)" in page
    english = text_of(director_client.get(plan_url(club33), **EN).content.decode())
    assert "One room would do too: prime rule, 11 tables of 3 (option 1)." in english
    assert "skip procedure + special scheme for 9" in english


def test_the_english_page_has_no_cyrillic_but_names(director_client, club33):
    page = director_client.get(plan_url(club33), **EN).content.decode()
    main = text_of(part(page, "<main", "</main>"))
    main = main.replace(club33.name, "")
    assert CYRILLIC.findall(main) == []
    for page in (
        director_client.get(plan_url(club33, "?seats=4"), **EN),
        director_client.get(plan_url(club33, "?seats=x"), **EN),
    ):
        main = text_of(part(page.content.decode(), "<main", "</main>"))
        assert CYRILLIC.findall(main.replace(club33.name, "")) == []


def test_the_seats_choice_filters_the_options_and_stays_chosen(director_client, club33):
    page = director_client.get(plan_url(club33, "?seats=3")).content.decode()
    assert re.search(r'<input type="radio" name="seats" value="3"[^>]*checked', page)
    shapes = re.findall(r"(\d+)\s×\s(\d+)", text_of(part(page, 'id="other-options"', "</table>")))
    assert shapes and {seats for _tables, seats in shapes} == {"3"}
    assert "11 столов по 3" in part(page, 'id="recommended"', "</label>")
    any_seats = director_client.get(plan_url(club33)).content.decode()
    assert re.search(r'<input type="radio" name="seats" value=""[^>]*checked', any_seats)


def test_choosing_an_option_among_three_seat_tables_seats_that_option(director_client, club33):
    page = director_client.get(plan_url(club33, "?seats=3")).content.decode()
    row = text_of(part(page, 'id="row-1"', "</tr>"))
    assert "7 × 3 + 4 × 3" in row
    data = {"option": 1, "participants": 33, "number": 1}
    response = director_client.post(plan_url(club33, "?seats=3"), data)
    assert response.status_code == 302
    rooms = Session.objects.get(event=club33).rooms.order_by("number")
    assert [(r.kind, r.seats, r.tables.count()) for r in rooms] == [
        ("prime", 3, 7),
        ("skip", 3, 4),
    ]


def test_a_bad_seats_choice_says_so_and_shows_every_option(director_client, club33):
    page = director_client.get(plan_url(club33, "?seats=5"), **EN).content.decode()
    assert "Seats per table are 3 or 4, not 5: all options are shown." in page
    assert "6 × 4 + 2 × 4" in text_of(page)


def test_33_players_at_tables_of_4_hear_why_no_single_room_and_the_nearest(director_client, club33):
    page = director_client.get(plan_url(club33, "?seats=4"), **EN).content.decode()
    why = text_of(part(page, 'id="why-rooms"', "</section>"))
    assert "With tables of 4 only, one room is 4 tables or more of 4 players" in why
    assert "33 is not divisible by 4" in why
    assert "32 players (1 fewer) — skip procedure, 8 tables of 4" in why
    assert "36 players (3 more) — skip procedure, 9 tables of 4" in why


@pytest.mark.parametrize(
    "n, below, above",
    [
        (31, "30 игроков (на 1 меньше) — процедура пропуска, 10 столов по 3", "32 игрока (на 1 больше) — процедура пропуска, 8 столов по 4"),
        (34, "33 игрока (на 1 меньше) — простое число столов, 11 столов по 3", "36 игроков (на 2 больше) — процедура пропуска, 12 столов по 3"),
    ],
)  # fmt: skip
def test_31_and_34_players_hear_in_one_sentence_why_no_single_room_fits(
    director_client, event, n, below, above
):
    add_players(event, n)
    page = director_client.get(plan_url(event)).content.decode()
    why = part(page, 'id="why-rooms"', "</section>")
    reason = text_of(re.search(r"<h2>.*?</h2>\s*<p>(.*?)</p>", why, re.S).group(1))
    assert reason.endswith(".") and ". " not in reason  # one sentence
    assert f"{n} не делится ни на 3, ни на 4" in reason
    assert "специальные схемы есть только для 8, 9, 12, 13, 16, 18, 24 участников" in reason
    assert "одной комнатой их не рассадить" in reason
    alternative = text_of(part(why, 'id="one-room-alternative"', "</p>"))
    assert below in alternative and above in alternative
    # the card stays on top: the recommended option comes before the explanation
    assert page.index('id="recommended"') < page.index('id="why-rooms"')


def test_a_count_with_no_option_at_all_says_why_and_the_nearest(director_client, event):
    add_players(event, 11)
    page = text_of(director_client.get(plan_url(event), **EN).content.decode())
    assert "No movement seats exactly 11 players." in page
    assert "One room needs at least 4 tables of 3 or 4 players (12 players or more)" in page
    assert "9 players (2 fewer) — special scheme for 9, 2 tables of 4 (with pauses)" in page


def test_the_page_states_its_ranking_rule(director_client, club33):
    page = text_of(director_client.get(plan_url(club33), **EN).content.decode())
    assert (
        "Ranked by, in turn: nobody plays a set twice; every deal is compared; more pairs "
        "of players meet; fewer rooms; fewer pauses; fewer skips; prime rule, then special "
        "scheme, then skip procedure; larger rooms and tables of 4 first."
    ) in page


def test_the_session_end_crosses_midnight_with_its_date():
    from django.utils import translation

    from movements.views import option_summary

    option = {
        "rooms": [{"kind": "prime", "tables": 11, "seats": 3, "rounds": 11, "participants": 33}],
        "metrics": {"coverage": 0.688, "pauses": 0},
    }
    late = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)  # 23:00 in Moscow
    with translation.override("ru"):
        summary = option_summary(option, 3, late)
    assert summary["ends"] == "6 декабря 00:39" and summary["length"] == "1:39"
