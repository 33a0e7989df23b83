"""A session with computer-dealt sets in Chromium, end to end (issue 13's acceptance): the
director has the app deal the boxes and prints the dealing sheets; a table records the talon
with the picker; a later table finds another talon, is sent to «коробка не совпадает» and
reports it; the director marks the deal fouled from that table on; the standings compare the
two versions apart (checked against an independent computation); after publishing, the
hand record shows the diagram and the double-dummy table, and the seed verifies against the
hash shown before the session."""

import hashlib
import re
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from events import cards
from events.models import DealVersion, Entry, Seat
from scoring import solver
from scoring.games import austrian as rules
from scoring.models import Deal, ScoreSheet, TablePlay
from scoring.sheets import services
from tests.browser.helpers import drawn_event, new_laptop, new_phone
from tests.events.test_cards import _independent_deal
from tests.factories import finish, round_link, start, varied_result, wait_until

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery"),
]

CSV = "Фамилия;Имя;Клуб\n" + "".join(f"Картов{i:02d};Пётр;Клуб {i % 3}\n" for i in range(1, 16))
RANKS_RU = ("7", "8", "9", "10", "В", "Д", "К", "Т")


def tap(page, name: str, card: str) -> None:
    box = page.locator(f'input[name="{name}"][value="{card}"]')
    page.locator(f'label[for="{box.get_attribute("id")}"]').click()


def fill_on_phone(page, data: dict, talon: list[str]) -> None:
    page.locator('input[name="as"][value="N"]').check()
    page.locator(f'input[name="declarer"][value="{data["declarer"]}"]').check()
    page.select_option("#id_contract", data["contract"])
    for card in talon:
        tap(page, "talon", card)
    page.select_option("#id_trump", data["trump"])
    for seat, decision in data["defenders"].items():
        page.select_option(f"#id_defence_{seat}", decision)
    for seat in "NES":
        page.fill(f"#id_tricks_{seat}", str(data["tricks"].get(seat, "")))


def assert_hand_shown(pocket, hand) -> None:
    """The pocket shows each suit's cards, ace first, with the Russian rank letters."""
    text = re.sub(r"\s+", "", pocket.inner_text())
    for suit, held in cards.by_suit(hand).items():
        if held:
            line = cards.SUIT_SYMBOLS[suit] + "".join(RANKS_RU[cards.rank_of(c)] for c in held)
            assert line in text, (line, text)


def matchpoint_percents(scores: list[Fraction], expected: int) -> list[Fraction]:
    """Law 78 matchpoints as a percentage of the top, restated by Neuberg to ``expected``
    results (docs/game.md §4.1), written again from the text."""
    n = len(scores)
    out = []
    for mine in scores:
        if n == 1:
            out.append(Fraction(50))
            continue
        points = sum(2 if mine > other else 1 if mine == other else 0 for other in scores) - 1
        percent = Fraction(100) * points / (2 * (n - 1))
        out.append((percent - 50) * Fraction(n - 1, n) * Fraction(expected, expected - 1) + 50)
    return out


