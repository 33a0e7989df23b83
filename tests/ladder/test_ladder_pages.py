"""The club ladder's pages (docs/ladder.md «The ladder in the app»): the public ladder lists
exactly the graded persons the public may see, with the grades written, ranked, filtered by
club and season, the inactive apart; a person's page lists his rows and draws one point per
rated session; a hidden person is nowhere; the event standings link to the ladder in one
query; the pages come from the cache until something changes; and the director's
settings page (open, a refused address, a parameter change, «Пересчитать сейчас»)."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events.models import Person
from scoring.ladder import services as ladders
from scoring.models import Ladder, LadderGrade, LadderRow
from tests.ladder.test_ladder_db import played

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr data-person="(\d+)">(.*?)</tr>', re.S)


@pytest.fixture
def ladder(director):
    return Ladder.objects.create(owner=director, name="Клуб «Пуля»", slug="pulya")


@pytest.fixture
def persons(director):
    clubs = ["ЦДШ", "Пуля", "ЦДШ"]
    return [
        Person.objects.create(
            owner=director,
            last_name=f"Семёнов{i:02d}",
            first_name="Пётр",
            club=clubs[i % 3],
        )
        for i in range(12)
    ]


def _recompute(ladder):
    Ladder.objects.filter(pk=ladder.pk).update(wanted=ladder.wanted + 100)
    assert ladders.ladder_recompute(ladder.pk)
    ladder.refresh_from_db()


def _rows(html, table="ladder"):
    """(person id, place, grade, the row's text) of each row of the table ``table``."""
    part = html.split(f'id="{table}"', 1)[1].split("</table>", 1)[0]
    found = []
    for pk, cells in ROW.findall(part):
        texts = [
            re.sub(r"<[^>]+>", " ", c).strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)
        ]
        found.append((int(pk), texts))
    return found


def _grade_cell(texts):
    return next(t for t in texts if re.fullmatch(r"-?\d+\.\d\d", t))


@pytest.fixture
def season(director, ladder, persons):
    """Two weekly events of nine of the twelve, overlapping; replayed."""
    first, _ = played(director, datetime.date(2026, 10, 5), persons[:9], seed=1)
    second, _ = played(director, datetime.date(2026, 10, 12), persons[3:12], seed=2)
    _recompute(ladder)
    return first, second


def test_the_ladder_lists_the_graded_persons_with_their_grades_and_places(
    client, ladder, persons, season
):
    html = client.get(reverse("ladder:ladder", args=[ladder.slug])).content.decode()
    grades = {g.person_id: g for g in LadderGrade.objects.filter(ladder=ladder)}
    rows = _rows(html)
    assert {pk for pk, _texts in rows} == set(grades)
    shown = [grades[pk].grade for pk, _texts in rows]
    assert shown == sorted(shown, reverse=True)
    for pk, texts in rows:
        # A place is one more than the number of grades above (equal grades share it).
        assert texts[0] == str(1 + sum(g.grade > grades[pk].grade for g in grades.values()))
        assert f"{grades[pk].grade:.2f}" == _grade_cell(texts)
        assert str(grades[pk].deals) in texts
        assert grades[pk].person.full_name in texts[1]
        change = grades[pk].change
        sign = "+" if change > 0 else "−"
        assert f"{sign}{abs(change):.2f}" in texts[-1]
        assert "предварительный" in texts  # 12 to 48 deals: every grade is provisional
    assert "Обновлено:" in html and "пересчёт ожидается" not in html


def test_a_hidden_person_is_not_listed_nor_named_and_his_page_is_404(
    client, director, ladder, persons, season
):
    hidden = persons[4]
    hidden.hidden = True
    hidden.save()
    html = client.get(reverse("ladder:ladder", args=[ladder.slug])).content.decode()
    listed = {pk for pk, _texts in _rows(html)}
    assert listed == set(
        LadderGrade.objects.filter(ladder=ladder)
        .exclude(person=hidden)
        .values_list("person_id", flat=True)
    )
    assert hidden.full_name not in html
    assert client.get(reverse("ladder:person", args=[ladder.slug, hidden.pk])).status_code == 404
    # His grade still counted for the others: the rows are the replay's, untouched.
    assert LadderGrade.objects.filter(ladder=ladder, person=hidden).exists()


