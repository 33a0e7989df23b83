"""Benchmark of the club ladder's pure core (issue 24): prints figures, asserts nothing.

    .venv/bin/python bench/bench_ladder.py [--persons 300] [--sessions 200] [--players 40]
                                           [--repeat 5]

- replay: the full recompute of ``pct_grade_v1`` (``scoring.ladder.replay``) over a ladder
  of 300 persons and 200 sessions of 40 players, in-process — the median of 5 runs. The
  ladder's goal is ≤ 1 s for the whole recompute with the database reads, so the core's
  share should stay well under 0.2 s;
- the same ladder through ``ladder replay --json``'s reading and answer
  (``scoring.ladder.replay_json``), for scale;
- on PostgreSQL (a throwaway database, preference_bench_ladder; ``--no-db`` skips it): the
  app's full recompute ``scoring.ladder.services.ladder_recompute`` of a ladder of 300 persons over
  200 published matchpoint sessions of 40 players (10 tables of 4), with every database
  read and the rows written — the median of ``--repeat`` runs, goal ≤ 1 s — and the public
  ladder page's and a person page's time through the Django test client, served from the
  cache of a fresh recompute (the median of 20 requests each; goal ≤ 50 ms), beside their
  first, uncached render and an event's standings page with its links to the ladder.

The data is written with bulk inserts (what is measured is the ladder's code): events
(matchpoints, results public), one session each, a room, 10 tables, rounds all finished,
players linked to persons, each player's SessionTotal (an exact "num/den" total over 24
deals) and the session's SessionScoring with the event's rules key, so that nothing is
recomputed from sheets.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchdb import throwaway_database  # noqa: E402
from scoring.ladder import Entry, Session, replay, replay_json  # noqa: E402


def club_ladder(rng: random.Random, persons: int, sessions: int, players: int) -> list[Session]:
    """A season: a session a day or two apart, each of ``players`` drawn from the club,
    matchpoint-like percentages around 50 and 16–32 deals (a few below 8: not rated)."""
    people = [f"person-{i}" for i in range(persons)]
    day = datetime.date(2025, 9, 1)
    out = []
    for i in range(sessions):
        day += datetime.timedelta(days=rng.choice((1, 2, 3)))
        entries = tuple(
            Entry(p, min(100.0, max(0.0, rng.gauss(50, 9))), rng.choice((4, 16, 20, 24, 28, 32)))
            for p in rng.sample(people, players)
        )
        out.append(Session(f"s{i}", day, players // 4, entries))
    return out


def as_json(sessions: list[Session]) -> dict:
    return {
        "sessions": [
            {
                "id": s.id,
                "date": s.date.isoformat(),
                "tables": s.tables,
                "players": [
                    {"person": e.person, "percent": e.percent, "deals": e.deals} for e in s.players
                ],
            }
            for s in sessions
        ]
    }


def timed(function, argument, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function(argument)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--persons", type=int, default=300)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-db", action="store_true", help="the pure core only")
    args = parser.parse_args()
    sessions = club_ladder(random.Random(24), args.persons, args.sessions, args.players)
    core = timed(replay, sessions, args.repeat)
    ladder = replay(sessions)
    median = statistics.median(core)
    print(
        f"Ladder pct_grade_v1 replay: {args.persons} persons, {args.sessions} sessions of "
        f"{args.players} players ({len(ladder.history)} rated rows)"
    )
    print(
        f"  core in-process: median {median:.3f} s, best {min(core):.3f} s over {args.repeat} "
        f"runs (goal: well under 0.2 s, so the recompute with its database reads fits in "
        f"1 s: {'met' if median < 0.2 else 'NOT met'})"
    )
    request = json.loads(json.dumps(as_json(sessions)))
    through_json = statistics.median(timed(replay_json, request, args.repeat))
    print(f"  with the JSON reading and answer (ladder replay --json): median {through_json:.3f} s")
    if not args.no_db:
        with throwaway_database(DB_NAME):
            in_the_app(args)


# --- the app's recompute and pages, on PostgreSQL -----------------------------------------

DB_NAME = "preference_bench_ladder"
TABLES, SEATS, DEALS = 10, 4, 24


def build_club(rng: random.Random, persons: int, sessions: int, players: int):
    """The club's register and a season of published matchpoint events, one session each,
    every round finished and every total cached (nothing left to recompute)."""
    from fractions import Fraction

    from django.contrib.auth import get_user_model

    from events.models import Entry, Event, Person, Room, Round, Session, Table
    from scoring.models import Ladder, SessionScoring, SessionTotal
    from scoring.standings import rules_key

    director = get_user_model().objects.create_user("bench-ladder", password="bench-pass-1")
    people = Person.objects.bulk_create(
        Person(
            owner=director,
            last_name=f"Игроков{i:03d}",
            first_name="Пётр",
            club=("ЦДШ", "Пуля", "Тула", "")[i % 4],
            key=f"игроков{i:03d}петр",
        )
        for i in range(persons)
    )
    day = datetime.date(2025, 1, 6)
    events = []
    for i in range(sessions):
        day += datetime.timedelta(days=rng.choice((3, 4)))
        events.append(
            Event(
                owner=director,
                name=f"Вечер клуба {i + 1}",
                date=day,
                scoring_method=Event.ScoringMethod.MATCHPOINTS,
                results_public=True,
            )
        )
    events = Event.objects.bulk_create(events)
    made = Session.objects.bulk_create(
        Session(event=e, number=1, participants=players) for e in events
    )
    rooms = Room.objects.bulk_create(
        Room(
            session=s,
            number=1,
            kind="skip",
            seats=SEATS,
            rounds_planned=players // SEATS,
            participants=players,
        )
        for s in made
    )
    Table.objects.bulk_create(
        (Table(room=r, number=t + 1, seats=SEATS) for r in rooms for t in range(TABLES)),
        batch_size=5000,
    )
    Round.objects.bulk_create(
        (
            Round(room=r, number=n + 1, state=Round.State.FINISHED)
            for r in rooms
            for n in range(players // SEATS)
        ),
        batch_size=5000,
    )
    seated = {e.pk: rng.sample(people, players) for e in events}
    entries = Entry.objects.bulk_create(
        (
            Entry(
                event=e,
                last_name=p.last_name,
                first_name=p.first_name,
                club=p.club,
                number=n + 1,
                person=p,
            )
            for e in events
            for n, p in enumerate(seated[e.pk])
        ),
        batch_size=5000,
    )
    by_event: dict[int, list] = {}
    for entry in entries:
        by_event.setdefault(entry.event_id, []).append(entry)
    totals = []
    for session, event in zip(made, events, strict=True):
        for entry in by_event[event.pk]:
            percent = min(100.0, max(0.0, rng.gauss(50, 9)))
            total = Fraction(round(percent * 100), 100) * DEALS / 100
            totals.append(
                SessionTotal(
                    session=session,
                    entry=entry,
                    total=f"{total.numerator}/{total.denominator}",
                    deals=DEALS,
                )
            )
    SessionTotal.objects.bulk_create(totals, batch_size=5000)
    SessionScoring.objects.bulk_create(
        SessionScoring(session=s, rules_key=rules_key(e)) for s, e in zip(made, events, strict=True)
    )
    ladder = Ladder.objects.create(owner=director, name="Клуб «Пуля»", slug="bench-pulya")
    return ladder, events


def _median_ms(function, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000, min(times) * 1000


def in_the_app(args) -> None:
    from django.db import connection
    from django.db.models import F
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from scoring.ladder import services as ladders
    from scoring.ladder.links import ladder_links
    from scoring.models import Ladder, LadderGrade, LadderRow

    rng = random.Random(24)
    started = time.perf_counter()
    ladder, events = build_club(rng, args.persons, args.sessions, args.players)
    print(
        f"Ladder in the app (PostgreSQL): {args.persons} persons, {args.sessions} published "
        f"sessions of {args.players} players ({TABLES} tables of {SEATS}) built in "
        f"{time.perf_counter() - started:.1f} s"
    )

    def recompute():
        Ladder.objects.filter(pk=ladder.pk).update(wanted=F("wanted") + 1)
        assert ladders.ladder_recompute(ladder.pk)

    recompute()  # once untimed: the rows of the timed runs replace rows, as in use
    with CaptureQueriesContext(connection) as queries:
        recompute()
    full, best = _median_ms(recompute, args.repeat)
    read, _best = _median_ms(lambda: ladders.ladder_replay(ladder), args.repeat)
    rows = LadderRow.objects.filter(ladder=ladder).count()
    print(
        f"  full recompute (ladders.ladder_recompute: reads, replay, {rows} rows written): "
        f"median {full:.0f} ms, best {best:.0f} ms over {args.repeat} runs, "
        f"{len(queries.captured_queries)} queries (goal ≤ 1000 ms: "
        f"{'met' if full <= 1000 else 'NOT met'}); of which the reads and the replay "
        f"(ladders.ladder_replay) {read:.0f} ms"
    )

    client = Client(HTTP_HOST="127.0.0.1")
    page = reverse("ladder:ladder", args=[ladder.slug])
    person = (
        LadderGrade.objects.filter(ladder=ladder)
        .order_by("-sessions", "person_id")
        .values_list("person_id", flat=True)
        .first()
    )
    person_page = reverse("ladder:person", args=[ladder.slug, person])
    client.get("/favicon.ico")  # the URLs and middleware imported: not the first page's cost
    recompute()  # a fresh recompute: the pages' keys are new
    for name, url in (("ladder page", page), ("person page", person_page)):
        first, _b = _median_ms(lambda url=url: client.get(url), 1)
        assert client.get(url).status_code == 200
        median, best = _median_ms(lambda url=url: client.get(url), 20)
        print(
            f"  {name} {url}: from the cache median {median:.1f} ms, best {best:.1f} ms "
            f"(goal ≤ 50 ms: {'met' if median <= 50 else 'NOT met'}); first render "
            f"{first:.0f} ms"
        )
    standings = reverse("public:event", args=[events[-1].slug])
    client.get(standings)
    median, _b = _median_ms(lambda: client.get(standings), 10)
    links, _b = _median_ms(lambda: ladder_links(events[-1]), 10)
    print(
        f"  an event's standings page with its {args.players} links to the ladder: "
        f"median {median:.1f} ms, of which the links' one query {links:.1f} ms"
    )


if __name__ == "__main__":
    main()