def test_a_session_with_dealt_sets_a_fouled_box_and_the_hand_records(
    live_server, browser, django_user_model, worker_factory, tmp_path, shot
):
    worker_factory()  # the analysis and the clock run on a real worker
    director = django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")
    base = live_server.url
    desk_ctx, desk = new_laptop(browser)
    csv_file = tmp_path / "игроки.csv"
    csv_file.write_bytes(CSV.encode("utf-8"))
    event = drawn_event(desk, base, csv_file, "Кубок раздачи", "2026-12-19", 15)

    # The director has the app deal the boxes.
    desk.get_by_role("link", name="Планировщик движения").click()
    desk.locator("#dealing").get_by_label("приложением (из опубликованного зерна)").check()
    desk.get_by_role("button", name="Рассадить сессию 1 по выбранному варианту").click()
    expect(desk.get_by_text("Сессия 1 рассажена")).to_be_visible()
    session = event.sessions.get()
    room = session.rooms.get()
    assert session.dealing == "app" and room.tables.count() == 5
    desk.goto(f"{base}/director/events/{event.pk}/sessions/1/")
    shown_hash = desk.locator("#seed-hash").inner_text().strip()
    assert re.fullmatch(r"[0-9a-f]{64}", shown_hash)
    expect(desk.locator("#seed")).to_have_count(0)  # the seed stays secret until published
    # The worker analyses the boxes meanwhile; the page follows it without a reload.
    expect(desk.locator("#analysis-progress")).to_contain_text(
        "Анализ: 15 из 15 сдач", timeout=60_000
    )

    # The dealing sheets print: every box, each pocket, as a PDF of A4 pages.
    desk.get_by_role("link", name="Листы раскладки").click()
    boxes = desk.locator("article.box")
    expect(boxes).to_have_count(15)
    deal11 = Deal.objects.get(board_set__session=session, board_set__number=1, number=1)
    dealt = cards.from_ppn(deal11.cards, deal11.active_seats)
    first_box = boxes.first
    for seat, hand in dealt.by_seat():
        assert_hand_shown(first_box.locator(f".pocket.pos-{seat}"), hand)
    expect(first_box.locator(".pocket.pos-W")).to_contain_text("прикуп")
    desk.emulate_media(media="print")
    shot(desk, "cards-day-01-dealing-sheets-print")
    pdf = desk.pdf(format="A4", print_background=True)
    desk.emulate_media(media="screen")
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page[^s]", pdf)) >= 2

    # Round 1: the table that plays set 1 records deal 1.1 with the talon on its phone.
    phone_ctx, phone = new_phone(browser)
    plays = list(
        TablePlay.objects.filter(round__room=room, board_set__number=1)
        .select_related("round", "table")
        .order_by("round__number")
    )
    assert [p.round.number for p in plays] == [1, 2, 3, 4, 5]
    talon = [cards.card_name(c) for c in dealt.talon]
    start(plays[0].round)
    data = varied_result(plays[0].table.number, 1, 1, deal11.first_hand)
    phone.goto(f"{base}{round_link(plays[0], 'deals/1/')}")
    fill_on_phone(phone, data, talon)
    phone.get_by_role("button", name="Проверить").click()
    phone.get_by_role("button", name="Сохранить").click()
    expect(phone.get_by_text("Сдача 1.1 записана.")).to_be_visible()
    assert sorted(ScoreSheet.objects.get(play=plays[0], deal=deal11).current.data["talon"]) == (
        sorted(talon)
    )

    # Every other deal of every round is written as the tables would (the service the
    # pages use); deal 1.1 at the later tables follows below.
    written: dict[tuple[int, int], dict[int, dict]] = {}
    written[(1, 1)] = {plays[0].pk: data}

    def write_round(round_no: int) -> None:
        for play in TablePlay.objects.filter(
            round__room=room, round__number=round_no
        ).select_related("round__room__session__event", "table", "board_set"):
            for deal in play.board_set.deals.order_by("number"):
                if deal.pk == deal11.pk:
                    continue
                sheet = varied_result(play.table.number, round_no, deal.number, deal.first_hand)
                services.sheet_record(play, deal, sheet, by_user=director)
                written.setdefault((play.board_set.number, deal.number), {})[play.pk] = sheet

    write_round(1)
    finish(plays[0].round)

    # Round 2: the next table finds another talon in the box (a card of N's hand in it).
    start(plays[1].round)
    found = [talon[0], cards.card_name(dealt.hand(dealt.seats[0])[0])]
    data2 = varied_result(plays[1].table.number, 2, 1, deal11.first_hand)
    desk.goto(f"{base}/director/events/{event.pk}/rooms/{room.pk}/")
    phone.goto(f"{base}{round_link(plays[1], 'deals/1/')}")
    expect(phone.locator("#known-talon")).to_have_count(0)  # not shown before the play
    fill_on_phone(phone, data2, found)
    phone.get_by_role("button", name="Проверить").click()
    # «Проверить» says nothing of the talon (docs/game.md §2.7): «Сохранить» compares it.
    expect(phone.locator("#group-talon .error")).to_have_count(0)
    phone.get_by_role("button", name="Сохранить").click()
    refusal = phone.locator("#group-talon .error")
    expect(refusal).to_contain_text("коробка не совпадает")
    shot(phone, "cards-day-02-talon-refused-360")
    phone.locator("#box-report summary").click()
    phone.locator('input[name="kind"][value="talon"]').check()
    for card in found:
        tap(phone, "found", card)
    phone.fill("#report-note", "в прикупе карта из кармана N")
    phone.locator("#box-report button[type=submit]").click()
    expect(phone.locator('[data-box-report="open"]')).to_be_visible()

    # The director sees it on the console at once and marks the deal fouled from there.
    link = desk.locator("[data-box-reports] a")
    expect(link).to_have_count(1, timeout=10_000)
    shot(desk, "cards-day-03-console-report")
    link.click()
    desk.locator('button[name="action"][value="foul"]').click()
    expect(desk.locator('[data-state="fouled"]')).to_be_visible()
    version = DealVersion.objects.get(deal=deal11)
    assert (version.number, version.from_play_id) == (2, plays[1].pk)

    # Now the table's sheet with the talon it found is accepted: version 2 of the cards.
    phone.goto(f"{base}{round_link(plays[1], 'deals/1/')}")
    fill_on_phone(phone, data2, found)
    phone.get_by_role("button", name="Проверить").click()
    phone.get_by_role("button", name="Сохранить").click()
    expect(phone.get_by_text("Сдача 1.1 записана.")).to_be_visible()
    written[(1, 1)][plays[1].pk] = data2
    write_round(2)
    finish(plays[1].round)

    # Rounds 3–5: the later tables play version 2 (its talon) and all other deals.
    for play in plays[2:]:
        start(play.round)
        sheet = varied_result(play.table.number, play.round.number, 1, deal11.first_hand)
        services.sheet_record(play, deal11, sheet | {"talon": found}, by_user=director)
        written[(1, 1)][play.pk] = sheet
        write_round(play.round.number)
        finish(play.round)

    # Published: the seed is revealed.
    desk.goto(f"{base}/director/events/{event.pk}/scores/")
    desk.get_by_role("button", name="Опубликовать результаты").click()
    expect(desk.get_by_role("button", name="Скрыть результаты")).to_be_visible()

    # The standings compare the two versions apart: an independent computation.
    expected_tables = 5  # every table of the room plays each set once
    per_player: dict[int, list[Fraction]] = {}
    per_row: dict[int, dict[str, Fraction]] = {}
    v2 = {p.pk for p in plays[1:]}
    for (set_no, deal_no), by_play in written.items():
        groups = [list(by_play)]
        if (set_no, deal_no) == (1, 1):
            groups = [[p for p in by_play if p not in v2], [p for p in by_play if p in v2]]
        for group in groups:
            settled = {
                p: rules.settle_json({"rules": {"pot": "fixed", "stake": 100}, **by_play[p]})[
                    "scores"
                ]
                for p in group
            }
            for pocket in "NES":
                percents = matchpoint_percents(
                    [Fraction(settled[p][pocket]) for p in group], expected_tables
                )
                for p, pct in zip(group, percents, strict=True):
                    play = TablePlay.objects.get(pk=p)
                    entry = Seat.objects.get(round=play.round, table=play.table, position=pocket)
                    per_player.setdefault(entry.entry_id, []).append(pct)
                    if (set_no, deal_no) == (1, 1):
                        per_row.setdefault(p, {})[pocket] = pct

    public_ctx, public = new_laptop(browser, 900)
    public.goto(f"{base}/e/{event.slug}/results/sessions/1/")
    rows = public.locator("#standings tbody tr")
    expect(rows).to_have_count(15)
    shown = {}
    for i in range(15):
        cells = rows.nth(i).locator("td").all_text_contents()
        shown[int(cells[1])] = (cells[3].split()[0], int(cells[4]))  # «мало сдач» after
    numbers = dict(Entry.objects.filter(event=event).values_list("pk", "number"))
    for entry_id, figures in per_player.items():
        average = sum(figures) / len(figures)
        assert shown[numbers[entry_id]] == (f"{float(average):.2f}", len(figures)), entry_id
    expect(public.locator("body")).to_contain_text("испорченные коробки")
    shot(public, "cards-day-04-standings")

    # The traveller of deal 1.1: the versions apart, each row's figures as computed.
    assert wait_until(
        lambda: Deal.objects.filter(board_set__session=session, analysis__isnull=True).count() == 0,
        90.0,
        0.5,
    ), "the worker analyses every deal"
    deal11.refresh_from_db()
    public.goto(f"{base}/e/{event.slug}/results/deals/{deal11.pk}/")
    expect(public.locator("#traveller")).to_contain_text(
        f"Версия 2 — коробка испорчена со стола {plays[1].table.number}, тур 2"
    )
    by_table = {p.table.number: p.pk for p in plays}
    checked = 0
    table_rows = public.locator("#traveller tbody tr")
    for i in range(table_rows.count()):
        cells = table_rows.nth(i).locator("td").all_text_contents()
        if len(cells) < 10 or not cells[1].strip().isdigit():
            continue
        play_pk = by_table[int(cells[1])]
        percents = [c.strip() for c in cells[6:12:2]]
        want = [f"{float(per_row[play_pk][p]):.2f}" for p in "NES"]
        assert percents == want, (cells[1], percents, want)
        checked += 1
    assert checked == 5

    # The hand record: the diagram and the double-dummy table, equal to the solver's.
    record = public.locator("#hand-record")
    expect(record).to_be_visible()
    for seat, hand in dealt.by_seat():
        assert_hand_shown(record.locator(f".pocket.pos-{seat}"), hand)
    table = solver.deal_table({s: list(h) for s, h in dealt.by_seat()}, list(dealt.talon))
    first = dealt.seats[0]
    assert deal11.analysis[first]["spades"] == table[first]["spades"]
    dd = record.locator(".dd-table")
    expect(dd).to_contain_text(
        f"{table[first]['spades']['talon']} / {table[first]['spades']['no_talon']}"
    )
    expect(public.locator("#traveller")).to_contain_text("по картам:")
    shot(public, "cards-day-05-hand-record")

    # The seed verifies against the hash shown before the session, by anyone.
    public.goto(f"{base}/e/{event.slug}/results/sessions/1/dealing-check/")
    seed = public.locator("#seed").inner_text().strip()
    assert hashlib.sha256(seed.encode()).hexdigest() == shown_hash
    expect(public.locator("#check-result")).to_contain_text("совпадает с показанным до сессии")
    hands, talon_again = _independent_deal(seed, 1, 1, 1)
    assert [{cards.card_name(c) for c in h} for h in dealt.hands] == hands
    assert set(talon) == talon_again
    shot(public, "cards-day-06-dealing-check")

    for ctx in (desk_ctx, phone_ctx, public_ctx):
        ctx.close()
