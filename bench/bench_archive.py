"""The event archive and the evening's backup (issue 35). Prints figures; asserts nothing.

    .venv/bin/python bench/bench_archive.py [--rounds 8]

The field: 100 tables × 4 players (400), three sessions of ``--rounds`` rounds, each table
playing a set of 4 deals a round, every sheet confirmed (3 × 100 × 8 × 4 = 9,600 sheets
and their versions, 9,600 seats): a big evening.

- export: ``event_archive`` of the event on PostgreSQL (goal ≤ 10 s), its size;
- import: ``archive_import`` of that file on PostgreSQL under another director with new keys
  (goal ≤ 10 s);
- on the embedded default (SQLite, its own var/ in a temporary folder, another process):
  ``manage.py event_import`` of the same file, then ``manage.py backup`` — the evening's
  backup's time and size for that database.

Uses a throwaway database (preference_bench_archive), created and dropped here.
"""

import argparse
import io
import os
import random
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_standings import random_sheet  # noqa: E402
from bench.benchdb import throwaway_database  # noqa: E402

DB_NAME = "preference_bench_archive"
TABLES, SEATS, SESSIONS, SET_DEALS = 100, 4, 3, 4


def build(rng, rounds: int):
    """The field, written with bulk inserts (the archive is what is measured)."""
    from django.contrib.auth import get_user_model

    from events import boards
    from events.models import Entry, Event, Room, Round, Seat, Session, Table
    from scoring.games import sheets_of
    from scoring.models import BoardSet, Deal, ScoreSheet, ScoreSheetVersion, TablePlay

    director = get_user_model().objects.create_user("bench-archive", password="bench-pass-1")
    event = Event.objects.create(owner=director, name="Bench archive", date="2026-12-04")
    adapter = sheets_of(event)
    entries = Entry.objects.bulk_create(
        Entry(event=event, last_name=f"P{i:03d}", first_name="X", number=i + 1)
        for i in range(TABLES * SEATS)
    )
    sheets_made = 0
    for number in range(1, SESSIONS + 1):
        session = Session.objects.create(event=event, number=number, participants=len(entries))
        room = Room.objects.create(
            session=session,
            number=1,
            kind="skip",
            seats=SEATS,
            rounds_planned=rounds,
            participants=len(entries),
        )
        tables = Table.objects.bulk_create(
            Table(room=room, number=t + 1, seats=SEATS) for t in range(TABLES)
        )
        round_rows = Round.objects.bulk_create(
            Round(room=room, number=r + 1, state="finished") for r in range(rounds)
        )
        sets = BoardSet.objects.bulk_create(
            BoardSet(session=session, number=s + 1, players=SEATS) for s in range(rounds)
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
        for r, rnd in enumerate(round_rows):
            for t, table in enumerate(tables):
                plays.append(TablePlay(round=rnd, table=table, board_set=sets[(t + r) % rounds]))
                for p, position in enumerate("WNES"):
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
        sheets_made += len(sheets)
    return event, sheets_made


def on_sqlite(archive: bytes) -> None:
    """The archive imported on the embedded default in another process, then backed up."""
    with tempfile.TemporaryDirectory(prefix="bench-archive-") as folder:
        var = Path(folder) / "var"
        var.mkdir()
        path = Path(folder) / "event.zip"
        path.write_bytes(archive)
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env["VAR_DIR"] = str(var)

        def manage(*args: str) -> tuple[float, str]:
            started = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "manage.py", *args],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            took = time.perf_counter() - started
            if done.returncode != 0:
                raise SystemExit(done.stdout + done.stderr)
            return took, done.stdout.strip()

        manage("migrate", "--noinput", "-v0")
        manage(
            "shell",
            "-c",
            "from django.contrib.auth import get_user_model; "
            "get_user_model().objects.create_superuser('director', password='bench-pass-1')",
        )
        took, _ = manage("event_import", str(path))
        print(f"archive: manage.py event_import on SQLite: {took:.1f} s (with the command's start)")
        took, where = manage("backup")
        size = Path(where).stat().st_size
        db = (var / "db.sqlite3").stat().st_size
        print(
            f"backup: manage.py backup on SQLite: {took:.2f} s (with the command's start), "
            f"{size / 1e6:.1f} MB (database {db / 1e6:.1f} MB)"
        )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    with throwaway_database(DB_NAME):
        from django.contrib.auth import get_user_model

        from scoring.archive import archive_import, event_archive
        from scoring.archive.reading import MAX_RATIO

        rng = random.Random(2026)
        started = time.perf_counter()
        event, sheets = build(rng, args.rounds)
        print(
            f"archive: field of {TABLES} tables, {SESSIONS} sessions × {args.rounds} rounds "
            f"({sheets} sheets) built in {time.perf_counter() - started:.1f} s"
        )
        out = io.BytesIO()
        started = time.perf_counter()
        manifest = event_archive(event, out)
        took = time.perf_counter() - started
        rows = sum(m["rows"] for m in manifest["members"].values())
        unpacked = sum(m["size"] for m in manifest["members"].values())
        print(
            f"archive: export on PostgreSQL {took:.2f} s (goal ≤ 10 s): {rows} rows, "
            f"{len(out.getvalue()) / 1e6:.1f} MB packed, {unpacked / 1e6:.1f} MB of JSON"
        )
        infos = zipfile.ZipFile(io.BytesIO(out.getvalue())).infolist()
        worst = max(infos, key=lambda i: i.file_size / max(i.compress_size, 1))
        print(
            f"archive: most packed member {worst.filename}: "
            f"{worst.file_size / max(worst.compress_size, 1):.0f} : 1 "
            f"(the import refuses above {MAX_RATIO} : 1 for members over 1 MB)"
        )
        importer = get_user_model().objects.create_user("bench-importer", password="x-pass-12")
        started = time.perf_counter()
        done = archive_import(io.BytesIO(out.getvalue()), importer, new_keys=True)
        print(
            f"archive: import on PostgreSQL {time.perf_counter() - started:.2f} s "
            f"(goal ≤ 10 s): {done.rows} rows"
        )
        on_sqlite(out.getvalue())


if __name__ == "__main__":
    main()
