"""The event of issue 9 as people live it, on the backend the suite runs on (in `make test`'s
second half: the embedded default, SQLite + the filesystem broker with a real worker).

26 players from a Windows-1251 CSV, the planner's best option (two rooms of 13 on four-seat
tables), both rooms started at once, phones at 360 px, every table of round 1 entering its
deals on a phone and another seat confirming what it sees, one table writing after the
bell, a dispute settled by the director, a substitute under the participant's number on
every page, a whole table's artificial score, publishing, and standings and travellers that
equal the pure core's own figures computed here from what the tables typed."""

from collections import defaultdict
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from events.models import Entry, Round, Seat
from scoring import compare
from scoring.games import austrian as rules
from scoring.models import Deal, ScoreSheet, TablePlay
from scoring.sheets import display
from tests.browser.a11y import check_page
from tests.browser.helpers import drawn_event, new_laptop
from tests.factories import round_link, wait_until

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery"),
    pytest.mark.postgres,  # one half of `make test` replays it (see the Makefile)
]

NAMES = [
    "Абрамов", "Белов", "Васильев", "Громов", "Данилов", "Егоров", "Жуков", "Зайцев",
    "Ильин", "Козлов", "Лебедев", "Морозов", "Новиков", "Орлов", "Павлов", "Романов",
    "Смирнов", "Тихонов", "Уваров", "Фёдоров", "Харитонов", "Цветков", "Чернов", "Шилов",
    "Щукин", "Яковлев",
]  # fmt: skip
CSV = "Фамилия;Имя;Клуб\n" + "".join(f"{n};Иван;Клуб {i % 4}\n" for i, n in enumerate(NAMES))
CLOCKWISE = "WNES"
PHONE = {"viewport": {"width": 360, "height": 800}, "locale": "ru-RU", "is_mobile": True}


def speaking_order(deal: Deal) -> list[str]:
    """The deal's active seats clockwise from first hand."""
    start = CLOCKWISE.index(deal.first_hand)
    turn = [CLOCKWISE[(start + k) % 4] for k in range(4)]
    return [s for s in turn if s in deal.active_seats]


def deal_data(table: int, room: int, round_no: int, deal: Deal, *, twist: int = 0) -> dict:
    """A valid and different result at every table: first hand declares «раз» in spades, the
    next seat whists, the last passes; the declarer's tricks vary from 5 to 8."""
    declarer, whister, passer = speaking_order(deal)
    taken = 5 + (3 * table + 2 * deal.number + round_no + room + twist) % 4
    return {
        "declarer": declarer,
        "contract": "one",
        "trump": "spades",
        "defenders": {whister: "whist", passer: "pass"},
        "tricks": {declarer: taken, whister: 10 - taken},
    }


def fits(page) -> None:
    """Nothing on this 360 px page is clipped, unlabelled or wider than the screen."""
    assert check_page(page) == [], page.url


def fill_sheet(page, deal: Deal, data: dict) -> None:
    page.check(f'input[name="declarer"][value="{data["declarer"]}"]')
    page.select_option("#id_contract", data["contract"])
    page.select_option("#id_trump", data["trump"])
    for seat, decision in data["defenders"].items():
        page.select_option(f"#id_defence_{seat}", decision)
    for seat in deal.active_seats:
        page.fill(f"#id_tricks_{seat}", str(data["tricks"].get(seat, "")))


def first_seat(deal: Deal) -> str:
    return speaking_order(deal)[0]


def pin_of(play: TablePlay, position: str) -> str:
    return Seat.objects.get(round=play.round, table=play.table, position=position).entry.pin


def enter_table(
    page, base, play: TablePlay, room_no: int, sheets: dict, *, after_bell: bool = False
) -> None:
    """The table's first-hand player of each deal enters it on the table's phone with his
    PIN; a player of another seat opens the table page, sees the result and confirms it with
    his (an entry without a PIN is never confirmed from the phone that entered it,
    docs/game.md §7.2). ``after_bell``: the round is over, so the phone shows «Тур окончен»
    until a player of the table names his seat and types his PIN there (§4.5)."""
    table = play.table
    if after_bell:
        page.goto(f"{base}{round_link(play)}")
        expect(page.locator("#round-over")).to_be_visible()
        expect(page.locator("#deals")).to_have_count(0)
        page.locator('label[for="as-N"]').click()
        page.locator("#id_pin").fill(pin_of(play, "N"))
        page.locator("#gate button[type=submit]").click()
        expect(page.locator("#deals")).to_be_visible()
    for deal in play.board_set.deals.order_by("number"):
        data = deal_data(table.number, room_no, play.round.number, deal)
        seat = first_seat(deal)
        page.goto(f"{base}{round_link(play, f'deals/{deal.number}/?as={seat}')}")
        fill_sheet(page, deal, data)
        page.fill("#id_pin", pin_of(play, seat))
        page.click('button[name="check"]')
        page.click('button[name="save"]')
        expect(page.get_by_text(f"Сдача {deal.code} записана.")).to_be_visible()
        sheets[(play.pk, deal.pk)] = data
    confirm_table(page, base, play, sheets)