def test_unknown_ladder_and_a_person_not_on_it_are_404(client, director, ladder, persons, season):
    assert client.get(reverse("ladder:ladder", args=["no-such"])).status_code == 404
    stranger = Person.objects.create(owner=director, last_name="Чужой", first_name="Иван")
    assert client.get(reverse("ladder:person", args=[ladder.slug, stranger.pk])).status_code == 404
    assert client.get(reverse("ladder:person", args=["no-such", persons[0].pk])).status_code == 404


def test_the_club_filter_keeps_the_club_and_the_places(client, ladder, persons, season):
    url = reverse("ladder:ladder", args=[ladder.slug])
    everyone = {pk: texts[0] for pk, texts in _rows(client.get(url).content.decode())}
    html = client.get(url, {"club": "Пуля"}).content.decode()
    shown = _rows(html)
    pulya = {p.pk for p in persons if p.club == "Пуля"}
    assert {pk for pk, _t in shown} == pulya
    assert all(texts[0] == everyone[pk] for pk, texts in shown)  # his place on the ladder
    assert '<option value="Пуля" selected>' in html
    refused = client.get(url, {"club": "Нет такого"}).content.decode()
    assert "Клуб: «Нет такого» — никого из этого клуба нет в лестнице" in refused


def test_the_season_shows_the_grades_at_the_end_of_that_year(
    client, director, ladder, persons, season
):
    played(director, datetime.date(2025, 11, 3), persons[:9], seed=3)
    _recompute(ladder)
    url = reverse("ladder:ladder", args=[ladder.slug])
    html = client.get(url, {"season": "2025"}).content.decode()
    assert "Сезон 2025: рейтинги на конец года" in html
    rows_2025 = LadderRow.objects.filter(ladder=ladder, date__year=2025)
    want = {r.person_id: r.after for r in rows_2025}
    shown = _rows(html)
    assert {pk: _grade_cell(t) for pk, t in shown} == {p: f"{a:.2f}" for p, a in want.items()}
    # Today's view has every graded person, at his grade now.
    now = {pk: _grade_cell(t) for pk, t in _rows(client.get(url).content.decode())}
    assert now == {g.person_id: f"{g.grade:.2f}" for g in LadderGrade.objects.filter(ladder=ladder)}
    assert "Сезон: «1999» — такого года в лестнице нет" in (
        client.get(url, {"season": "1999"}).content.decode()
    )


def test_the_inactive_are_hidden_from_the_table_and_shown_on_request(
    client, director, ladder, persons
):
    played(director, datetime.date(2024, 3, 4), persons[:9], seed=4)  # long ago
    played(director, datetime.date(2026, 11, 2), persons[3:12], seed=5)
    _recompute(ladder)
    url = reverse("ladder:ladder", args=[ladder.slug])
    html = client.get(url).content.decode()
    gone = {p.pk for p in persons[:3]}
    assert not gone & {pk for pk, _t in _rows(html)}
    assert "показать неактивных (3)" in html
    shown = client.get(url, {"inactive": "1"}).content.decode()
    assert {pk for pk, _t in _rows(shown, "ladder-inactive")} == gone
    assert "скрыть неактивных" in shown


