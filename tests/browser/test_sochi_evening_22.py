"""Issue 22's acceptance: a Сочи event of 15 players (five 3-seat tables, the prime
movement, two rounds, boxes dealt by the app) played on 360 px phones. Every table's N
enters each deal on the Russian sheet with his PIN, E confirms it with his on the same
phone; the sheets hold every
outcome of the note at least once — made with two whisters, a lone whister, both pass,
полвиста, down with консоляция, a whister short (of a pair and alone), мизер made and
caught, распасы, a checked 10 made and down. After publishing, the standings, a traveller
and a personal card equal an independent computation written here from
docs/game.md §9 alone (what each seat writes, the vist balance «по средней
горе», matchpoints with Neuberg) — nothing of ``scoring`` is asked for a figure."""

from collections import defaultdict
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from events import dealing
from events import services as event_services
from events.cards import card_name
from events.models import Entry, Round, Seat
from scoring import solver
from scoring.hands import analysis
from scoring.models import ScoreSheet, TablePlay
from tests.browser.helpers import confirm_round_as_east, login, new_laptop, new_phone
from tests.factories import round_link, seat_players, start

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.embedded,  # a whole evening: one half of `make test` replays it (Makefile)
]

GAME_LINE = "Сочи · 10 проверяется · ответственность полная"
SEATS = "NES"  # every deal of a 3-seat table: N, E and S play it
CLOCKWISE = "WNES"


def _sheet(contract, tricks, declarer=None, **defenders):
    found = {"contract": contract, "tricks": tricks}
    if declarer:
        found["declarer"] = declarer
    if defenders:
        found["defenders"] = defenders
    return found


# Each outcome of the note's table, as a sheet of a deal played by N, E and S.
MADE_TWO = _sheet("6S", {"N": 6, "E": 3, "S": 1}, "N", E="whist", S="whist")  # the example
DOWN_TWO = _sheet("6S", {"N": 5, "E": 3, "S": 2}, "N", E="whist", S="whist")  # its down one
LONE = _sheet("7H", {"N": 7, "E": 3}, "N", E="whist", S="pass")
CONSOLATION = _sheet("7S", {"N": 6, "E": 4}, "N", E="whist", S="pass")  # S writes u·p
BOTH_PASS = _sheet("8D", {}, "N", E="pass", S="pass")
HALF = _sheet("6C", {}, "N", E="pass", S="half")
SHORT_OF_PAIR = _sheet("6H", {"N": 8, "E": 2, "S": 0}, "N", E="whist", S="whist")
MISERE_MADE = _sheet("misere", {"E": 0}, "E")
MISERE_CAUGHT = _sheet("misere", {"N": 2}, "N")
ALL_PASS = _sheet("passed", {"N": 5, "E": 0, "S": 5})
ALL_PASS_EVEN = _sheet("passed", {"N": 3, "E": 3, "S": 4})
TEN_MADE = _sheet("10S", {"N": 10}, "N")
TEN_DOWN = _sheet("10NT", {"S": 9}, "S")
LONE_EAST = _sheet("6NT", {"E": 6, "S": 4}, "E", S="whist", N="pass")
LONE_SHORT = _sheet("6D", {"S": 7, "N": 3}, "S", N="whist", E="pass")

#: (set, deal) → the sheets of its first and its second table, in the order they play it.
PLAN = {
    (1, 1): (MADE_TWO, DOWN_TWO),
    (1, 2): (LONE, CONSOLATION),
    (1, 3): (BOTH_PASS, HALF),
    (2, 1): (SHORT_OF_PAIR, MADE_TWO),
    (2, 2): (MISERE_MADE, MISERE_CAUGHT),
    (2, 3): (ALL_PASS, ALL_PASS_EVEN),
    (3, 1): (TEN_MADE, TEN_DOWN),
    (3, 2): (LONE_EAST, LONE_EAST),  # the same result at both tables: a tie
    (3, 3): (LONE_SHORT, LONE),
    (4, 1): (DOWN_TWO, CONSOLATION),
    (4, 2): (BOTH_PASS, BOTH_PASS),
    (4, 3): (MISERE_CAUGHT, MISERE_MADE),
    (5, 1): (HALF, SHORT_OF_PAIR),
    (5, 2): (TEN_MADE, MADE_TWO),
    (5, 3): (ALL_PASS, TEN_DOWN),
}


# --- the note, computed here -------------------------------------------------------------

PRICE = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}
NORM = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}