def confirm_table(page, base, play: TablePlay, sheets: dict) -> None:
    deals = list(play.board_set.deals.order_by("number"))
    confirmer = "S" if "S" in deals[0].active_seats else "W"
    page.goto(f"{base}{round_link(play, f'?as={confirmer}')}")
    for deal in deals:
        card = page.locator(f'#deals li[data-deal="{deal.number}"]')
        data = sheets[(play.pk, deal.pk)]
        settled = rules.settle_json({"rules": {"pot": "fixed", "stake": 100}, **data})["scores"]
        # What he confirms is on the card: the declarer, the contract and every seat's score.
        result = card.locator(f"#result-{deal.number}")
        expect(result.locator(".contract-line")).to_contain_text(f"{data['declarer']} ")
        expect(result.locator(".contract-line")).to_contain_text("раз")
        for line in result.locator("tbody tr:not(.sits-out)").all():
            seat = line.locator(".seat-letter").inner_text()
            points = line.locator("td.num").nth(1).inner_text()
            assert points.startswith(display.number_text(settled[seat])), (seat, points)
        button = card.get_by_role("button", name="Подтвердить этот результат")
        if button.count():
            # He shows it is he: the PIN of his name card (the table's link alone enters).
            chosen = card.locator('select[name="as"]').input_value()
            pin = Seat.objects.get(round=play.round, table=play.table, position=chosen).entry.pin
            card.locator('input[name="pin"]').fill(pin)
            button.click()
            expect(page.get_by_text("подтверждена.")).to_be_visible()
    expect(page.locator("#deals li.state-confirmed")).to_have_count(len(deals))
    fits(page)


def end_round(page, base, event, room, number: int) -> None:
    page.goto(f"{base}/director/events/{event.pk}/rooms/{room.pk}/")
    page.get_by_role("button", name="Завершить тур сейчас").click()
    page.get_by_role("button", name=f"Да, завершить тур {number} сейчас").click()
    expect(page.get_by_text(f"Тур {number} окончен").first).to_be_visible()


def expected_standings(session, sheets: dict, artificial: dict) -> dict[int, Fraction]:
    """Each participant number's average matchpoint percentage, from the pure core alone:
    every deal's settlement by rules.settle_json, every pocket compared by
    compare.matchpoints with Neuberg against the tables that play the set. Only the deals
    played out count, as in the public standings (docs/game.md §4.5): those with a result
    (every sheet here is confirmed) or an artificial score at every table of their set."""
    method = compare.ArtificialScores(Fraction(60), Fraction(50), Fraction(40))
    figures: dict[int, list[Fraction]] = defaultdict(list)
    plays = {p.pk: p for p in TablePlay.objects.filter(round__room__session=session)}
    deals = {d.pk: d for d in Deal.objects.filter(board_set__session=session)}
    by_deal: dict[int, dict[int, dict]] = defaultdict(dict)
    for (play_id, deal_id), data in sheets.items():
        scores = rules.settle_json({"rules": {"pot": "fixed", "stake": 100}, **data})["scores"]
        by_deal[deal_id][play_id] = {s: Fraction(str(v)) for s, v in scores.items()}
    for (play_id, deal_id), score in artificial.items():
        by_deal[deal_id][play_id] = {
            s: compare.Artificial(score) for s in deals[deal_id].active_seats
        }
    for deal_id, per_play in by_deal.items():
        deal = deals[deal_id]
        expected = sum(1 for p in plays.values() if p.board_set_id == deal.board_set_id)
        if len(per_play) < expected:
            continue  # still to be played at a table: not counted yet
        order = sorted(per_play)
        for pocket in deal.active_seats:
            result = compare.matchpoints(
                [per_play[p][pocket] for p in order], expected=expected, artificial=method
            )
            for play_id, percent in zip(order, result.percent, strict=True):
                play = plays[play_id]
                seat = Seat.objects.get(round=play.round, table=play.table, position=pocket)
                figures[seat.participant].append(percent)
    return {number: sum(v) / len(v) for number, v in figures.items()}


