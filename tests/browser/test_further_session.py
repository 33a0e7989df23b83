"""A further session seated from what happened, in Chromium (issue 14's acceptance): 52
players; session 1 a 13-table × 4 prime room (every cross-line pair meets once, no
same-line pair meets); session 2 «по линиям» — four rooms of 13 on the 13 scheme — after
which no pair of the 52 has never met, the planner showing the count before and after; a
player withdrawn is not seated in the next session; the event standing combines both
sessions and equals an independent computation."""

from fractions import Fraction
from itertools import combinations

import pytest
from playwright.sync_api import expect

from events import services as event_services
from events.models import Entry, Seat
from scoring.games import austrian as rules
from scoring.models import TablePlay
from scoring.sheets import services
from tests.browser.helpers import drawn_event, new_laptop
from tests.browser.test_cards_session import matchpoint_percents
from tests.factories import finish, start

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery"),
    pytest.mark.postgres,  # one half of `make test` replays it (see the Makefile)
]

CSV = "Фамилия;Имя;Клуб\n" + "".join(f"Линиев{i:02d};Олег;Клуб {i % 4}\n" for i in range(1, 53))


def result_of(deal, table: int, round_no: int, room: int) -> dict:
    """A valid result that differs from table to table: first hand «раз» in spades, the next
    active seat whists, the last passes; 5–8 tricks for the declarer."""
    declarer, whister, _passer = deal.active_seats
    taken = 5 + (3 * table + 2 * deal.number + round_no + room) % 4
    return {
        "declarer": declarer,
        "contract": "one",
        "trump": "spades",
        "defenders": {whister: "whist", _passer: "pass"},
        "tricks": {declarer: taken, whister: 10 - taken},
    }


def play_session(session, director, written: dict) -> None:
    """Every table writes deal 1 of its set in every round (the service the pages use)."""
    for room in session.rooms.order_by("number"):
        for rnd in room.rounds.order_by("number"):
            start(rnd)
            for play in TablePlay.objects.filter(round=rnd).select_related(
                "round__room__session__event", "table", "board_set"
            ):
                deal = play.board_set.deals.get(number=1)
                data = result_of(deal, play.table.number, rnd.number, room.number)
                services.sheet_record(play, deal, data, by_user=director)
                written.setdefault(deal.pk, {})[play.pk] = (deal, data)
            finish(rnd)


def pairs_met(sessions) -> set[frozenset]:
    at: dict[tuple, list[int]] = {}
    for s in Seat.objects.filter(round__room__session__in=sessions, table__isnull=False):
        at.setdefault((s.round_id, s.table_id), []).append(s.entry_id)
    return {frozenset(p) for group in at.values() for p in combinations(group, 2)}


def lines_of(session) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    for s in Seat.objects.filter(round__room__session=session, table__isnull=False):
        out.setdefault(s.position, set()).add(s.entry_id)
    return out


