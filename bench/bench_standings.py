"""Standings speed on PostgreSQL: 400 players, 100 deals. Prints figures; asserts nothing.

    .venv/bin/python bench/bench_standings.py [--runs 5] [--saves 30]

The field: one room of 100 tables × 4 players, 25 rounds; 25 sets of 4 deals (100 deals),
each set played by 4 tables every round, so every deal is played at 100 tables and every
player is scored on 75 deals (he deals and sits out one of four). 10 000 score sheets.

- full recompute: every deal compared and every total rebuilt (``session_recompute``);
  target ≤ 1 s;
- save and re-read: a director's correction through ``sheet_record`` (which recomputes the
  deal on commit) followed by reading the session's standings; target ≤ 100 ms;
- read: the standings alone, from the cache;
- the same field playing Сочи (issue 22): random valid Russian sheets (numeric contracts
  with every defence, мизер, распасы), the full recompute beside the Austrian one of the
  same run; target within 1.2× of it.

Uses a throwaway database (preference_bench_standings), created and dropped here.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.benchdb import throwaway_database  # noqa: E402

DB_NAME = "preference_bench_standings"
TABLES, SEATS, ROUNDS, SETS = 100, 4, 25, 25


def random_sheet(rng, active):
    declarer = rng.choice(active)
    first, second = [s for s in active if s != declarer]
    decisions = rng.choice([("whist", "whist"), ("whist", "pass"), ("pass", "whist")])
    data = {
        "declarer": declarer,
        "contract": "game",
        "trump": rng.choice(["spades", "clubs", "diamonds"]),
        "defenders": {first: decisions[0], second: decisions[1]},
    }
    playing = [declarer] + [
        s for s, d in zip((first, second), decisions, strict=True) if d != "pass"
    ]
    cuts = sorted(rng.randint(0, 10) for _ in range(len(playing) - 1))
    bounds = [0, *cuts, 10]
    data["tricks"] = {s: bounds[i + 1] - bounds[i] for i, s in enumerate(playing)}
    return data


def random_russian_sheet(rng, active):
    """A valid Сочи sheet in the scorer's fields for the deal's ``active`` seats (the kinds
    of bench/bench_russian.py: numeric contracts with every defence, мизер, распасы)."""
    from bench.bench_russian import random_deal
    from scoring.games.russian import Convention, Rules

    deal = random_deal(rng, active, Rules(Convention.SOCHI))
    data = {"contract": deal.contract.code}
    if deal.declarer is not None:
        data["declarer"] = deal.declarer.value
    if deal.defenders:
        data["defenders"] = {s.value: d.value for s, d in deal.defenders.items()}
    if deal.tricks:
        data["tricks"] = {s.value: t for s, t in deal.tricks.items()}
    return data


def build(rng, game: str = "austrian"):
    """The field, written with bulk inserts (the scoring code is what is measured), for an
    event of ``game``; its sheets checked and settled by the game's own adapter."""
    from django.contrib.auth import get_user_model

    from events import boards
    from events.models import Entry, Event, Room, Round, Seat, Session, Table
    from scoring.games import sheets_of
    from scoring.models import BoardSet, Deal, ScoreSheet, ScoreSheetVersion, TablePlay

    user = f"bench-{game}"
    director = get_user_model().objects.create_user(user, password="bench-pass-1")
    event = Event.objects.create(owner=director, name=f"Bench {game}", date="2026-12-01", game=game)
    adapter = sheets_of(event)
    make_sheet = random_sheet if game == "austrian" else random_russian_sheet
    entries = Entry.objects.bulk_create(
        Entry(event=event, last_name=f"P{i:03d}", first_name="X", number=i + 1)
        for i in range(TABLES * SEATS)
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
    tables = Table.objects.bulk_create(
        Table(room=room, number=t + 1, seats=SEATS) for t in range(TABLES)
    )
    rounds = Round.objects.bulk_create(Round(room=room, number=r + 1) for r in range(ROUNDS))
    sets = BoardSet.objects.bulk_create(
        BoardSet(session=session, number=s + 1, players=SEATS) for s in range(SETS)
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
        for t, table in enumerate(tables):
            plays.append(TablePlay(round=rnd, table=table, board_set=sets[(t + r) % SETS]))
            for p, position in enumerate("WNES"):
                # Lines move as in a prime movement, so that players meet different people.
                who = ((t + p * (r + 1)) % TABLES) * SEATS + p
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
    for play in plays:
        for deal in deals[play.board_set_id]:
            data = make_sheet(rng, deal.active_seats)
            parsed, settlement = adapter.settle(adapter.request(event, deal, data))
            result = adapter.result(parsed, settlement)
            sheets.append(ScoreSheet(play=play, deal=deal, status="confirmed"))
            payloads.append((data, result))
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
    return director, session, sheets


def timed(fn):
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--saves", type=int, default=30)
    args = parser.parse_args()
    with throwaway_database(DB_NAME):
        from events.models import Session
        from scoring import standings
        from scoring.models import DealScore
        from scoring.sheets import services

        rng = random.Random(2026)
        started = time.perf_counter()
        director, session, sheets = build(rng)
        print(
            f"standings: field built in {time.perf_counter() - started:.1f} s "
            f"({len(sheets)} sheets)"
        )
        session = Session.objects.select_related("event").get(pk=session.pk)

        full = [timed(lambda: standings.session_recompute(session)) for _ in range(args.runs)]
        rows = standings.session_standings(session)
        print(
            f"standings: full recompute of {len(rows)} players × 100 deals "
            f"({DealScore.objects.count()} figures): median {statistics.median(full) * 1000:.0f} ms, "
            f"best {min(full) * 1000:.0f} ms (target ≤ 1000 ms)"
        )

        saves, reads = [], []
        for _ in range(args.saves):
            sheet = rng.choice(sheets)
            play, deal = sheet.play, sheet.deal
            data = random_sheet(rng, deal.active_seats)

            def save_and_read(play=play, deal=deal, data=data):
                services.sheet_record(play, deal, data, by_user=director)
                standings.session_standings(session)

            saves.append(timed(save_and_read))
            reads.append(timed(lambda: standings.session_standings(session)))
        print(
            f"standings: save one sheet (deal recomputed on commit) and re-read the standings: "
            f"median {statistics.median(saves) * 1000:.0f} ms, "
            f"p90 {sorted(saves)[int(0.9 * len(saves)) - 1] * 1000:.0f} ms (target ≤ 100 ms)"
        )
        print(
            f"standings: read the standings alone: median {statistics.median(reads) * 1000:.1f} ms"
        )

        # The same field playing Сочи: the full recompute beside the Austrian one.
        started = time.perf_counter()
        _director, sochi, _sheets = build(random.Random(22), "sochi")
        print(f"standings, Сочи: field built in {time.perf_counter() - started:.1f} s")
        sochi = Session.objects.select_related("event").get(pk=sochi.pk)
        # In the same conditions: the Сочи figures once untimed (the Austrian ones already
        # replace rows written before, as these then do), then the two alternately, so that
        # the load of a shared machine and the table's state weigh on both alike.
        standings.session_recompute(sochi)
        russian, austrian = [], []
        for _ in range(args.runs):
            russian.append(timed(lambda: standings.session_recompute(sochi)))
            austrian.append(timed(lambda: standings.session_recompute(session)))
        ratio = statistics.median(russian) / statistics.median(austrian)
        print(
            f"standings, Сочи: full recompute of {len(standings.session_standings(sochi))} "
            f"players × 100 Russian deals: median {statistics.median(russian) * 1000:.0f} ms, "
            f"{ratio:.2f}× the Austrian {statistics.median(austrian) * 1000:.0f} ms of this run "
            f"(target ≤ 1.2×)"
        )

        # The cache kept deal by deal must equal a rebuild.
        kept = [(r.rank, r.entry.pk, r.total) for r in standings.session_standings(session)]
        standings.session_recompute(session)
        rebuilt = [(r.rank, r.entry.pk, r.total) for r in standings.session_standings(session)]
        print(f"standings: incremental cache equals a full rebuild: {kept == rebuilt}")


if __name__ == "__main__":
    main()