def test_the_parameters_and_the_events_counted_are_shown(client, director, ladder, persons, season):
    played(director, datetime.date(2026, 10, 19), persons[:9], seed=6, method="points")
    played(director, datetime.date(2026, 10, 26), persons[:9], seed=7, publish=False)
    html = client.get(reverse("ladder:ladder", args=[ladder.slug])).content.decode()
    for text in ("pct_grade_v1", "0.0025", "0.0075", ">50<", ">100<", ">8<", ">2<"):
        assert text in html
    assert "процент, который вы набрали бы в поле средней силы" in html
    assert "не рейтингуется: турнир на очки" in html
    events = html.split('id="ladder-events"', 1)[1]
    assert "Вечер 2026-10-26" not in events  # not published: not listed
    assert events.count("рейтингуется") == 3


def test_a_person_page_lists_his_rows_and_draws_a_point_per_session(
    client, ladder, persons, season
):
    person = persons[5]  # in both events
    html = client.get(reverse("ladder:person", args=[ladder.slug, person.pk])).content.decode()
    rows = list(
        LadderRow.objects.filter(ladder=ladder, person=person)
        .select_related("session__event")
        .order_by("order")
    )
    assert len(rows) == 2
    table = html.split('id="ladder-history"', 1)[1].split("</table>", 1)[0]
    lines = re.findall(r"<tr data-session=\"(\d+)\">(.*?)</tr>", table, re.S)
    assert [int(s) for s, _cells in lines] == [r.session_id for r in rows]
    for (_s, cells), row in zip(lines, rows, strict=True):
        texts = [
            re.sub(r"<[^>]+>", "", c).strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)
        ]
        assert texts[0] == row.date.strftime("%d.%m.%Y")
        assert texts[1] == row.session.event.name
        assert texts[2:8] == [
            str(row.session.number),
            str(row.deals),
            f"{row.before:.2f}",
            f"{row.expected:.2f}",
            f"{row.actual:.2f}",
            f"{row.after:.2f}",
        ]
    assert f'href="/e/{rows[0].session.event.slug}/results/"' in table
    assert "Ожидаемый %" in table and "Набранный %" in table
    assert "Expected" not in html and "Actual" not in html  # a Russian page, all Russian
    svg = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert svg.count('<circle class="point"') == 2
    assert 'viewBox="0 0 600 300"' in html and "<polyline" in svg
    grade = LadderGrade.objects.get(ladder=ladder, person=person)
    assert f"{grade.grade:.2f}" in html.split('id="person-grade"', 1)[1][:40]


def test_the_event_standings_link_graded_visible_players_in_one_query(
    client, director, ladder, persons, season
):
    first, _second = season
    persons[1].hidden = True
    persons[1].save()
    url = reverse("public:event", args=[first.slug])
    with CaptureQueriesContext(connection) as queries:
        html = client.get(url).content.decode()
    asked = [q["sql"] for q in queries.captured_queries if "scoring_laddergrade" in q["sql"]]
    assert len(asked) == 1
    links = re.findall(r'<a class="ladder-link" href="/ladder/pulya/(\d+)/">рейтинг</a>', html)
    assert {int(pk) for pk in links} == {p.pk for p in persons[:9]} - {persons[1].pk}
    session_html = client.get(reverse("public:session", args=[first.slug, 1])).content.decode()
    assert session_html.count('class="ladder-link"') == 8


def test_the_pages_come_from_the_cache_until_a_replay(client, director, ladder, persons, season):
    url = reverse("ladder:ladder", args=[ladder.slug])
    person_url = reverse("ladder:person", args=[ladder.slug, persons[5].pk])
    client.get(url)
    client.get(person_url)
    for address in (url, person_url):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(address).status_code == 200
        assert not [q for q in queries.captured_queries if "scoring_ladderrow" in q["sql"]]
    # A new event and its replay: a new key, the new grades.
    played(director, datetime.date(2026, 10, 19), persons[:9], seed=8)
    _recompute(ladder)
    html = client.get(url).content.decode()
    for pk, texts in _rows(html):
        assert (
            _grade_cell(texts)
            == f"{LadderGrade.objects.get(ladder=ladder, person_id=pk).grade:.2f}"
        )
    # A name changed in the register is on the page at once.
    persons[0].last_name = "Переименов"
    persons[0].save()
    assert "Переименов" in client.get(url).content.decode()


