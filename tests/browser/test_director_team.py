"""In Chromium, a two-room session run by a team of three accounts at once, each in his own
browser (issue 34): the chief makes the team on «Судейская бригада»; the room director of
room 2 runs room 2's clock, answers a call from a table of room 2, and is refused room 1's
clock and publishing; the secretary corrects a sheet and is refused the clock; the chief
takes a member off the team and his open session ends there. Every action is in the
«Журнал» with its author, and the log's CSV says what the page says."""

import csv
import io

import pytest
from playwright.sync_api import expect

from events.models import ActionLog, Round, TableCall
from scoring.models import ScoreSheet
from scoring.sheets import services
from tests.browser.a11y import check_page
from tests.browser.helpers import login, new_laptop, new_phone
from tests.factories import THREE_DIAMONDS, deal_of, play_of, round_link, seat_players, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOM_PASSWORD = "Zal-vtoroy-2026"
SECRETARY_PASSWORD = "Zapis-na-bumage-77"


def _add(page, login_name: str, role: str, rooms: str, password: str) -> None:
    """The chief adds a new account to the team on «Судейская бригада»."""
    page.locator("#id_login").fill(login_name)
    page.locator("#id_role").select_option(label=role)
    page.locator("#id_rooms").fill(rooms)
    page.locator("#id_password").fill(password)
    page.get_by_role("button", name="Сохранить").click()
    expect(page.locator("#new-account")).to_contain_text(login_name)
    expect(page.locator("#new-account code")).to_have_text(password)


def _post(page, url: str) -> int:
    """A POST from the page itself, with its CSRF cookie: what a forged or stale form sends."""
    return page.evaluate(
        """async (url) => {
            const token = document.cookie.split('; ').find(c => c.startsWith('csrftoken='));
            const body = new URLSearchParams({csrfmiddlewaretoken: token.split('=')[1],
                                              confirm: 'yes', public: 'on'});
            const r = await fetch(url, {method: 'POST', body, redirect: 'manual'});
            return r.status;
        }""",
        url,
    )