def test_52_players_meet_everyone_over_two_sessions(
    live_server, browser, django_user_model, worker_factory, tmp_path, shot
):
    worker_factory()
    director = django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")
    base = live_server.url
    desk_ctx, desk = new_laptop(browser, 900)
    csv_file = tmp_path / "52.csv"
    csv_file.write_bytes(CSV.encode("utf-8"))
    event = drawn_event(desk, base, csv_file, "Кубок линий", "2026-12-26", 52)

    # Session 1: the prime room of 13 tables × 4.
    desk.get_by_role("link", name="Планировщик движения").click()
    expect(desk.locator("#option-0")).to_be_checked()
    expect(desk.locator('label[for="option-0"]')).to_contain_text("13")
    desk.get_by_role("button", name="Рассадить сессию 1 по выбранному варианту").click()
    expect(desk.get_by_text("Сессия 1 рассажена")).to_be_visible()
    first = event.sessions.get(number=1)
    room = first.rooms.get()
    assert (room.kind, room.tables.count(), room.seats) == ("prime", 13, 4)
    lines = lines_of(first)
    assert sorted(len(members) for members in lines.values()) == [13, 13, 13, 13]
    met = pairs_met([first])
    for a, b in combinations(sorted(e for m in lines.values() for e in m), 2):
        same = any(a in m and b in m for m in lines.values())
        assert (frozenset((a, b)) in met) is not same, (a, b)
    meetings = {}
    for s in Seat.objects.filter(round__room__session=first, table__isnull=False):
        meetings.setdefault((s.round_id, s.table_id), []).append(s.entry_id)
    counted: dict[frozenset, int] = {}
    for group in meetings.values():
        for p in combinations(group, 2):
            counted[frozenset(p)] = counted.get(frozenset(p), 0) + 1
    assert set(counted.values()) == {1}  # every cross-line pair exactly once
    written: dict[int, dict] = {}
    play_session(first, director, written)

    # A player withdrawn after session 1 is out of the plan: his line has 12.
    leaving = Entry.objects.get(event=event, number=7)
    event_services.entry_withdraw(leaving, confirmed=True)
    desk.goto(f"{base}/director/events/{event.pk}/movement/")
    # 312 pairs within the lines, less the 12 of the player who left.
    expect(desk.locator("#history")).to_contain_text("До этой сессии 300 пар")
    option = desk.locator('label[for="option-0"]')
    expect(option).to_contain_text("по линиям")
    expect(option).to_contain_text("12")
    shot(desk, "lines-01-planner-withdrawn")
    event_services.entry_reinstate(leaving)

    # Session 2 «по линиям»: the count before and after on the planner.
    desk.goto(f"{base}/director/events/{event.pk}/movement/")
    history = desk.locator("#history")
    expect(history).to_contain_text("До этой сессии 312 пар играющих ещё ни разу не встречались")
    option = desk.locator('label[for="option-0"]')
    expect(option).to_contain_text("по линиям")
    expect(option.locator("dl.figures")).to_contain_text("Встречаются впервые312 пар")
    expect(option.locator("dl.figures")).to_contain_text("Так и не встретятся0 пар")
    shot(desk, "lines-02-planner")
    history.screenshot(path=str(shot(desk, "lines-02-planner").with_name("lines-02-history.png")))
    option.screenshot(path=str(shot(desk, "lines-02-planner").with_name("lines-02-option.png")))
    desk.locator("#id_another").check()
    desk.get_by_role("button", name="Рассадить сессию 2 по выбранному варианту").click()
    expect(desk.get_by_text("Сессия 2 рассажена")).to_be_visible()
    second = event.sessions.get(number=2)
    rooms = list(second.rooms.order_by("number"))
    assert [(r.kind, r.scheme, r.participants) for r in rooms] == [("scheme", 13, 13)] * 4
    by_room = [{s.entry_id for s in Seat.objects.filter(round__room=r)} for r in rooms]
    assert sorted(map(sorted, by_room)) == sorted(map(sorted, lines.values()))
    everyone = set(Entry.objects.filter(event=event).values_list("pk", flat=True))
    all_met = pairs_met([first, second])
    assert all(frozenset(p) in all_met for p in combinations(sorted(everyone), 2))
    shot(desk, "lines-03-session-2")
    play_session(second, director, written)

    # The event standing over both sessions equals an independent computation.
    per_player: dict[int, list[Fraction]] = {}
    for by_play in written.values():
        plays = list(by_play)
        deal = by_play[plays[0]][0]
        expected = TablePlay.objects.filter(board_set=deal.board_set).count()
        settled = {
            p: rules.settle_json({"rules": {"pot": "fixed", "stake": 100}, **by_play[p][1]})[
                "scores"
            ]
            for p in plays
        }
        for pocket in deal.active_seats:
            percents = matchpoint_percents([Fraction(settled[p][pocket]) for p in plays], expected)
            for p, pct in zip(plays, percents, strict=True):
                play = TablePlay.objects.get(pk=p)
                entry = Seat.objects.get(round=play.round, table=play.table, position=pocket)
                per_player.setdefault(entry.entry_id, []).append(pct)
    desk.goto(f"{base}/director/events/{event.pk}/scores/")
    desk.get_by_role("button", name="Опубликовать результаты").click()
    expect(desk.get_by_role("button", name="Скрыть результаты")).to_be_visible()
    desk.goto(f"{base}/e/{event.slug}/results/")
    rows = desk.locator("#standings tbody tr")
    expect(rows).to_have_count(52)
    shown = {}
    for i in range(52):
        cells = rows.nth(i).locator("td").all_text_contents()
        shown[int(cells[1])] = (cells[3].split()[0], int(cells[4]))  # «мало сдач» after
    numbers = dict(Entry.objects.filter(event=event).values_list("pk", "number"))
    assert len(per_player) == 52
    for entry_id, figures in per_player.items():
        average = sum(figures) / len(figures)
        assert shown[numbers[entry_id]] == (f"{float(average):.2f}", len(figures)), entry_id
    shot(desk, "lines-04-event-standings")

    # Withdrawn after session 2, he is not seated in session 3.
    event_services.entry_withdraw(leaving, confirmed=True)
    desk.goto(f"{base}/director/events/{event.pk}/movement/")
    desk.locator("#id_another").check()
    desk.get_by_role("button", name="Рассадить сессию 3 по выбранному варианту").click()
    expect(desk.get_by_text("Сессия 3 рассажена")).to_be_visible()
    third = event.sessions.get(number=3)
    assert third.participants == 51
    assert not Seat.objects.filter(round__room__session=third, entry=leaving).exists()
    desk_ctx.close()