def _left_of(seat: str) -> str:
    """The active seat on ``seat``'s left: the next clockwise among N, E, S."""
    i = CLOCKWISE.index(seat)
    for step in range(1, 4):
        nxt = CLOCKWISE[(i + step) % 4]
        if nxt in SEATS:
            return nxt
    raise AssertionError(seat)


def writes(sheet: dict):
    """Сочи (m = 1, full responsibility): each seat's пуля, гора and whists on whom."""
    pool = dict.fromkeys(SEATS, Fraction(0))
    mountain = dict.fromkeys(SEATS, Fraction(0))
    whists = {s: defaultdict(Fraction) for s in SEATS}
    contract, tricks = sheet["contract"], sheet["tricks"]
    if contract == "passed":
        for seat in SEATS:
            mountain[seat] += tricks[seat]
            if tricks[seat] == 0:
                pool[seat] += 1
        return pool, mountain, whists
    declarer = sheet["declarer"]
    others = [s for s in SEATS if s != declarer]
    if contract == "misere":
        if tricks[declarer] == 0:
            pool[declarer] += 10
        else:
            mountain[declarer] += 10 * tricks[declarer]
        return pool, mountain, whists
    level, p = int(contract[:-2] if contract.endswith("NT") else contract[:-1]), 0
    p = PRICE[level]
    if level == 10:  # checked in Сочи: always played, no whist
        down = 10 - tricks[declarer]
        if down <= 0:
            pool[declarer] += 10
        else:
            mountain[declarer] += down * 10
            for seat in others:
                whists[seat][declarer] += down * 10
        return pool, mountain, whists
    first = _left_of(declarer)
    second = next(s for s in others if s != first)
    decided = sheet["defenders"]
    assert set(decided) == {first, second}
    whisters = [s for s in (first, second) if decided[s] == "whist"]
    if decided[second] == "half":
        pool[declarer] += p
        whists[second][declarer] += Fraction(NORM[level], 2) * p
        return pool, mountain, whists
    if not whisters:
        pool[declarer] += p
        return pool, mountain, whists
    took = tricks[declarer]
    own = {whisters[0]: 10 - took} if len(whisters) == 1 else {w: tricks[w] for w in whisters}
    if took >= level:
        pool[declarer] += p
        for w in whisters:
            whists[w][declarer] += own[w] * p
        norm = NORM[level]
        if sum(own.values()) >= norm:  # the defence has its norm: nobody is short
            missed = {}
        elif len(whisters) == 1:
            missed = {whisters[0]: max(0, norm - own[whisters[0]])}
        elif level <= 7:
            missed = {w: max(0, norm // 2 - own[w]) for w in whisters}
        else:
            missed = {w: (1 if sum(own.values()) == 0 else 0) for w in whisters}
        for w, k in missed.items():
            mountain[w] += k * p
    else:
        down = level - took
        mountain[declarer] += down * p
        for seat in others:
            whists[seat][declarer] += own.get(seat, 0) * p + down * p
    return pool, mountain, whists


def failed_seats(sheet: dict) -> set[str]:
    """Who missed an obligation: a declarer down, a whister short, a caught мизер."""
    pool, mountain, whists = writes(sheet)
    if sheet["contract"] == "passed":
        return set()
    declarer = sheet["declarer"]
    if mountain[declarer]:
        return {declarer}
    return {s for s in SEATS if s != declarer and mountain[s]}


def balance(sheet: dict) -> dict[str, Fraction]:
    """The deal's vist balance «по средней горе»: 10 a point of пуля and of гора."""
    pool, mountain, whists = writes(sheet)
    mean_pool = sum(pool.values()) / 3
    mean_mountain = sum(mountain.values()) / 3
    return {
        x: 10 * (pool[x] - mean_pool)
        - 10 * (mountain[x] - mean_mountain)
        + sum(whists[x].values())
        - sum(whists[o][x] for o in SEATS if o != x)
        for x in SEATS
    }


def matchpoint_percents(scores: list[Fraction], expected: int) -> list[Fraction]:
    """2 for each table beaten, 1 for each tie, as a percentage of the top; restated by
    Neuberg to the ``expected`` tables when fewer results were compared."""
    n = len(scores)
    out = []
    for i, mine in enumerate(scores):
        mp = Fraction(
            sum(2 if mine > o else 1 if mine == o else 0 for o in scores[:i] + scores[i + 1 :])
        )
        if n < expected:
            mp = (mp + 1) * Fraction(expected, n) - 1
        top = 2 * (expected - 1)
        out.append(100 * mp / top if top else Fraction(50))
    return out


def shown(value) -> str:
    """A figure as the pages write it: whole numbers plain, the others with 2 decimals."""
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:.2f}"


def whists_shown(written: dict) -> str:
    return ", ".join(f"{shown(written[on])} на {on}" for on in CLOCKWISE if written.get(on))


# --- the phones ----------------------------------------------------------------------------


def fill(page, sheet: dict, talon=()) -> None:
    """What N types on the Russian sheet: the declarer, the contract on the grid, the
    defenders' decisions in their order, the tricks the outcome needs, the talon."""
    if sheet.get("declarer"):
        page.locator(f'input[name="declarer"][value="{sheet["declarer"]}"]').check()
    page.locator(f'#group-contract input[value="{sheet["contract"]}"] + label').click()
    expect(page.locator(f'#group-contract input[value="{sheet["contract"]}"]')).to_be_checked()
    decided = sheet.get("defenders") or {}
    if decided:
        first = _left_of(sheet["declarer"])
        for seat in sorted(decided, key=lambda s: s != first):
            page.select_option(f"#id_defence_{seat}", decided[seat])
    for seat, count in sheet["tricks"].items():
        page.fill(f"#id_tricks_{seat}", str(count))
    for card in talon:
        page.locator(f'label[for="group-talon-{card}"]').click()


def enter_round(page, base, session, round_no, recorded, shot) -> None:
    """Every table's N enters the set's deals on the table's phone with his PIN; E confirms
    each with his on the same phone (an entry without a PIN is never confirmed from the
    phone that entered it, docs/game.md §7.2)."""
    plays = TablePlay.objects.filter(
        round__room__session=session, round__number=round_no
    ).select_related("board_set", "table", "round")
    for play in plays.order_by("table__number"):
        north = Seat.objects.get(round=play.round, table=play.table, position="N").entry
        for deal in play.board_set.deals.order_by("number"):
            key = (play.board_set.number, deal.number)
            sheet = PLAN[key][len(recorded[key])]
            talon = ()
            if sheet["contract"] not in ("passed",) and not recorded[key]:
                # The first table writes the talon it took: the box's, dealt by the app.
                talon = [card_name(c) for c in dealing.deal_cards(deal).talon]
            page.goto(f"{base}{round_link(play, f'deals/{deal.number}/?as=N')}")
            expect(page.locator("#sheet-game")).to_have_text(GAME_LINE)
            fill(page, sheet, talon)
            page.fill("#id_pin", north.pin)
            page.get_by_role("button", name="Проверить").click()
            expect(page.locator("#settlement")).to_be_visible()
            want = balance(sheet)
            failed = failed_seats(sheet)
            for seat in SEATS:
                text = shown(want[seat]) + (" не выполнил" if seat in failed else "")
                expect(page.locator(f"#ru-row-{seat} td").nth(5)).to_have_text(text)
            if key == (1, 3) and not recorded[key]:
                shot(page, "sochi-22-both-pass-checked-360")
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            page.get_by_role("button", name="Сохранить").click()
            expect(page).to_have_url(f"{base}{round_link(play, f'?as=N&saved={deal.number}')}")
            recorded[key].append((play, sheet))
        confirm_round_as_east(page, base, play)


def _cells(row) -> dict[str, str]:
    """A table row's cells by their data-label (how the narrow pages label them)."""
    out = {}
    for cell in row.locator("td").all():
        label = cell.get_attribute("data-label") or ""
        out[label] = cell.inner_text().strip()
    return out


def test_a_sochi_evening_of_fifteen_players_on_phones(
    live_server, browser, django_user_model, shot
):
    django_user_model.objects.create_user(username="judge", password="s3cret-pass-1")
    director = django_user_model.objects.get(username="judge")
    base = live_server.url
    event = event_services.event_create(
        owner=director, name="Кубок «Сочинка»", date="2026-12-12", game="sochi"
    )
    session = seat_players(event, 15, rounds=2, dealing="app")
    room = session.rooms.get()
    assert (room.kind, room.seats, room.tables.count()) == ("prime", 3, 5)
    sets_played = defaultdict(int)
    for play in TablePlay.objects.filter(round__room__session=session):
        sets_played[play.board_set.number] += 1
    assert dict(sets_played) == dict.fromkeys(range(1, 6), 2)  # every set at two tables

    laptop_ctx, laptop = new_laptop(browser)
    login(laptop, base)
    phone_ctx, phone = new_phone(browser)
    recorded: dict[tuple, list] = defaultdict(list)
    for round_no in (1, 2):
        start(Round.objects.get(room=room, number=round_no))
        enter_round(phone, base, session, round_no, recorded, shot)
    assert all(len(recorded[key]) == 2 for key in PLAN)
    assert ScoreSheet.objects.filter(play__round__room=room, current__isnull=False).count() == 30
    # Both rounds played: the director ends the last one (the session was announced as two
    # rounds) and publishes.
    laptop.goto(f"{base}/director/events/{event.pk}/rooms/{room.pk}/")
    laptop.get_by_role("button", name="Завершить тур сейчас").click()
    laptop.get_by_role("button", name="Да, завершить тур 2 сейчас").click()
    expect(laptop.get_by_text("Все туры этой комнаты сыграны.")).to_be_visible()
    laptop.goto(f"{base}/director/events/{event.pk}/scores/")
    expect(laptop.locator(".game-line").first).to_have_text(GAME_LINE)
    laptop.get_by_role("button", name="Опубликовать результаты").click()
    expect(laptop.get_by_role("button", name="Скрыть результаты")).to_be_visible()

    # The figures, computed here: each deal's balances, each pocket's matchpoints.
    seat_of = {
        (s.round_id, s.table_id, s.position): s.entry_id
        for s in Seat.objects.filter(round__room=room, table__isnull=False)
    }
    per_player: dict[int, list[Fraction]] = defaultdict(list)
    per_row: dict[tuple, dict[str, Fraction]] = {}  # (set, deal, table) → pocket → %
    for key, rows in recorded.items():
        balances = [balance(sheet) for _play, sheet in rows]
        for pocket in SEATS:
            percents = matchpoint_percents([b[pocket] for b in balances], expected=2)
            for (play, _sheet), pct in zip(rows, percents, strict=True):
                per_row.setdefault((*key, play.table.number), {})[pocket] = pct
                per_player[seat_of[(play.round_id, play.table_id, pocket)]].append(pct)

    # The standings: every player's average and deals, on a phone.
    numbers = dict(Entry.objects.filter(event=event).values_list("pk", "number"))
    phone.goto(f"{base}/e/{event.slug}/results/sessions/1/")
    expect(phone.locator(".game-line").first).to_have_text(GAME_LINE)
    rows = phone.locator("#standings tbody tr")
    expect(rows).to_have_count(15)
    shot(phone, "sochi-22-standings-360")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    shown_rows = {}
    for i in range(15):
        cells = rows.nth(i).locator("td").all_text_contents()
        shown_rows[int(cells[1])] = (cells[3].split()[0], int(cells[4]))
    for entry_id, figures in per_player.items():
        assert len(figures) == 6
        average = sum(figures) / len(figures)
        want = (f"{float(average):.2f}", 6)
        assert shown_rows[numbers[entry_id]] == want, (numbers[entry_id], shown_rows, want)
    # The ranks follow the averages.
    ranked = sorted(per_player, key=lambda e: -sum(per_player[e]))
    top = rows.nth(0).locator("td").all_text_contents()
    assert sum(per_player[numbers_inv(numbers, int(top[1]))]) == sum(per_player[ranked[0]])

    # A traveller: deal 1 of set 1 (the note's two examples), every table's figures.
    deal = session.board_sets.get(number=1).deals.get(number=1)
    laptop.goto(f"{base}/e/{event.slug}/results/deals/{deal.pk}/")
    expect(laptop.locator(".game-line").first).to_have_text(GAME_LINE)
    shot(laptop, "sochi-22-traveller-1280")
    assert laptop.evaluate("document.documentElement.scrollWidth") <= 1280
    table_rows = laptop.locator("#traveller tbody tr")
    checked = 0
    for i in range(table_rows.count()):
        row = table_rows.nth(i)
        cells = _cells(row)
        table_no = int(cells["Стол"])
        sheet = next(s for p, s in recorded[(1, 1)] if p.table.number == table_no)
        pool, mountain, whists = writes(sheet)
        want = balance(sheet)
        for seat in SEATS:
            cell = row.locator(f'td[data-label="{seat}"]')
            figure = cell.locator(".figure")
            assert cell.locator(".seat-score").inner_text() == shown(want[seat]), (table_no, seat)
            assert figure.all_inner_texts() == [
                f"пуля {shown(pool[seat])}",
                f"гора {shown(mountain[seat])}",
                f"висты {whists_shown(whists[seat]) or '—'}",
            ], (table_no, seat)
            assert cells[f"{seat} %"] == f"{float(per_row[(1, 1, table_no)][seat]):.2f}"
        checked += 1
    assert checked == 2

    # A personal card: the first table's E of round 1, every deal he played.
    play = TablePlay.objects.get(round__room=room, round__number=1, table__number=1)
    east = Seat.objects.get(round=play.round, table=play.table, position="E").entry
    phone.goto(f"{base}/e/{event.slug}/results/cards/{east.number}/")
    expect(phone.locator(".game-line").first).to_have_text(GAME_LINE)
    shot(phone, "sochi-22-card-360")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    card_rows = {}
    for row in phone.locator("#card tbody tr").all():
        cells = _cells(row)
        if cells.get("Сдача"):
            card_rows[cells["Сдача"]] = cells
    seen = 0
    for key, rows in recorded.items():
        for rec_play, sheet in rows:
            pocket = next(
                (
                    p
                    for p in SEATS
                    if seat_of.get((rec_play.round_id, rec_play.table_id, p)) == east.pk
                ),
                None,
            )
            if pocket is None:
                continue
            deal = rec_play.board_set.deals.get(number=key[1])
            cells = card_rows[deal.code]
            pool, mountain, whists = writes(sheet)
            assert cells["Пуля"] == shown(pool[pocket]), (deal.code, cells)
            assert cells["Гора"] == shown(mountain[pocket]), (deal.code, cells)
            assert cells["Висты"] == (whists_shown(whists[pocket]) or "—"), (deal.code, cells)
            assert cells["Баланс"] == shown(balance(sheet)[pocket]), (deal.code, cells)
            want = f"{float(per_row[(*key, rec_play.table.number)][pocket]):.2f}"
            assert cells["%"] == want, (deal.code, cells)
            seen += 1
    assert seen == 6

    # Issue 23: each deal's hand record has the Russian table, and each played row its
    # «по картам», equal to the solver called here (Russian play, first hand leading).
    analysis.session_analyse(session.pk)
    for key, rows in sorted(recorded.items()):
        deal = session.board_sets.get(number=key[0]).deals.get(number=key[1])
        dealt = dealing.deal_cards(deal)
        hands = {seat: list(hand) for seat, hand in dealt.by_seat()}
        table = solver.deal_table(
            hands, list(dealt.talon), rules=solver.RUSSIAN_PLAY, leader=deal.first_hand
        )
        laptop.goto(f"{base}/e/{event.slug}/results/deals/{deal.pk}/")
        dd = laptop.locator("#hand-record .dd-table")
        expect(dd.locator("caption")).to_contain_text(f"первая рука {deal.first_hand}")
        shown_table = {}
        for tr in dd.locator("tbody tr").all():
            seat = tr.locator("th").inner_text().strip()
            shown_table[seat] = [td.strip() for td in tr.locator("td").all_inner_texts()]
        assert shown_table == {
            seat: [f"{table[seat][c]['talon']} / {table[seat][c]['no_talon']}" for c in COLUMNS]
            for seat in SEATS
        }, deal.code
        for rec_play, sheet in rows:
            row = laptop.locator("#traveller tbody tr").filter(
                has=laptop.locator(f'td[data-label="Стол"]:text-is("{rec_play.table.number}")')
            )
            by_cards = row.locator(".by-cards")
            position = played_position(sheet)
            if sheet["contract"] == "passed":
                expect(by_cards).to_have_text("распасы: по картам не считается")
            elif position is None:  # both passed or полвиста: the deal was not played
                expect(by_cards).to_have_count(0)
            else:
                declarer, strain = position
                tricks, _discard = solver.solve(
                    hands,
                    declarer,
                    "notrump" if strain == "misere" else strain,
                    talon=list(dealt.talon),
                    rules=solver.RUSSIAN_PLAY,
                    leader=deal.first_hand,
                    misere=strain == "misere",
                )
                expect(by_cards).to_have_text(f"по картам: {tricks}")
        width = laptop.evaluate("document.documentElement.scrollWidth")
        assert width <= 1280, (deal.code, width)
        if key == (1, 1):
            shot(laptop, "sochi-23-hand-record-1280")
    phone_ctx.close()
    laptop_ctx.close()


COLUMNS = ("spades", "clubs", "diamonds", "hearts", "notrump", "misere")
STRAINS = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts", "NT": "notrump"}


def played_position(sheet: dict) -> tuple[str, str] | None:
    """(declarer, strain) of the position a sheet's table played; None when nobody played
    (both defenders passed, полвиста) and for распасы."""
    contract = sheet["contract"]
    if contract == "passed":
        return None
    if contract == "misere":
        return sheet["declarer"], "misere"
    decided = sheet.get("defenders") or {}
    if decided and "whist" not in decided.values():
        return None
    return sheet["declarer"], STRAINS[contract.lstrip("0123456789")]


def numbers_inv(numbers: dict[int, int], number: int) -> int:
    return next(e for e, n in numbers.items() if n == number)