def test_the_director_opens_his_ladder_and_a_bad_address_is_refused_in_russian(
    director_client, director
):
    url = reverse("director:ladder")
    page = director_client.get(url).content.decode()
    assert "Открыть лестницу клуба" in page
    assert "(набранный % − ожидаемый %)" in page and "actual" not in page
    data = {
        "name": "Клуб «Пуля»",
        "slug": "Пуля клуб",
        "k": "0,0025",
        "k_provisional": "0.0075",
        "start": "50",
        "provisional_deals": "100",
        "min_deals": "8",
        "min_tables": "2",
    }
    refused = director_client.post(url, data).content.decode()
    assert "Адрес: только латинские буквы, цифры и дефисы" in refused
    assert 'value="Клуб «Пуля»"' in refused  # nothing typed is lost
    assert not Ladder.objects.exists()
    bad_k = director_client.post(url, dict(data, slug="pulya", k="много")).content.decode()
    assert "k: введите число, например 0.0025." in bad_k
    response = director_client.post(url, dict(data, slug="pulya"))
    assert response.status_code == 302
    ladder = Ladder.objects.get(owner=director)
    assert (ladder.slug, ladder.k) == ("pulya", 0.0025)
    page = director_client.get(url).content.decode()
    assert "/ladder/pulya/" in page and "Пересчитать сейчас" in page


def test_the_address_of_another_ladder_is_refused(director_client, other_director):
    Ladder.objects.create(owner=other_director, name="Чужая", slug="pulya")
    page = director_client.post(
        reverse("director:ladder"),
        {
            "name": "Моя",
            "slug": "pulya",
            "k": "0.0025",
            "k_provisional": "0.0075",
            "start": "50",
            "provisional_deals": "100",
            "min_deals": "8",
            "min_tables": "2",
        },
    ).content.decode()
    assert "Адрес: «pulya» уже занят другой лестницей" in page


def test_a_parameter_change_waits_for_a_recompute_and_the_button_brings_it(
    director_client, director, ladder, persons, season
):
    url = reverse("director:ladder")
    assert "Обновлено:" in director_client.get(url).content.decode()
    data = {
        "name": ladder.name,
        "slug": ladder.slug,
        "k": "0.003",
        "k_provisional": "0.0075",
        "start": "50",
        "provisional_deals": "100",
        "min_deals": "8",
        "min_tables": "2",
    }
    # The replay is the worker's, queued once the change is committed (never, in this
    # test's transaction): the ladder waits for it.
    assert director_client.post(url, data).status_code == 302
    ladder.refresh_from_db()
    assert ladder.k == 0.003 and not ladder.is_current
    assert "Ожидает пересчёта" in director_client.get(url).content.decode()
    public = director_client.get(reverse("ladder:ladder", args=[ladder.slug])).content.decode()
    assert "пересчёт ожидается" in public
    response = director_client.post(reverse("director:ladder_recompute"), follow=True)
    ladder.refresh_from_db()
    assert ladder.is_current
    assert (
        "Лестница пересчитана. Игроков в рейтинге: 12, рейтинговых сессий: 2."
        in response.content.decode()
    )
    public = director_client.get(reverse("ladder:ladder", args=[ladder.slug])).content.decode()
    assert "0.003" in public and "пересчёт ожидается" not in public


def test_the_settings_are_the_directors_own(client, other_client, ladder):
    assert client.get(reverse("director:ladder")).status_code == 302  # login first
    assert client.post(reverse("director:ladder_recompute")).status_code == 302
    page = other_client.get(reverse("director:ladder")).content.decode()
    assert "Открыть лестницу клуба" in page and ladder.name not in page
    assert other_client.post(reverse("director:ladder_recompute")).status_code == 404
