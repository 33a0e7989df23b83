"""What an account may not use is not shown (issue 34): each role — the chief, a «director»,
the room director of room 2, a secretary — sees on the event's page, the scores, a table's
page, a sheet's history, the adjustments and a box report only the buttons and forms its
role allows (in that room, for a room director); the door refuses the rest anyway. The
pages' queries stay flat: the account's part is read once per request."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events.models import BoxReport
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, start

pytestmark = pytest.mark.django_db

CHIEF, DIRECTOR, ROOM, SECRETARY = "chief", "director", "room", "secretary"
EVERYONE = (CHIEF, DIRECTOR, ROOM, SECRETARY)


def _shows(team_world, role, url, wanted):
    response = team_world["clients"][role].get(url)
    assert response.status_code == 200, (role, url)
    return wanted in response.content.decode()


def _check(team_world, url, wanted, allowed):
    for role in EVERYONE:
        assert _shows(team_world, role, url, wanted) == (role in allowed), (role, url, wanted)


def _u(name, *args):
    return reverse(f"director:{name}", args=args)


def test_the_event_page(team_world):
    event = team_world["event"]
    url = _u("event_detail", event.pk)
    entry = event.entries.order_by("pk").first()
    _check(team_world, url, _u("event_edit", event.pk), {CHIEF, DIRECTOR})
    _check(team_world, url, _u("event_staff", event.pk), {CHIEF})
    _check(team_world, url, _u("entry_add", event.pk), {CHIEF, DIRECTOR})
    _check(team_world, url, _u("entries_paste", event.pk), {CHIEF, DIRECTOR})
    _check(team_world, url, _u("entry_edit", event.pk, entry.pk), {CHIEF, DIRECTOR})
    _check(team_world, url, _u("entry_withdraw", event.pk, entry.pk), {CHIEF, DIRECTOR})
    _check(team_world, url, _u("plan", event.pk), {CHIEF, DIRECTOR})
    # Everyone sees the scores, the log and the name cards.
    _check(team_world, url, _u("overview", event.pk), set(EVERYONE))
    _check(team_world, url, _u("name_cards", event.pk), set(EVERYONE))


def test_the_draw_form(team_world):
    from events import services as event_services

    event = team_world["event"]
    event_services.entry_create(event, last_name="Поздний", first_name="Пётр")
    url = _u("event_detail", event.pk)
    # Seated already: the draw is refused, and said so — to those who could draw.
    _check(team_world, url, 'id="draw-refusal"', {CHIEF, DIRECTOR})


def test_the_scores_overview(team_world):
    event = team_world["event"]
    url = _u("overview", event.pk)
    _check(team_world, url, _u("publish", event.pk), {CHIEF, DIRECTOR})
    _check(
        team_world, url, _u("deals_show", event.pk, team_world["session"].number), {CHIEF, DIRECTOR}
    )
    _check(team_world, url, _u("adjustments", event.pk), set(EVERYONE))


def test_a_tables_page_in_each_room(team_world):
    event = team_world["event"]
    for room, play in team_world["play"].items():
        url = _u("play", event.pk, play.pk)
        in_room = {ROOM} if room == 2 else set()
        _check(
            team_world,
            url,
            _u("sheet_form", event.pk, play.pk, 1),
            {CHIEF, DIRECTOR, SECRETARY} | in_room,
        )
        _check(
            team_world, url, _u("adjustment_add", event.pk, play.pk), {CHIEF, DIRECTOR} | in_room
        )
        _check(
            team_world,
            url,
            _u("adjustment_delete", event.pk, team_world["adjustment"][room].pk),
            {CHIEF, DIRECTOR} | in_room,
        )
        _check(
            team_world,
            url,
            f"{_u('adjustments', event.pk)}?play={play.pk}",
            {CHIEF, DIRECTOR} | in_room,
        )


def test_the_adjustments_page(team_world):
    event = team_world["event"]
    url = _u("adjustments", event.pk)
    _check(team_world, url, _u("adjustments_table", event.pk), {CHIEF, DIRECTOR, ROOM})
    for room, adjustment in team_world["adjustment"].items():
        in_room = {ROOM} if room == 2 else set()
        _check(
            team_world,
            url,
            _u("adjustment_delete", event.pk, adjustment.pk),
            {CHIEF, DIRECTOR} | in_room,
        )


def test_the_whole_table_form_offers_a_room_director_his_rooms_rounds_only(team_world):
    """Labelled with their rooms still (the event has two), and a round of another room sent
    anyway is refused on its field, nothing given."""
    import re

    from scoring.models import Adjustment

    event = team_world["event"]
    url = _u("adjustments", event.pk)
    offered = {
        role: set(
            re.findall(
                r'<option value="(\d+)"[^>]*>([^<]*· [^<]*)</option>',
                team_world["clients"][role].get(url).content.decode(),
            )
        )
        for role in (CHIEF, ROOM)
    }
    rounds = {rnd.pk: rnd for rnd in team_world["round"].values()}
    chief_rounds = {int(pk) for pk, _label in offered[CHIEF]}
    room_rounds = {int(pk) for pk, _label in offered[ROOM]}
    assert set(rounds) <= chief_rounds
    assert team_world["round"][2].pk in room_rounds
    assert team_world["round"][1].pk not in room_rounds
    assert offered[ROOM] and all("· Комната 2 ·" in label for _pk, label in offered[ROOM])
    before = Adjustment.objects.count()
    answer = team_world["clients"][ROOM].post(
        _u("adjustments_table", event.pk),
        {
            "round": team_world["round"][1].pk,
            "table": 1,
            "score": "average",
            "reason": "не играли",
        },
    )
    assert answer.status_code in (400, 403)
    assert Adjustment.objects.count() == before


def test_a_sheets_history_in_each_room(team_world):
    event = team_world["event"]
    for room, play in team_world["play"].items():
        start(play.round)
        # A player enters it, another one proposes otherwise: disputed, with a version to
        # make current and a result to confirm.
        done = services.sheet_record(
            play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "N")
        )
        services.sheet_record(
            play,
            deal_of(play, 1),
            THREE_DIAMONDS | {"tricks": {"N": 6, "E": 4}},
            by_entry=entry_at(play, "E"),
        )
        url = _u("sheet", event.pk, done.sheet.pk)
        in_room = {ROOM} if room == 2 else set()
        allowed = {CHIEF, DIRECTOR, SECRETARY} | in_room
        _check(team_world, url, _u("sheet_form", event.pk, play.pk, 1), allowed)
        _check(team_world, url, _u("sheet_confirm", event.pk, done.sheet.pk), allowed)
        _check(team_world, url, _u("sheet_restore", event.pk, done.sheet.pk), allowed)


def test_a_box_report_in_each_room(team_world):
    event = team_world["event"]
    for room, play in team_world["play"].items():
        report = BoxReport.objects.create(
            deal=deal_of(play, 1), play=play, kind=BoxReport.Kind.OTHER, note="?"
        )
        url = _u("box_report", event.pk, report.pk)
        in_room = {ROOM} if room == 2 else set()
        _check(
            team_world,
            url,
            _u("box_report_decide", event.pk, report.pk),
            {CHIEF, DIRECTOR, SECRETARY} | in_room,
        )


def test_the_buttons_cost_no_query_per_row(team_world):
    """The adjustments page asks «may» for each row's room: the account's part is read once."""
    event = team_world["event"]
    client = team_world["clients"][ROOM]
    url = _u("adjustments", event.pk)

    def count():
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    before = count()
    for room, play in team_world["play"].items():
        for position in ("N", "S"):
            services.adjustment_create(
                play,
                entry=entry_at(play, position),
                kind="penalty",
                by_user=team_world["users"]["chief"],
                penalty="1",
                reason=f"стол {room}",
            )
    assert count() == before
