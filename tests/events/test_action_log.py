"""The event's log («Журнал», issue 34): every director's action writes exactly one line, in
the service that makes the change and in its transaction — with who, the room and table
where known, and before → after; a refused change leaves none; a player's own write is no
director's action and leaves none either."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from events import rounds
from events import services as event_services
from events.actionlog import KINDS, line_row, log_lines, readable
from events.models import ActionLog, BoxReport, Entry, Round, Session
from movements.services import seat_substitute
from scoring.models import Adjustment, ScoreSheet, TablePlay
from scoring.sheets import boxes, services
from scoring.standings.disclosure import deals_show
from tests.factories import (
    THREE_DIAMONDS,
    deal_of,
    entry_at,
    finish,
    play_of,
    sheet,
    start,
)

pytestmark = pytest.mark.django_db


def _lines(event, action):
    """Run ``action``; the log lines it wrote (and what it answered)."""
    known = set(ActionLog.objects.filter(event=event).values_list("pk", flat=True))
    done = action()
    return list(ActionLog.objects.filter(event=event).exclude(pk__in=known)), done


def _one(event, action):
    lines, done = _lines(event, action)
    assert len(lines) == 1, [(line.kind, line.before, line.after) for line in lines]
    return lines[0], done


def _none(event, action, error=ValidationError):
    known = ActionLog.objects.filter(event=event).count()
    with pytest.raises(error):
        action()
    assert ActionLog.objects.filter(event=event).count() == known


@pytest.fixture
def running(session15):
    start(Round.objects.get(room__session=session15, number=1))
    return session15


@pytest.fixture
def play(running):
    return play_of(running, 1, 1)


OTHER = sheet(declarer="E", contract="one", trump="spades")


# --- the sheets -----------------------------------------------------------------------------


def test_a_sheet_the_director_enters_is_one_line_with_its_author_room_table_and_result(
    event, director, play
):
    deal = deal_of(play, 1)
    line, done = _one(
        event,
        lambda: services.sheet_record(
            play, deal, THREE_DIAMONDS, by_user=director, note="с бланка"
        ),
    )
    assert (line.kind, line.user, line.login) == ("sheet.record", director, "judge")
    assert (line.room, line.table) == (1, 1)
    assert line.summary == "с бланка"
    assert line.before is None
    assert line.after["sheet"] == done.sheet.pk
    assert line.after["version"] == 1 and line.after["status"] == "confirmed"
    assert line.after["data"]["contract"] == "three"
    assert line.after["deal"] == deal.code


def test_a_correction_keeps_the_result_before_and_after(event, director, play):
    deal = deal_of(play, 1)
    services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    line, done = _one(
        event, lambda: services.sheet_record(play, deal, OTHER, by_user=director, note="ошибка")
    )
    assert done.outcome == "corrected"
    assert line.kind == "sheet.correct" and line.login == "judge"
    assert (line.before["version"], line.after["version"]) == (1, 2)
    assert line.before["data"]["contract"] == "three"
    assert line.after["data"]["contract"] == "one"
    assert line.before["sheet"] == line.after["sheet"] == done.sheet.pk
    assert (line.room, line.table) == (1, 1)


def test_a_players_own_writes_leave_no_line(event, play):
    deal = deal_of(play, 1)
    lines, done = _lines(
        event,
        lambda: services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "N")),
    )
    assert done.outcome == "created" and lines == []
    lines, _done = _lines(
        event, lambda: services.sheet_record(play, deal, OTHER, by_entry=entry_at(play, "E"))
    )
    assert lines == []  # a dispute proposed by a player: his, not a director's


def _log_queries(action) -> list[str]:
    with CaptureQueriesContext(connection) as seen:
        action()
    return [q["sql"] for q in seen.captured_queries if "events_actionlog" in q["sql"]]


def test_a_players_write_asks_nothing_of_the_log_a_directors_one_insert(event, director, play):
    deal = deal_of(play, 1)
    assert (
        _log_queries(
            lambda: services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "N"))
        )
        == []
    )
    written = _log_queries(lambda: services.sheet_record(play, deal, OTHER, by_user=director))
    assert len(written) == 1 and written[0].lstrip().upper().startswith("INSERT")


def test_the_director_confirming_a_players_sheet_is_one_line(event, director, play):
    deal = deal_of(play, 1)
    done = services.sheet_record(play, deal, THREE_DIAMONDS, by_entry=entry_at(play, "N"))
    line, confirmed = _one(event, lambda: services.sheet_confirm(done.sheet, by_user=director))
    assert line.kind == "sheet.confirm"
    assert (line.before["status"], line.after["status"]) == ("entered", "confirmed")
    assert line.after["version"] == 1 and (line.room, line.table) == (1, 1)
    # Confirming what is confirmed changes nothing: no line.
    lines, _done = _lines(event, lambda: services.sheet_confirm(confirmed, by_user=director))
    assert lines == []


def test_accepting_a_version_from_the_history_is_one_line(event, director, play):
    deal = deal_of(play, 1)
    first = services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    services.sheet_record(play, deal, OTHER, by_user=director)
    line, done = _one(event, lambda: services.sheet_restore(first.sheet, 1, by_user=director))
    assert line.kind == "sheet.restore"
    assert (line.before["version"], line.after["version"], line.after["restored"]) == (2, 3, 1)
    assert line.after["data"]["contract"] == "three"
    assert done.sheet.current.number == 3


def test_a_refused_sheet_leaves_no_line(event, director, play):
    deal = deal_of(play, 1)
    bad = THREE_DIAMONDS | {"tricks": {"N": 9, "E": 9}}
    _none(event, lambda: services.sheet_record(play, deal, bad, by_user=director))
    services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    _none(
        event,
        lambda: services.sheet_record(play, deal, OTHER, by_user=director, expected_version=0),
    )
    assert ScoreSheet.objects.get(play=play, deal=deal).current.number == 1


# --- adjustments, access, boxes ------------------------------------------------------------


def test_adjustments_given_and_taken_away_are_lines(event, director, play):
    deal = deal_of(play, 1)
    north = entry_at(play, "N")
    line, artificial = _one(
        event,
        lambda: services.adjustment_create(
            play,
            entry=north,
            kind=Adjustment.Kind.ARTIFICIAL,
            deal=deal,
            score="A+",
            reason="рассыпали карты",
            by_user=director,
        ),
    )
    assert (line.kind, line.summary, line.room, line.table) == (
        "adjust.set",
        "рассыпали карты",
        1,
        1,
    )
    assert line.after["score"] == "A+" and line.after["player"] == north.number
    assert line.after["deal"] == deal.code and line.before is None
    line, penalty = _one(
        event,
        lambda: services.adjustment_create(
            play,
            entry=north,
            kind=Adjustment.Kind.PENALTY,
            penalty="2,5",
            reason="опоздание",
            by_user=director,
        ),
    )
    assert line.kind == "penalty.set" and line.after["penalty"] == "2.5"
    line, _done = _one(event, lambda: services.adjustment_delete(artificial, by_user=director))
    assert line.kind == "adjust.set" and line.after is None
    assert line.before["score"] == "A+" and (line.room, line.table) == (1, 1)


def test_a_refused_adjustment_leaves_no_line(event, director, play):
    _none(
        event,
        lambda: services.adjustment_create(
            play,
            entry=entry_at(play, "N"),
            kind=Adjustment.Kind.PENALTY,
            penalty="2",
            reason="",
            by_user=director,
        ),
    )


def test_a_tables_scores_set_at_once_are_one_line(event, director, play):
    line, done = _one(
        event,
        lambda: services.adjustments_table_create(
            play, by_user=director, score="A", reason="стол не доиграл"
        ),
    )
    assert line.kind == "adjust.table" and (line.room, line.table) == (1, 1)
    assert line.after["given"] == len(done.adjustments) > 1
    assert line.after["score"] == "A" and line.summary == "стол не доиграл"


def test_players_access_changed_is_a_line_per_action(event, director, running):
    rnd = finish(Round.objects.get(room__session=running, number=1))
    play = play_of(running, 1, 2)
    line, _done = _one(
        event, lambda: services.play_access_set(play, TablePlay.Access.OPEN, by_user=director)
    )
    assert (line.kind, line.room, line.table) == ("sheet.access", 1, 2)
    assert (line.before["access"], line.after["access"]) == ("", "open")
    line, changed = _one(
        event, lambda: services.round_access_set(rnd, TablePlay.Access.CLOSED, by_user=director)
    )
    assert (line.kind, line.room, line.table) == ("sheet.access", 1, None)
    assert line.after == {"round": 1, "access": "closed", "tables": changed}
    assert sorted(line.before["access"]) == ["", "open"]
    _none(event, lambda: services.play_access_set(play, "wide", by_user=director))


def test_box_reports_decided_are_lines(event, director, play):
    deal = deal_of(play, 1)
    report, _new = boxes.box_report_create(
        play, deal, kind=BoxReport.Kind.TALON, talon=["SA", "H7"]
    )
    line, version = _one(event, lambda: boxes.box_report_foul(report, by_user=director))
    assert (line.kind, line.room, line.table) == ("box.report", 1, 1)
    assert (line.before["state"], line.after["state"]) == ("open", "fouled")
    assert line.after["version"] == version.number
    _none(event, lambda: boxes.box_report_dismiss(report, by_user=director))  # decided already
    other = deal_of(play, 2)
    report, _new = boxes.box_report_create(play, other, kind=BoxReport.Kind.OTHER)
    line, _done = _one(event, lambda: boxes.box_report_dismiss(report, by_user=director))
    assert line.after["state"] == "dismissed" and line.after["deal"] == other.code


# --- the clock ------------------------------------------------------------------------------


def test_each_clock_action_is_one_line_of_its_room(event, director, session15):
    rnd = Round.objects.get(room__session=session15, number=1)
    line, rnd = _one(event, lambda: rounds.round_start(rnd, length_seconds=600, by_user=director))
    assert (line.kind, line.login, line.room, line.table) == ("round.start", "judge", 1, None)
    assert line.after == {"round": 1, "length_seconds": 600}
    line, rnd = _one(event, lambda: rounds.round_pause(rnd, by_user=director))
    assert line.kind == "round.pause"
    assert (line.before["state"], line.after["state"]) == ("running", "paused")
    line, rnd = _one(event, lambda: rounds.round_adjust(rnd, seconds=120, by_user=director))
    assert line.kind == "round.extend" and line.after["seconds"] == 120
    assert line.after["remaining_seconds"] - line.before["remaining_seconds"] == 120
    line, rnd = _one(event, lambda: rounds.round_resume(rnd, by_user=director))
    assert (line.kind, line.after["state"]) == ("round.resume", "running")
    line, rnd = _one(event, lambda: rounds.round_end_now(rnd, by_user=director))
    assert (line.kind, line.before["state"], line.after["state"]) == (
        "round.end",
        "running",
        "finished",
    )
    _none(event, lambda: rounds.round_end_now(rnd, by_user=director))
    _none(event, lambda: rounds.round_pause(rnd, by_user=director))


def test_a_refused_start_leaves_no_line_and_the_clocks_own_start_none(event, director, session15):
    second = Round.objects.get(room__session=session15, number=2)
    _none(event, lambda: rounds.round_start(second, by_user=director))
    first = Round.objects.get(room__session=session15, number=1)
    Round.objects.filter(pk=first.pk).update(auto_start_at=timezone.now() - timedelta(seconds=1))
    lines, fired = _lines(event, lambda: rounds.round_fire_auto_start(first.pk))
    assert fired and lines == []


def test_starting_every_room_is_a_line_a_room(event, director, session15):
    lines, done = _lines(event, lambda: rounds.session_start_rounds(session15, by_user=director))
    assert [d.outcome for d in done] == ["started"]
    assert [(line.kind, line.room, line.login) for line in lines] == [("round.start", 1, "judge")]


# --- publishing, seating, players -----------------------------------------------------------


def test_publishing_and_showing_deals_are_lines(event, director, session15):
    line, _done = _one(
        event, lambda: event_services.event_set_results_public(event, True, by_user=director)
    )
    assert (line.kind, line.before, line.after) == ("publish", {"public": False}, {"public": True})
    line, _done = _one(event, lambda: deals_show(session15, by_user=director))
    assert (line.kind, line.after) == ("deals.show", {"session": 1})
    lines, _done = _lines(event, lambda: deals_show(session15, by_user=director))
    assert lines == []  # shown already: nothing changed


def test_seating_and_a_substitution_are_lines(event, director, session15):
    assert ActionLog.objects.filter(event=event, kind="seating.change").count() == 1
    leaving = Entry.objects.get(event=event, number=1)
    arriving = event_services.entry_create(event, last_name="Запасной", first_name="Иван")
    line, changed = _one(
        event,
        lambda: seat_substitute(
            session15, leaving=leaving, arriving=arriving, from_round=2, by=director
        ),
    )
    assert line.kind == "substitution" and line.login == "judge"
    assert line.before["name"] == leaving.full_name and line.after["name"] == arriving.full_name
    assert line.after["player"] == 1 and line.after["from_round"] == 2
    assert line.after["seats"] == changed
    _none(
        event,
        lambda: seat_substitute(
            session15, leaving=arriving, arriving=arriving, from_round=2, by=director
        ),
    )
    assert Session.objects.filter(event=event).count() == 1


def test_players_added_edited_withdrawn_and_back_are_lines(event, director):
    line, entry = _one(
        event,
        lambda: event_services.entry_create(
            event, last_name="Петров", first_name="Пётр", by_user=director
        ),
    )
    assert line.kind == "entries.change" and line.before is None
    assert line.after["name"] == entry.full_name and line.login == "judge"
    line, entry = _one(
        event, lambda: event_services.entry_update(entry, club="Ладья", by_user=director)
    )
    assert (line.before["club"], line.after["club"]) == (None, "Ладья")
    line, entry = _one(event, lambda: event_services.entry_withdraw(entry, by_user=director))
    assert (line.before["status"], line.after["status"]) == ("active", "withdrawn")
    line, entry = _one(event, lambda: event_services.entry_reinstate(entry, by_user=director))
    assert (line.before["status"], line.after["status"]) == ("withdrawn", "active")
    event_services.entry_create(event, last_name="Сидоров", first_name="Семён", number=7)
    _none(
        event,
        lambda: event_services.entry_create(event, last_name="Иванов", first_name="Иван", number=7),
    )
    lines, _done = _lines(event, lambda: event_services.entry_update(entry, by_user=director))
    assert lines == []  # nothing changed


def test_a_draw_is_a_line(event, director):
    for n in range(3):
        event_services.entry_create(event, last_name=f"Игрок{n}", first_name="Игорь")
    line, _draw = _one(event, lambda: event_services.draw_make(event, by=director, seed="abc"))
    assert line.kind == "entries.change" and line.after == {"drawn": 3, "seed": "abc"}


# --- the line itself ------------------------------------------------------------------------


def test_every_kind_written_here_is_a_known_kind_and_drawn_readably(event, director, play):
    deal = deal_of(play, 1)
    services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    rnd = Round.objects.get(room__session=play.round.room.session, number=1)
    rounds.round_adjust(rnd, seconds=-60, by_user=director)
    assert set(ActionLog.objects.values_list("kind", flat=True)) <= set(KINDS)
    line = log_lines(event, kind="round.extend").get()
    row = line_row(line)
    assert row["kind_name"] == str(KINDS["round.extend"]) != "round extended"
    assert "тур: 1" in row["after"] and "−1:00" in row["after"]
    assert readable("publish", {"public": True}) == "результаты открыты: да"
    assert readable("sheet.access", {"round": 2, "access": ""}).endswith("по часам")


def test_the_log_cannot_be_changed_through_the_app(event, director):
    event_services.event_set_results_public(event, True, by_user=director)
    line = ActionLog.objects.get(event=event, kind="publish")
    line.summary = "переписано"
    with pytest.raises(TypeError):
        line.save()
    with pytest.raises(TypeError):
        line.delete()
    with pytest.raises(TypeError):
        ActionLog.objects.filter(event=event).update(summary="x")
    with pytest.raises(TypeError):
        ActionLog.objects.filter(event=event).delete()
    assert ActionLog.objects.get(pk=line.pk).summary == ""


# --- the doors pass the author -------------------------------------------------------------


def test_the_pages_and_the_api_name_the_author_of_their_writes(director_client, event, running):
    """Every door hands the service who acts: the API's clock and players' edits and the
    page's withdrawal each write a line under the director's login, never «—»."""
    rnd = Round.objects.get(room__session=running, number=1)
    base = f"/api/v1/events/{event.pk}"
    before = set(ActionLog.objects.filter(event=event).values_list("pk", flat=True))
    done = director_client.post(f"{base}/rounds/{rnd.pk}/pause/")
    assert done.status_code == 200, done.content
    done = director_client.post(f"{base}/rounds/{rnd.pk}/resume/")
    assert done.status_code == 200, done.content
    entry = event.entries.order_by("number").first()
    done = director_client.patch(
        f"{base}/entries/{entry.pk}/", {"club": "Пуля"}, content_type="application/json"
    )
    assert done.status_code == 200, done.content
    lines = ActionLog.objects.filter(event=event).exclude(pk__in=before)
    assert lines.count() == 3
    assert set(lines.values_list("login", flat=True)) == {event.owner.username}