def test_the_26_player_event_on_phones(
    live_server, browser, django_user_model, worker_factory, tmp_path, shot
):
    worker_factory()  # the clock's worker, on the suite's broker
    django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")
    base = live_server.url
    director, page = new_laptop(browser, 900)

    # Setup: the event, 26 players from a Windows-1251 file, the draw, the planner.
    csv_file = tmp_path / "26.csv"
    csv_file.write_bytes(CSV.encode("cp1251"))
    event = drawn_event(page, base, csv_file, "Кубок двух комнат", "2026-12-19", 26)
    page.get_by_role("link", name="Планировщик движения").click()
    expect(page.locator("label.option").first).to_contain_text("13 + 13")
    shot(page, "day26-01-planner")
    page.get_by_role("button", name="Рассадить сессию 1 по выбранному варианту").click()
    expect(page.get_by_text("Сессия 1 рассажена")).to_be_visible()
    session = event.sessions.get()
    rooms = list(session.rooms.order_by("number"))
    assert [(r.kind, r.seats, r.tables.count()) for r in rooms] == [("scheme", 4, 3)] * 2

    # Both rooms start at once.
    page.goto(f"{base}/director/events/{event.pk}/rooms/")
    page.get_by_role("button", name="Начать тур во всех комнатах").click()
    assert set(
        Round.objects.filter(room__session=session, number=1).values_list("state", flat=True)
    ) == {"running"}

    # Four phones show where to sit.
    phones = {}
    for number in (1, 9, 17, 26):
        entry = Entry.objects.get(event=event, number=number)
        ctx = browser.new_context(**PHONE)
        phone = ctx.new_page()
        phone.goto(f"{base}/p/{entry.key}/")
        expect(phone.get_by_text("Сейчас — тур 1")).to_be_visible()
        fits(phone)
        phones[number] = (ctx, phone)
    shot(phones[1][1], "day26-02-phone")

    # Round 1: every table enters its four deals; one table of room 2 only after the bell.
    scorer_ctx = browser.new_context(**PHONE)
    scorer = scorer_ctx.new_page()
    scorer.set_default_timeout(15_000)
    sheets: dict[tuple[int, int], dict] = {}
    plays1 = {
        (p.table.room.number, p.table.number): p
        for p in TablePlay.objects.filter(
            round__room__session=session, round__number=1
        ).select_related("table__room", "round", "board_set")
    }
    late = plays1[(2, 3)]
    for (room_no, _table_no), play in sorted(plays1.items()):
        if play is not late:
            enter_table(scorer, base, play, room_no, sheets)
    shot(scorer, "day26-03-table-confirmed")

    # A dispute: another seat of room 1, table 1 sends a different result for deal 1.
    disputed_play = plays1[(1, 1)]
    deal = disputed_play.board_set.deals.order_by("number").first()
    other = speaking_order(deal)[1]
    different = deal_data(1, 1, 1, deal, twist=1)
    scorer.goto(f"{base}{round_link(disputed_play, f'deals/{deal.number}/?as={other}')}")
    fill_sheet(scorer, deal, different)
    scorer.click('button[name="check"]')
    scorer.click('button[name="save"]')
    # «Сохранить» is sent by the page's script (the outbox, issue 25): read the row once the
    # answer is in, not the instant the button is pressed.
    assert wait_until(
        lambda: ScoreSheet.objects.get(play=disputed_play, deal=deal).status == "disputed"
    )
    sheet = ScoreSheet.objects.get(play=disputed_play, deal=deal)

    # The bell in room 2; its table 3 writes its sheets afterwards, and they count as late.
    end_round(page, base, event, rooms[1], 1)
    enter_table(scorer, base, late, 2, sheets, after_bell=True)
    assert ScoreSheet.objects.filter(play=late, current__isnull=False).count() == 4
    page.goto(f"{base}/director/events/{event.pk}/rooms/{rooms[1].pk}/")
    shot(page, "day26-04-console-late")
    end_round(page, base, event, rooms[0], 1)

    # The director settles the dispute: the second player's result is the right one.
    page.goto(f"{base}/director/events/{event.pk}/scores/sheets/{sheet.pk}/")
    page.get_by_role("button", name="Сделать текущей").click()
    sheet.refresh_from_db()
    assert sheet.status == "confirmed" or sheet.current.number == 2
    sheets[(disputed_play.pk, deal.pk)] = different

    # A substitute: a late arrival takes number 9 from round 2.
    page.goto(f"{base}/director/events/{event.pk}/players/add/")
    page.get_by_label("Фамилия").fill("Запасной")
    page.get_by_label("Имя").fill("Захар")
    page.get_by_role("button", name="Сохранить", exact=True).click()
    page.goto(f"{base}/director/events/{event.pk}/sessions/1/")
    leaving = Entry.objects.get(event=event, number=9)
    arriving = Entry.objects.get(event=event, last_name="Запасной")
    form = page.locator("#substitute")
    form.locator('select[name="leaving"]').select_option(str(leaving.pk))
    form.locator('select[name="arriving"]').select_option(str(arriving.pk))
    form.locator('input[name="from_round"]').fill("2")
    form.get_by_role("button", name="Посадить замену").click()
    expect(page.get_by_text("Запасной").first).to_be_visible()
    arriving.refresh_from_db()
    leaving.refresh_from_db()
    assert arriving.number == 9 and leaving.status == "replaced"

    # Round 2 in both rooms; the substitute's phone shows his number and his seat.
    page.goto(f"{base}/director/events/{event.pk}/rooms/")
    page.get_by_role("button", name="Начать тур во всех комнатах").click()
    sub_ctx = browser.new_context(**PHONE)
    sub_phone = sub_ctx.new_page()
    sub_phone.goto(f"{base}/p/{arriving.key}/")
    expect(sub_phone.get_by_text("Сейчас — тур 2")).to_be_visible()
    expect(sub_phone.locator("body")).to_contain_text("№ 9")
    fits(sub_phone)
    shot(sub_phone, "day26-05-substitute-phone")
    seat = Seat.objects.get(round__room__session=session, round__number=2, entry=arriving)
    sub_play = TablePlay.objects.get(round=seat.round, table=seat.table)
    enter_table(scorer, base, sub_play, seat.table.room.number, sheets)

    # A table that did not play round 2 gets «A» on all its deals in one action.
    absent = (
        TablePlay.objects.filter(round__room__session=session, round__number=2)
        .exclude(pk=sub_play.pk)
        .select_related("table__room", "round")
        .order_by("table__room__number", "table__number")
        .first()
    )
    page.goto(f"{base}/director/events/{event.pk}/scores/adjustments/")
    form = page.locator("#table-scores")
    form.locator('select[name="round"]').select_option(str(absent.round.pk))
    form.locator('select[name="table"]').select_option(str(absent.table.number))
    form.locator('select[name="score"]').select_option("A")
    form.locator('[name="reason"]').fill("стол не играл тур")
    form.get_by_role("button", name="Выставить результаты").click()
    artificial = {(absent.pk, d.pk): "A" for d in absent.board_set.deals.all()}
    for room in rooms:
        end_round(page, base, event, room, 2)

    # Publishing; the standings equal the core's figures, one row per number.
    page.goto(f"{base}/director/events/{event.pk}/scores/")
    page.get_by_role("button", name="Опубликовать результаты").click()
    expect(page.get_by_role("button", name="Скрыть результаты")).to_be_visible()
    want = expected_standings(session, sheets, artificial)
    public_ctx = browser.new_context(**PHONE)
    public = public_ctx.new_page()
    public.goto(f"{base}/e/{event.slug}/results/sessions/1/")
    rows = public.locator("#standings tbody tr")
    expect(rows).to_have_count(26)
    shown = {}
    for i in range(26):
        cells = rows.nth(i).locator("td").all_text_contents()
        shown[int(cells[1])] = (cells[2], cells[3].split()[0])  # «мало сдач» may follow
    assert want, "some deals are played out"
    for number, (_name, figure) in shown.items():
        assert figure == (f"{float(want[number]):.2f}" if number in want else "—"), number
    assert "Запасной" in shown[9][0] and leaving.last_name in shown[9][0]
    fits(public)
    shot(public, "day26-06-standings-360")

    # A traveller of a deal both rooms played: room, table and names on each row.
    deal = sheet.deal
    public.goto(f"{base}/e/{event.slug}/results/deals/{deal.pk}/")
    traveller = public.locator("#traveller")
    expect(traveller).to_contain_text("Комната 2")
    for seat_row in Seat.objects.filter(round=disputed_play.round, table=disputed_play.table):
        expect(traveller.get_by_text(seat_row.entry.full_name).first).to_be_in_viewport()
    fits(public)
    shot(public, "day26-07-traveller-360")

    for ctx, _ in phones.values():
        ctx.close()
    for ctx in (director, scorer_ctx, sub_ctx, public_ctx):
        ctx.close()
