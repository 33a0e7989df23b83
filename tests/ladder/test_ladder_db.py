"""The ladder in the app (scoring.ladder.services): the sessions it replays are the published,
finished sessions of the owner's matchpoint events; each rated line is the published
session standing's percentage and deals of a player linked to a person; the rows written
equal the core's replay of exactly those figures, read here from the standings the pages
show; a correction after publishing, hiding the results, a points event, a session still
being played, and the worker's replay."""

import datetime
import random

import pytest

from events import services as event_services
from events.models import Event, Person
from movements import planner
from movements.services import session_create
from scoring import ladder as core
from scoring import standings
from scoring.ladder import services as ladders
from scoring.models import Ladder, LadderGrade, LadderRow, ScoreSheet, TablePlay
from scoring.sheets import services
from tests.factories import play_out, wait_until
from tests.scoring.standings.test_standings import random_sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder(director):
    return Ladder.objects.create(owner=director, name="Клуб «Пуля»", slug="pulya")


@pytest.fixture
def persons(director):
    return [
        Person.objects.create(owner=director, last_name=f"Семёнов{i:02d}", first_name="Пётр")
        for i in range(12)
    ]


def _seat(event, people):
    for person in people:
        entry = event_services.entry_create(
            event, last_name=person.last_name, first_name=person.first_name
        )
        entry.person = person
        entry.save(update_fields=["person"])
    event_services.draw_make(event, seed="ladder")
    (option, *_others) = planner.plan(len(people)).as_dict()["options"]
    return session_create(event, option)  # 9 players: the 9 scheme, two tables of four


def record_every_sheet(session, director, seed) -> None:
    """A random valid sheet for every deal of every table-round, by the director."""
    rng = random.Random(seed)
    plays = TablePlay.objects.filter(round__room__session=session).select_related(
        "round__room__session__event", "table", "board_set"
    )
    for play in plays.order_by("round__number", "table__number"):
        for deal in play.board_set.deals.order_by("number"):
            services.sheet_record(
                play, deal, random_sheet(rng, deal.active_seats), by_user=director
            )


def played(director, day, people, *, seed, method="matchpoints", publish=True, finish=True):
    """An event of ``people`` (9: two tables of four), every deal's sheet recorded, its rounds
    ended, its results published."""
    event = Event.objects.create(
        owner=director, name=f"Вечер {day}", date=day, scoring_method=method
    )
    session = _seat(event, people)
    record_every_sheet(session, director, seed)
    if finish:
        play_out(session)
    if publish:
        event_services.event_set_results_public(event, True)
    return event, session


def independent(ladder_obj, events):
    """The core's replay of the published standings as the pages show them: each session's
    rows, percentage as shown (two decimals), deals; tables counted from the session."""
    given = []
    for event in sorted(events, key=lambda e: (e.date, e.pk)):
        for session in event.sessions.order_by("number"):
            rows = standings.session_standings(session)
            players = tuple(
                core.Entry(row.entry.person_id, float(row.shown), row.deals)
                for row in rows
                if row.entry.person_id and row.deals
            )
            tables = sum(room.tables.count() for room in session.rooms.all())
            given.append(core.Session(session.pk, event.date, tables, players))
    return core.replay(given, ladders.params_of(ladder_obj))


def written(ladder_obj):
    grades = {g.person_id: g for g in LadderGrade.objects.filter(ladder=ladder_obj)}
    rows = list(LadderRow.objects.filter(ladder=ladder_obj).order_by("order", "person_id"))
    return grades, rows


def assert_equal(ladder_obj, expected):
    grades, rows = written(ladder_obj)
    rated = {p: s for p, s in expected.standings.items() if s.sessions}
    assert set(grades) == set(rated)
    for person, standing in rated.items():
        assert grades[person].grade == pytest.approx(standing.grade, abs=1e-9)
        assert grades[person].deals == standing.deals
        assert grades[person].sessions == standing.sessions
        assert grades[person].last_rated == standing.last_rated
    history = sorted(expected.history, key=lambda r: (r.session, r.person))
    got = sorted(rows, key=lambda r: (r.session_id, r.person_id))
    assert [(r.session, r.person) for r in history] == [(r.session_id, r.person_id) for r in got]
    for want, row in zip(history, got, strict=True):
        for field in ("before", "expected", "actual", "after"):
            assert getattr(row, field) == pytest.approx(getattr(want, field), abs=1e-9)
        assert row.deals == want.deals


def test_the_rows_written_equal_the_replay_of_the_published_standings(director, ladder, persons):
    first, _ = played(director, datetime.date(2026, 3, 2), persons[:9], seed=1)
    second, _ = played(director, datetime.date(2026, 3, 9), persons[3:12], seed=2)
    assert ladders.ladder_recompute(ladder.pk)
    assert_equal(ladder, independent(ladder, [first, second]))
    grades, rows = written(ladder)
    assert len(grades) == 12 and len(rows) == 18
    ladder.refresh_from_db()
    assert ladder.is_current and ladder.built_at is not None
    # Deterministic: a second replay writes the same figures.
    before = {p: g.grade for p, g in grades.items()}
    Ladder.objects.filter(pk=ladder.pk).update(wanted=ladder.wanted + 1)
    assert ladders.ladder_recompute(ladder.pk)
    assert {p: g.grade for p, g in written(ladder)[0].items()} == before


