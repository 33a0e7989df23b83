"""What the rule of who sees a deal costs (docs/game.md §4.5), at 25 and 100 tables.
Prints figures; asserts nothing.

    .venv/bin/python bench/bench_disclosure.py [--runs 20]

The field, for each size: one room of T tables × 4 players, 8 rounds in two halves, each
half with its own T/4 sets of 4 deals that travel (set s at table t in round r of a half:
(t + r) mod T/4, so every set is held by four tables a round and by others in the half's
later rounds). Rounds 1–4 are over (closed by the start of the next), round 5 runs with
half its sheets confirmed, rounds 6–8 wait; every sheet of rounds 1–4 is confirmed — so the
first half's deals are played out, the second half's not. The director has published the
standings.

Each page is asked through Django's test client, in process: its queries and its time,
first after a change (the shared cache of the rule emptied) and then again (the rule and
the counted totals from the cache). The rule's reading of a session is the same five
queries at either size; what a page adds is its own.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.benchdb import throwaway_database  # noqa: E402

DB_NAME = "preference_bench_disclosure"
SEATS, ROUNDS, OVER = 4, 8, 4


def build(tables: int, tag: str):
    import random

    from django.contrib.auth import get_user_model

    from bench.bench_standings import random_sheet
    from events import boards
    from events.models import Entry, Event, Room, Round, Seat, Session, Table
    from scoring.games import sheets_of
    from scoring.models import BoardSet, Deal, ScoreSheet, ScoreSheetVersion, TablePlay

    rng = random.Random(tables)
    sets_count = tables // 4  # a half's
    director = get_user_model().objects.create_user(f"bench-{tag}", password="bench-pass-1")
    event = Event.objects.create(
        owner=director, name=f"Bench {tag}", date="2026-12-01", results_public=True
    )
    adapter = sheets_of(event)
    entries = Entry.objects.bulk_create(
        Entry(event=event, last_name=f"P{i:03d}", first_name="X", number=i + 1)
        for i in range(tables * SEATS)
    )
    session = Session.objects.create(event=event, number=1, participants=len(entries))
    room = Room.objects.create(
        session=session,
        number=1,
        kind="skip",
        seats=SEATS,
        rounds_planned=ROUNDS,
        participants=len(entries),
    )
    table_rows = Table.objects.bulk_create(
        Table(room=room, number=t + 1, seats=SEATS) for t in range(tables)
    )
    states = ["finished"] * OVER + ["running"] + ["pending"] * (ROUNDS - OVER - 1)
    rounds = Round.objects.bulk_create(
        Round(room=room, number=r + 1, state=state) for r, state in enumerate(states)
    )
    sets = BoardSet.objects.bulk_create(
        BoardSet(session=session, number=s + 1, players=SEATS) for s in range(2 * sets_count)
    )
    Deal.objects.bulk_create(
        Deal(
            board_set=bs,
            number=layout.number,
            dealer=layout.dealer.value,
            first_hand=layout.first_hand.value,
            talon_pocket=layout.talon_pocket.value,
            active_seats="".join(s.value for s in layout.active_seats),
        )
        for bs in sets
        for layout in boards.set_layout(SEATS)
    )
    deals = {bs.pk: list(bs.deals.order_by("number")) for bs in sets}
    seats, plays = [], []
    for r, rnd in enumerate(rounds):
        for t, table in enumerate(table_rows):
            half = sets_count * (r >= OVER)
            plays.append(
                TablePlay(round=rnd, table=table, board_set=sets[half + (t + r) % sets_count])
            )
            for p, position in enumerate("WNES"):
                who = ((t + p * (r + 1)) % tables) * SEATS + p
                seats.append(
                    Seat(
                        round=rnd,
                        participant=who + 1,
                        entry=entries[who],
                        table=table,
                        position=position,
                    )
                )
    Seat.objects.bulk_create(seats, batch_size=5000)
    plays = TablePlay.objects.bulk_create(plays, batch_size=5000)
    sheets, payloads = [], []
    for i, play in enumerate(plays):
        number = i // tables + 1
        if number > OVER + 1 or (number == OVER + 1 and i % 2):
            continue
        for deal in deals[play.board_set_id]:
            data = random_sheet(rng, deal.active_seats)
            parsed, settlement = adapter.settle(adapter.request(event, deal, data))
            sheets.append(ScoreSheet(play=play, deal=deal, status="confirmed"))
            payloads.append((data, adapter.result(parsed, settlement)))
    sheets = ScoreSheet.objects.bulk_create(sheets, batch_size=5000)
    versions = ScoreSheetVersion.objects.bulk_create(
        (
            ScoreSheetVersion(sheet=s, number=1, data=d, result=r, entered_by_user=director)
            for s, (d, r) in zip(sheets, payloads, strict=True)
        ),
        batch_size=5000,
    )
    for s, v in zip(sheets, versions, strict=True):
        s.current = v
    ScoreSheet.objects.bulk_update(sheets, ["current"], batch_size=5000)
    running = [p for p in plays if p.round_id == rounds[OVER].pk]
    return event, session, running[0], entries[0]


class Counted:
    """The queries run inside it (a request resets Django's own query log as it starts)."""

    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)

    def __len__(self):
        return self.count


def counted(fn) -> tuple[Counted, float]:
    from django.db import connection

    found = Counted()
    with connection.execute_wrapper(found):
        started = time.perf_counter()
        fn()
        took = (time.perf_counter() - started) * 1000
    return found, took


def measure(label: str, fn, runs: int, forget) -> str:
    forget()
    cold, cold_ms = counted(fn)
    fn()
    warm, _ms = counted(fn)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return (
        f"{label:<34} after a change {len(cold):>3} queries {cold_ms:>6.1f} ms · "
        f"again {len(warm):>3} queries, median {statistics.median(times):>6.1f} ms"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with throwaway_database(DB_NAME):
        from django.conf import settings
        from django.test import Client

        from events import clockdoc
        from scoring import standings
        from scoring.standings import disclosure

        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]

        for tables in (25, 100):
            started = time.perf_counter()
            event, session, play, entry = build(tables, f"t{tables}")
            standings.session_refresh(session)
            shown = disclosure.session_disclosure(session)
            print(
                f"disclosure, {tables} tables × 4: field built in "
                f"{time.perf_counter() - started:.1f} s; {shown.count} of {shown.total} deals "
                "played out"
            )
            client = Client()

            def forget(session=session):
                clockdoc.room_changed(session.rooms.get().pk, clock=False)

            def get(url, client=client):
                def ask():
                    answer = client.get(url)
                    assert answer.status_code in (200, 302, 403), (url, answer.status_code)

                return ask

            deal = play.board_set.deals.order_by("number").first()
            pages = [
                (
                    "the rule: a session's reading",
                    lambda session=session: disclosure.session_disclosure(session),
                ),
                ("public standings of the session", get(f"/e/{event.slug}/results/sessions/1/")),
                ("public results (the event)", get(f"/e/{event.slug}/results/")),
                ("API standings", get(f"/api/v1/events/{event.pk}/standings/?session=1")),
                ("a player's card (public)", get(f"/e/{event.slug}/results/cards/{entry.number}/")),
                ("a player's own page", get(f"/p/{entry.key}/")),
                ("a table's deal page", get(f"/t/{play.key}/deals/{deal.number}/")),
            ]
            for label, fn in pages:
                print(f"disclosure, {tables} tables: " + measure(label, fn, args.runs, forget))


if __name__ == "__main__":
    main()