def test_a_chief_a_room_director_and_a_secretary_run_two_rooms_at_once(
    live_server, browser, event, director, shot
):
    base = live_server.url
    session = seat_players(event, 30, seats=3)
    room1 = session.rooms.get(number=1)
    room2 = session.rooms.get(number=2)
    director_base = f"{base}/director/events/{event.pk}"
    contexts = []

    def laptop():
        context, page = new_laptop(browser)
        contexts.append(context)
        return page

    try:
        # The chief makes his team: a room director of room 2, a secretary.
        chief = laptop()
        login(chief, base)
        chief.goto(f"{director_base}/staff/")
        _add(chief, "zal2", "Судья зала", "2", ROOM_PASSWORD)
        _add(chief, "sekretar", "Секретарь", "", SECRETARY_PASSWORD)
        team = chief.locator("#team tbody tr")
        expect(team).to_have_count(3)
        expect(team.nth(0)).to_contain_text("Главный судья")
        expect(chief.locator("#team")).to_contain_text("Судья зала")
        assert check_page(chief) == [], check_page(chief)
        shot(chief, "team-staff-page")

        # Each logs in on his own laptop; «Мои турниры» names his role.
        room_director = laptop()
        login(room_director, base, "zal2", ROOM_PASSWORD)
        expect(room_director.locator("main")).to_contain_text("Судья зала")
        secretary = laptop()
        login(secretary, base, "sekretar", SECRETARY_PASSWORD)
        expect(secretary.locator("main")).to_contain_text("Секретарь")

        # The room director runs room 2's clock: starts round 1 there, and only there.
        room_director.goto(f"{director_base}/rooms/{room2.pk}/")
        room_director.get_by_role("button", name="Начать тур 1").click()
        expect(room_director.locator("#clock-controls")).to_contain_text("Идёт тур 1")
        assert Round.objects.get(room=room2, number=1).state == "running"
        assert Round.objects.get(room=room1, number=1).state == "pending"
        shot(room_director, "team-room-director-console")
        # Room 1: he sees it, without its clock's buttons, and a forged start is refused.
        room_director.goto(f"{director_base}/rooms/{room1.pk}/")
        expect(room_director.get_by_role("heading", level=1)).to_contain_text("Комната 1")
        expect(room_director.get_by_role("button", name="Начать тур 1")).to_have_count(0)
        round1_room1 = Round.objects.get(room=room1, number=1)
        assert _post(room_director, f"{director_base}/rounds/{round1_room1.pk}/start/") == 403
        assert Round.objects.get(pk=round1_room1.pk).state == "pending"
        # Publishing: no button on the scores page, and a forged one is refused.
        room_director.goto(f"{director_base}/scores/")
        expect(room_director.locator("#publish button")).to_have_count(0)
        assert _post(room_director, f"{director_base}/scores/publish/") == 403
        event.refresh_from_db()
        assert not event.results_public

        # The chief starts room 1 himself.
        chief.goto(f"{director_base}/rooms/{room1.pk}/")
        chief.get_by_role("button", name="Начать тур 1").click()
        expect(chief.locator("#clock-controls")).to_contain_text("Идёт тур 1")

        # The secretary corrects a sheet of room 1 that a table entered.
        play1 = play_of(session, 1, 2, room_number=1)
        deal = deal_of(play1, 1)
        services.sheet_record(play1, deal, THREE_DIAMONDS, by_user=director)
        secretary.goto(f"{director_base}/scores/plays/{play1.pk}/deals/1/")
        secretary.locator("#id_tricks_N").fill("6")
        secretary.locator("#id_tricks_E").fill("4")
        secretary.get_by_role("button", name="Проверить").click()
        secretary.get_by_role("button", name="Сохранить").click()
        expect(secretary.locator("h1")).to_be_visible()
        sheet = ScoreSheet.objects.get(play=play1, deal=deal)
        assert sheet.current.number == 2
        assert sheet.current.entered_by_user.username == "sekretar"
        # … and is refused the clock: no buttons, a forged «end» refused.
        secretary.goto(f"{director_base}/rooms/{room1.pk}/")
        expect(secretary.locator("#clock-controls button")).to_have_count(0)
        assert _post(secretary, f"{director_base}/rounds/{round1_room1.pk}/end/") == 403
        assert Round.objects.get(pk=round1_room1.pk).state == "running"

        # A table of room 2 calls the director from its phone; the room director answers.
        play2 = play_of(session, 1, 1, room_number=2)
        phone_context, phone = new_phone(browser)
        contexts.append(phone_context)
        phone.goto(base + round_link(play2))
        phone.locator("#call-box summary").click()
        phone.get_by_label("Спор").check()
        phone.locator("#call-box").get_by_role("button", name="Позвать судью").click()
        expect(phone.locator("#call-box")).to_contain_text("Судья вызван")
        room_director.goto(f"{director_base}/rooms/{room2.pk}/")
        calls = room_director.locator("#calls")
        expect(calls).to_contain_text("Стол 1")
        expect(calls).to_contain_text("спор")
        shot(room_director, "team-call-on-the-console")
        calls.get_by_role("button", name="Иду").click()
        expect(phone.locator("#call-box")).to_contain_text("Судья идёт", timeout=15_000)
        room_director.locator("#calls").get_by_role("button", name="Решено").click()
        expect(room_director.locator("#calls")).to_have_count(0)
        expect(phone.locator("[data-call-status]")).to_be_hidden(timeout=15_000)
        call = TableCall.objects.get()
        assert call.state == "closed" and call.closed_by.username == "zal2"

        # The room director ends room 2's round.
        room_director.goto(f"{director_base}/rooms/{room2.pk}/")
        room_director.get_by_role("button", name="Завершить тур сейчас").click()
        room_director.get_by_role("button", name="Да, завершить тур 1 сейчас").click()
        expect(room_director.get_by_role("button", name="Начать тур 2")).to_be_visible()
        assert Round.objects.get(room=room2, number=1).state == "finished"

        # The chief takes the secretary off the team: her open session ends at once.
        chief.goto(f"{director_base}/staff/")
        chief.locator("#team tr", has_text="sekretar").get_by_role("button", name="Убрать").click()
        expect(chief.locator("#team")).not_to_contain_text("sekretar")
        answer = secretary.goto(f"{director_base}/scores/")
        assert answer.status in (403, 404)

        # The log: every action with its author, and the CSV agrees with the page.
        chief.goto(f"{director_base}/log/")
        rows = chief.locator("#log tbody tr")
        lines = list(ActionLog.objects.filter(event=event))
        expect(rows).to_have_count(len(lines))
        by_author = {(line.login, line.kind) for line in lines}
        for expected in [
            ("judge", "staff.add"),
            ("judge", "staff.remove"),
            ("zal2", "round.start"),
            ("zal2", "round.end"),
            ("zal2", "call.going"),
            ("zal2", "call.close"),
            ("", "call.open"),
            ("sekretar", "sheet.correct"),
            ("judge", "round.start"),
        ]:
            assert expected in by_author, (expected, sorted(by_author))
        assert check_page(chief) == [], check_page(chief)
        shot(chief, "team-log")
        page_rows = [
            [cell.strip() for cell in row]
            for row in chief.locator("#log tbody tr").evaluate_all(
                "rows => rows.map(r => [...r.cells].slice(1, 5).map(c => c.innerText))"
            )
        ]
        download = chief.request.get(f"{director_base}/log.csv")
        assert download.ok
        table = list(csv.reader(io.StringIO(download.text().lstrip("\ufeff")), delimiter=";"))
        header, body = table[0], table[1:]
        assert len(body) == len(page_rows)
        who, what, room, at_table = (
            header.index("Кто"),
            header.index("Действие"),
            header.index("Комната"),
            header.index("Стол"),
        )
        csv_rows = [[r[who] or "—", r[what], r[room], r[at_table]] for r in body]
        page_rows = [[r[0], r[1].split(" · ")[0], r[2], r[3]] for r in page_rows]
        assert csv_rows == page_rows
    finally:
        for context in contexts:
            context.close()


def test_the_room_director_s_round_is_only_his(live_server, browser, event, director):
    """Started from room 2 by the chief, room 2's round ends from its room director's page;
    a round started in room 1 has no end button on his page."""
    from events import staff

    session = seat_players(event, 30, seats=3)
    staff.staff_add(event, "zal2", "room", [2], ROOM_PASSWORD, by_user=director)
    start(Round.objects.get(room__session=session, room__number=1, number=1))
    context, page = new_laptop(browser)
    try:
        login(page, live_server.url, "zal2", ROOM_PASSWORD)
        room1 = session.rooms.get(number=1)
        page.goto(f"{live_server.url}/director/events/{event.pk}/rooms/{room1.pk}/")
        expect(page.locator("#clock-controls")).to_contain_text("Идёт тур 1")
        expect(page.get_by_role("button", name="Завершить тур сейчас")).to_have_count(0)
        expect(page.get_by_role("button", name="Пауза")).to_have_count(0)
    finally:
        context.close()