def test_only_published_finished_matchpoint_sessions_count(director, ladder, persons):
    rated, _ = played(director, datetime.date(2026, 3, 2), persons[:9], seed=1)
    played(director, datetime.date(2026, 3, 3), persons[:9], seed=2, method="points")
    played(director, datetime.date(2026, 3, 4), persons[:9], seed=3, publish=False)
    played(director, datetime.date(2026, 3, 5), persons[:9], seed=4, finish=False)
    assert [s.event_id for s in ladders.published_sessions(director.pk)] == [rated.pk]
    ladders.ladder_recompute(ladder.pk)
    assert_equal(ladder, independent(ladder, [rated]))


def test_a_correction_after_publishing_asks_for_a_replay_and_moves_the_grades(
    director, ladder, persons
):
    event, session = played(director, datetime.date(2026, 3, 2), persons[:9], seed=1)
    ladders.ladder_recompute(ladder.pk)
    ladder.refresh_from_db()
    assert ladder.is_current
    sheet = ScoreSheet.objects.filter(play__round__room__session=session).select_related(
        "play__round__room__session__event", "deal"
    )[0]
    play = TablePlay.objects.select_related("round__room__session__event").get(pk=sheet.play_id)
    active = sheet.deal.active_seats
    services.sheet_record(
        play,
        sheet.deal,
        {
            "declarer": active[0],
            "contract": "game",
            "trump": "spades",
            "defenders": {active[1]: "pass", active[2]: "pass"},
        },
        by_user=director,
    )
    ladder.refresh_from_db()
    assert not ladder.is_current  # the correction counted, the replay is the worker's
    ladders.ladder_recompute(ladder.pk)
    assert_equal(ladder, independent(ladder, [event]))


def test_hiding_the_results_takes_the_event_off_the_ladder(director, ladder, persons):
    event, _ = played(director, datetime.date(2026, 3, 2), persons[:9], seed=1)
    ladders.ladder_recompute(ladder.pk)
    assert LadderGrade.objects.filter(ladder=ladder).count() == 9
    event_services.event_set_results_public(event, False)
    ladder.refresh_from_db()
    assert not ladder.is_current
    ladders.ladder_recompute(ladder.pk)
    assert not LadderGrade.objects.filter(ladder=ladder).exists()


def test_an_older_replay_never_overwrites_a_newer_one(director, ladder, persons):
    played(director, datetime.date(2026, 3, 2), persons[:9], seed=1)
    ladder.refresh_from_db()
    Ladder.objects.filter(pk=ladder.pk).update(built=ladder.wanted)
    assert not ladders.ladder_recompute(ladder.pk)
    assert not LadderGrade.objects.filter(ladder=ladder).exists()


@pytest.mark.django_db(transaction=True)
def test_the_worker_replays_the_ladder_once_the_results_are_published(
    director, celery_worker_process
):
    ladder_obj = Ladder.objects.create(owner=director, name="Клуб", slug="club-worker")
    people = [
        Person.objects.create(owner=director, last_name=f"Рабочий{i}", first_name="Иван")
        for i in range(9)
    ]
    event, _ = played(director, datetime.date(2026, 3, 2), people, seed=5, publish=False)
    event_services.event_set_results_public(event, True)

    def current():
        ladder_obj.refresh_from_db()
        return ladder_obj.is_current

    wait_until(current, timeout=30)
    assert_equal(ladder_obj, independent(ladder_obj, [event]))


def test_the_plain_insert_writes_many_batches_whole_on_either_backend(director, ladder, persons):
    """ladders._insert's hand-written INSERT: more rows than one statement takes (SQLite
    allows 999 parameters, 83 rows of 12), every value read back as written."""
    event, session = played(director, datetime.date(2026, 3, 2), persons[:9], seed=1)
    entry = event.entries.first()
    rows = [
        (ladder.pk, persons[i % 9].pk, session.pk, entry.pk, i, "2026-03-02",
         50.0 + i / 1000, 50.5, 61.25, 50.0 + i / 999, 24, 0.0075)
        for i in range(2500)
    ]  # fmt: skip
    LadderRow.objects.filter(ladder=ladder).delete()
    ladders._insert(LadderRow, ladders.ROW_COLUMNS, rows)
    got = list(
        LadderRow.objects.filter(ladder=ladder).order_by("order").values_list(*ladders.ROW_COLUMNS)
    )
    assert len(got) == 2500
    assert [(*r[:5], r[5].isoformat(), *r[6:]) for r in got] == rows
