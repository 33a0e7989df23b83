"""An existing database migrates forward with its data (issue 12): a database as this
session found it — sets, deals, table-plays and sheets made by the scoring app, players
without a PIN — goes to the latest migrations; every row is still there, now read through
``events.models`` (the boxes moved there without the tables being touched), each sheet
still points at its deal and table-play, and every player got a PIN of his own."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

BEFORE = [
    ("events", "0005_artificial_scores_message"),
    ("scoring", "0003_late_sheets_and_reopened_tables"),
]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def test_the_boxes_and_sheets_move_forward_with_every_row():
    old = _migrate(BEFORE)
    User = old.get_model("auth", "User")
    Event = old.get_model("events", "Event")
    Session = old.get_model("events", "Session")
    Room = old.get_model("events", "Room")
    Table = old.get_model("events", "Table")
    Round = old.get_model("events", "Round")
    Entry = old.get_model("events", "Entry")
    BoardSet = old.get_model("scoring", "BoardSet")
    Deal = old.get_model("scoring", "Deal")
    TablePlay = old.get_model("scoring", "TablePlay")
    ScoreSheet = old.get_model("scoring", "ScoreSheet")
    Version = old.get_model("scoring", "ScoreSheetVersion")

    owner = User.objects.create(username="old-judge")
    event = Event.objects.create(owner=owner, name="Старый турнир", date=datetime.date(2026, 11, 1))
    entries = [
        Entry.objects.create(event=event, last_name=f"Игрок{i}", first_name="Пётр", key=f"k{i}")
        for i in range(1, 7)
    ]
    session = Session.objects.create(event=event, participants=6)
    room = Room.objects.create(
        session=session, number=1, kind="prime", seats=3, rounds_planned=1, participants=6
    )
    tables = [Table.objects.create(room=room, number=n, seats=3, key=f"t{n}") for n in (1, 2)]
    rnd = Round.objects.create(room=room, number=1)
    sets = [BoardSet.objects.create(session=session, number=n, players=3) for n in (1, 2)]
    deals = [
        Deal.objects.create(
            board_set=s, number=d, first_hand="NES"[d - 1], talon_pocket="W", active_seats="NES"
        )
        for s in sets
        for d in (1, 2, 3)
    ]
    plays = [
        TablePlay.objects.create(round=rnd, table=t, board_set=s)
        for t, s in zip(tables, sets, strict=True)
    ]
    sheet = ScoreSheet.objects.create(play=plays[0], deal=deals[0], status="entered")
    version = Version.objects.create(
        sheet=sheet,
        number=1,
        data={"contract": "passed"},
        result={"scores": {}},
        entered_by_entry=entries[0],
    )
    ScoreSheet.objects.filter(pk=sheet.pk).update(current=version)

    _migrate(_latest())

    from events.models import BoardSet as NewSet
    from events.models import Deal as NewDeal
    from events.models import Entry as NewEntry
    from events.models import TablePlay as NewPlay
    from scoring.models import Proof
    from scoring.models import ScoreSheet as NewSheet

    assert NewSet.objects.filter(session_id=session.pk).count() == 2
    assert NewDeal.objects.filter(board_set__session_id=session.pk).count() == 6
    assert set(NewPlay.objects.values_list("pk", flat=True)) == {p.pk for p in plays}
    moved = NewSheet.objects.select_related("deal__board_set", "play__table", "current").get(
        pk=sheet.pk
    )
    assert moved.deal.code == "1.1" and moved.play.table.number == 1
    assert moved.current.data == {"contract": "passed"}
    assert moved.current.proof == Proof.NONE  # written before the two-person rule
    pins = list(NewEntry.objects.filter(event_id=event.pk).values_list("pin", flat=True))
    assert len(pins) == 6 and all(re.fullmatch(r"\d{4}", p) for p in pins)
    assert len(set(pins)) > 1  # each his own, not one value for all
    # Every table-round got a round link of its own (issue 26), none shared.
    keys = list(NewPlay.objects.filter(pk__in=[p.pk for p in plays]).values_list("key", flat=True))
    assert len(set(keys)) == 2 and all(len(k) >= 22 for k in keys)
