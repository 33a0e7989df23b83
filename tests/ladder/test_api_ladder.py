"""The ladder's API (issue 24; docs/ladder.md «API»): public and read only; its standings
and a person's history are exactly the rows ``ladders.ladder_recompute`` wrote for two
played, published events (tests/ladder/test_ladder_db.py's ``played``), the statuses
``scoring.ladder.status``'s; a person hidden on his request is absent and his history a 404,
as is an unknown ladder or a person not on it."""

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from events.models import Person
from scoring import ladder as core
from scoring.ladder import services as ladders
from scoring.models import Ladder, LadderGrade, LadderRow
from tests.ladder.test_ladder_db import played

pytestmark = pytest.mark.django_db


@pytest.fixture
def built(director):
    """Twelve persons over two published events: the first more than a year ago (its
    three who missed the second are inactive), the second a week ago; the ladder replayed."""
    ladder = Ladder.objects.create(owner=director, name="Клуб «Пуля»", slug="pulya", k=0.003)
    persons = [
        Person.objects.create(
            owner=director, last_name=f"Семёнов{i:02d}", first_name="Пётр", club=f"Клуб {i % 3}"
        )
        for i in range(12)
    ]
    today = timezone.localdate()
    first, _ = played(director, today - datetime.timedelta(days=400), persons[:9], seed=1)
    second, _ = played(director, today - datetime.timedelta(days=7), persons[3:12], seed=2)
    assert ladders.ladder_recompute(ladder.pk)
    ladder.refresh_from_db()
    return ladder, persons, (first, second)


def _get(url, **headers):
    return APIClient().get(url, **headers)


def test_the_ladder_is_the_rows_the_replay_wrote(built):
    ladder, persons, _events = built
    response = _get("/api/v1/ladders/pulya/")  # no credentials: the ladder is public
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["name"] == "Клуб «Пуля»" and body["slug"] == "pulya"
    assert body["method"] == "pct_grade_v1"
    assert body["params"] == {
        "k": 0.003,
        "k_provisional": 0.0075,
        "start": 50.0,
        "provisional_deals": 100,
        "min_deals": 8,
        "min_tables": 2,
    }
    assert body["is_current"] is True
    assert datetime.datetime.fromisoformat(body["built_at"]) == ladder.built_at
    grades = {g.person_id: g for g in LadderGrade.objects.filter(ladder=ladder)}
    assert len(grades) == 12
    assert {row["person"] for row in body["standings"]} == set(grades)
    today = timezone.localdate()
    params = ladders.params_of(ladder)
    names = {p.pk: p for p in persons}
    for row in body["standings"]:
        grade = grades[row["person"]]
        # Full precision: the float written, not a rounding of it.
        assert row["grade"] == grade.grade and row["change"] == grade.change
        assert row["deals"] == grade.deals and row["sessions"] == grade.sessions
        assert row["last_rated"] == grade.last_rated.isoformat()
        assert row["status"] == core.status(grade.deals, grade.last_rated, today, params)
        assert row["name"] == names[row["person"]].full_name
        assert row["club"] == names[row["person"]].club


def test_the_active_are_ranked_by_grade_and_the_inactive_follow_unranked(built):
    _ladder, persons, _events = built
    standings = _get("/api/v1/ladders/pulya/").json()["standings"]
    inactive = {p.pk for p in persons[:3]}
    active = [row for row in standings if row["person"] not in inactive]
    resting = [row for row in standings if row["person"] in inactive]
    assert standings == active + resting and len(resting) == 3
    assert {row["status"] for row in resting} == {core.INACTIVE}
    assert core.INACTIVE not in {row["status"] for row in active}
    assert all(row["rank"] is None for row in resting)
    grades = [row["grade"] for row in active]
    assert grades == sorted(grades, reverse=True)
    for place, row in enumerate(active, start=1):
        first = next(i for i, g in enumerate(grades, start=1) if g == row["grade"])
        assert row["rank"] == first <= place
    assert [row["grade"] for row in resting] == sorted(
        (row["grade"] for row in resting), reverse=True
    )


def test_a_persons_history_is_his_rows_in_replay_order(built):
    ladder, persons, (first, second) = built
    person = persons[5]  # in both events
    response = _get(f"/api/v1/ladders/pulya/persons/{person.pk}/history/")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["person"] == person.pk and body["name"] == person.full_name
    assert body["club"] == person.club
    rows = list(LadderRow.objects.filter(ladder=ladder, person=person).order_by("order"))
    assert len(rows) == 2 == len(body["history"])
    for got, row, event in zip(body["history"], rows, (first, second), strict=True):
        assert got == {
            "session": row.session_id,
            "event": {"id": event.pk, "name": event.name, "slug": event.slug},
            "date": row.date.isoformat(),
            "before": row.before,
            "expected": row.expected,
            "actual": row.actual,
            "after": row.after,
            "deals": row.deals,
            "k": row.k,
        }
    assert body["history"][1]["before"] == body["history"][0]["after"]
    assert body["history"][1]["after"] == LadderGrade.objects.get(person=person).grade


def test_a_hidden_person_is_absent_and_his_history_is_a_404(built):
    _ladder, persons, _events = built
    hidden = persons[4]
    hidden.hidden = True
    hidden.save(update_fields=["hidden"])
    body = _get("/api/v1/ladders/pulya/").json()
    assert hidden.pk not in {row["person"] for row in body["standings"]}
    assert len(body["standings"]) == 11
    assert hidden.full_name not in str(body)
    response = _get(f"/api/v1/ladders/pulya/persons/{hidden.pk}/history/")
    assert response.status_code == 404
    assert hidden.full_name not in response.content.decode()


def test_an_unknown_ladder_or_a_person_not_on_it_is_a_404(built, director, other_director):
    _ladder, persons, _events = built
    assert _get("/api/v1/ladders/nowhere/").status_code == 404
    assert _get(f"/api/v1/ladders/nowhere/persons/{persons[5].pk}/history/").status_code == 404
    newcomer = Person.objects.create(owner=director, last_name="Новиков", first_name="Ян")
    stranger = Person.objects.create(owner=other_director, last_name="Чужой", first_name="Ян")
    Ladder.objects.create(owner=other_director, name="Другой клуб", slug="drugoy")
    for person in (newcomer, stranger):
        url = f"/api/v1/ladders/pulya/persons/{person.pk}/history/"
        assert _get(url).status_code == 404
    # The other club's ladder knows nobody of this one.
    url = f"/api/v1/ladders/drugoy/persons/{persons[5].pk}/history/"
    assert _get(url).status_code == 404
    assert _get("/api/v1/ladders/drugoy/").json()["standings"] == []
    assert _get("/api/v1/ladders/pulya/persons/99999999/history/").status_code == 404


@pytest.mark.parametrize(("language", "words"), [("ru", "не найдена"), ("en", "Not found")])
def test_a_404_speaks_the_callers_language(language, words):
    response = _get("/api/v1/ladders/nowhere/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert words in response.json()["detail"]


def test_a_ladder_never_built_says_so(director):
    Ladder.objects.create(owner=director, name="Новый клуб", slug="novy")
    body = _get("/api/v1/ladders/novy/").json()
    assert body["built_at"] is None and body["is_current"] is False
    assert body["standings"] == []


def test_the_ladder_is_read_only(built):
    client = APIClient()
    assert client.post("/api/v1/ladders/pulya/", {}, format="json").status_code in (401, 403, 405)
    assert client.delete("/api/v1/ladders/pulya/").status_code in (401, 403, 405)
    assert Ladder.objects.filter(slug="pulya").exists()
