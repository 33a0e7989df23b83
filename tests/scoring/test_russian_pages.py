"""The Russian figures wherever results are shown (issue 22): a Сочи event with deals
recorded at three tables of one set (made with two whisters, down with консоляция, распасы)
and a caught мизер, published; the table's result block, the player's phone, the director's
pages, the public standings, traveller and personal card, their CSV and XLSX files and the
API show the contract in Russian words, пуля, гора, висты on whom and the balance — each
figure computed here independently by the pure core (``scoring.games.settle_json``) — and
name the game in one line; in English they say it with no Cyrillic but names."""

import csv
import io
import re

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from events import services as event_services
from events.models import Entry, Event
from scoring import games
from scoring.models import ScoreSheet, TablePlay
from scoring.sheets import services
from tests.factories import entry_at, play_out, round_link, seat_players, start
from tests.test_english_pages import Reader

pytestmark = pytest.mark.django_db

GAME_LINE = "Сочи · 10 проверяется · ответственность полная"
GAME_LINE_EN = "Sochi · 10 checked · full responsibility"

#: Deal 1 at three tables of one set (N, E, S play it), and deal 2 at the first.
MADE = {
    "declarer": "N",
    "contract": "6S",
    "defenders": {"E": "whist", "S": "whist"},
    "tricks": {"N": 6, "E": 3, "S": 1},
}
CONSOLATION = {
    "declarer": "N",
    "contract": "6NT",
    "defenders": {"E": "whist", "S": "pass"},
    "tricks": {"N": 5, "E": 5},
}
ALL_PASS = {"contract": "passed", "tricks": {"N": 5, "E": 0, "S": 5}}
CAUGHT = {"declarer": "E", "contract": "misere", "tricks": {"E": 2}}

#: The contract as the pages say it, in Russian and in English.
WORDS = {
    "6S": ("N: 6♠", "N: 6♠"),
    "6NT": ("N: 6БК", "N: 6NT"),
    "passed": ("распасы", "all-pass"),
    "misere": ("E: мизер", "E: misere"),
}


def _shown(value) -> str:
    """A figure as the pages show it: whole numbers plain, others with two decimals."""
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:.2f}"


def _whists(written: dict, on_word: str = "на") -> str:
    return ", ".join(f"{_shown(written[on])} {on_word} {on}" for on in "WNES" if on in written)


class Sochi:
    """The event, its plays of the first set, the sheets and the core's answers."""

    def __init__(self, director, name="Кубок Сочи"):
        self.event = event_services.event_create(
            owner=director, name=name, date="2026-12-05", game="sochi", scoring_method="points"
        )
        self.session = seat_players(self.event, 15)
        plays = list(
            TablePlay.objects.filter(round__room__session=self.session)
            .select_related("board_set", "round__room__session__event", "table")
            .order_by("board_set__number", "round__number")
        )
        first = [p for p in plays if p.board_set_id == plays[0].board_set_id]
        self.plays = first[:3]
        self.deal = self.plays[0].board_set.deals.get(number=1)
        self.deal2 = self.plays[0].board_set.deals.get(number=2)
        self.recorded = []  # (play, deal, sheet, the core's answer)
        for play, sheet in zip(self.plays, (MADE, CONSOLATION, ALL_PASS), strict=True):
            self._record(play, self.deal, sheet, director)
        self._record(self.plays[0], self.deal2, CAUGHT, director)

    def _record(self, play, deal, sheet, director):
        services.sheet_record(play, deal, sheet, by_user=director)
        layout = {"board": {"players": deal.board_set.players, "number": deal.number}}
        core = games.settle_json({"rules": self.event.game_rules(), **layout, **sheet})
        self.recorded.append((play, deal, sheet, core))

    def publish(self):
        play_out(self.session)
        Event.objects.filter(pk=self.event.pk).update(results_public=True)
        self.event.refresh_from_db()


@pytest.fixture
def sochi(director):
    return Sochi(director)


def _cells(html: str, table_id: str) -> list[list[tuple[str, str]]]:
    """The rows of a table as (data-label or class, text) per cell, tags taken out."""
    body = html[html.index(f'id="{table_id}"') :]
    body = body[body.index("<tbody>") : body.index("</tbody>")]
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = re.findall(r"<td([^>]*)>(.*?)</td>", row, re.S)
        rows.append(
            [
                (
                    (re.search(r'data-label="([^"]*)"', attrs) or re.search(r"()", attrs))[1],
                    re.sub(r"<[^>]+>", "", text).strip(),
                )
                for attrs, text in cells
            ]
        )
    return rows


def test_the_table_shows_the_contract_decisions_tricks_and_what_each_seat_writes(client, sochi):
    play, _deal, _sheet, core = sochi.recorded[1]  # 6БК, E whists alone, N down one
    start(play.round)
    page = client.get(round_link(play, "?as=E")).content.decode()
    card = page[page.index('data-deal="1"') : page.index('data-deal="2"')]
    north = entry_at(play, "N").full_name
    assert f"N {north}</strong>: 6БК" in card
    assert "Защита: E вист · S пас" in card
    assert ">Баланс</th>" in card and ">Очки</th>" not in card
    body = card[card.index("<tbody>") :]
    for seat in "NES":
        name = entry_at(play, seat).full_name
        row = body[body.index(name) :]
        row = row[: row.index("</tr>")]
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        whists = _whists(core["whists"].get(seat, {})) or "—"
        pool, mountain = _shown(core["pool"][seat]), _shown(core["mountain"][seat])
        # Under his name, what he writes; then his tricks and the balance.
        written = f'<small class="seat-figures">пуля {pool} · гора {mountain} · висты {whists}'
        assert written in row, (seat, row)
        assert cells[0] == str(CONSOLATION["tricks"].get(seat, "")), (seat, cells)
        assert cells[1].startswith(_shown(core["scores"][seat])), (seat, cells)
    assert (
        core["failed"] == ["N"] and 'class="num failed"' in body.split(north)[1].split("</tr>")[0]
    )
    # The all-pass at the third table names it and writes every seat's tricks.
    play, _deal, _sheet, core = sochi.recorded[2]
    start(play.round)
    page = client.get(round_link(play, "?as=E")).content.decode()
    card = page[page.index('data-deal="1"') : page.index('data-deal="2"')]
    assert "<strong>Распасы</strong>" in card
    assert f'<td class="num">{ALL_PASS["tricks"]["S"]}</td>' in card


def test_the_phone_and_the_directors_pages_name_the_game_and_say_the_russian_contract(
    client, director_client, sochi
):
    play, deal, _sheet, core = sochi.recorded[0]
    start(play.round)
    north = entry_at(play, "N")
    phone = client.get(f"/p/{north.key}/").content.decode()
    results = phone[phone.index('id="results-title"') :]
    assert GAME_LINE in results and ">Баланс</th>" in results
    assert "N: 6♠" in results and _shown(core["scores"]["N"]) in results

    event = sochi.event
    overview = director_client.get(reverse("director:overview", args=[event.pk])).content
    assert GAME_LINE in overview.decode()
    page = director_client.get(reverse("director:play", args=[event.pk, play.pk])).content
    page = page.decode()
    assert GAME_LINE in page and "N: 6♠" in page and "E: мизер" in page
    sheet = ScoreSheet.objects.get(play=sochi.plays[1], deal=deal)
    history = director_client.get(reverse("director:sheet", args=[event.pk, sheet.pk]))
    history = history.content.decode()
    assert GAME_LINE in history and "N: 6БК" in history
    assert "E вист · S пас" in history and "N 5 · E 5" in history


def test_the_traveller_shows_each_tables_pool_mountain_whists_and_balance(client, sochi):
    sochi.publish()
    url = reverse("public:traveller", args=[sochi.event.slug, sochi.deal.pk])
    html = client.get(url).content.decode()
    assert GAME_LINE in html
    rows = [r for r in _cells(html, "traveller") if r and "нет результата" not in r[2][1]]
    by_contract = {r[2][1]: dict(r) for r in rows}
    assert len(by_contract) == 3
    for _play, _deal, sheet, core in sochi.recorded[:3]:
        row = by_contract[WORDS[sheet["contract"]][0]]
        for seat in "NES":
            # The balance (compared), and under it what the seat writes.
            whists = _whists(core["whists"].get(seat, {})) or "—"
            written = (
                f"пуля {_shown(core['pool'][seat])} · гора {_shown(core['mountain'][seat])}"
                f" · висты {whists}"
            )
            assert row[seat] == _shown(core["scores"][seat]) + written, (seat, row)


def test_the_personal_card_shows_pool_mountain_whists_of_each_deal(client, sochi):
    sochi.publish()
    event = sochi.event
    east = entry_at(sochi.plays[0], "E")
    html = client.get(reverse("public:card", args=[event.slug, east.number])).content.decode()
    assert GAME_LINE in html
    assert '<th class="num figure">Пуля</th>' in html and ">Баланс</th>" in html
    rows = {dict(r)["Сдача"]: dict(r) for r in _cells(html, "card") if len(r) > 6}
    for _play, deal, sheet, core in sochi.recorded[0], sochi.recorded[3]:
        row = rows[deal.code]
        assert row["Контракт"] == WORDS[sheet["contract"]][0]
        assert row["Пуля"] == _shown(core["pool"]["E"])
        assert row["Гора"] == _shown(core["mountain"]["E"])
        assert row["Висты"] == (_whists(core["whists"].get("E", {})) or "—")
        assert row["Баланс"] == _shown(core["scores"]["E"])
    standings = client.get(reverse("public:event", args=[event.slug])).content.decode()
    assert GAME_LINE in standings
    session = client.get(reverse("public:session", args=[event.slug, 1])).content.decode()
    assert GAME_LINE in session


def _csv(response) -> list[list[str]]:
    assert response.status_code == 200
    body = response.content.decode("utf-8")
    return list(csv.reader(io.StringIO(body.lstrip("\ufeff"), newline=""), delimiter=";"))


def _comma(value) -> str:
    return _shown(value).replace(".", ",")


def test_the_files_carry_the_russian_columns_and_name_the_game(client, sochi):
    sochi.publish()
    event = sochi.event
    slug = event.slug
    traveller = _csv(client.get(reverse("public:traveller_csv", args=[slug, sochi.deal.pk])))
    head = traveller[0]
    assert head[-1] == f"Игра: {GAME_LINE}"
    for seat in "NES":
        for name in ("Пуля", "Гора", "Висты", "Баланс"):
            assert f"{name} {seat}" in head
    assert "Очки N" not in head
    by_contract = {row[head.index("Контракт")]: row for row in traveller[1:]}
    for _play, _deal, sheet, core in sochi.recorded[:3]:
        row = by_contract[WORDS[sheet["contract"]][0]]
        for seat in "NES":
            assert row[head.index(f"Пуля {seat}")] == _comma(core["pool"][seat])
            assert row[head.index(f"Гора {seat}")] == _comma(core["mountain"][seat])
            assert row[head.index(f"Висты {seat}")] == _whists(core["whists"].get(seat, {}))
            assert row[head.index(f"Баланс {seat}")] == _comma(core["scores"][seat])

    east = entry_at(sochi.plays[0], "E")
    card = _csv(client.get(reverse("public:card_csv", args=[slug, east.number])))
    head = card[0]
    assert head[-1] == f"Игра: {GAME_LINE}"
    rows = {row[head.index("Сдача")]: row for row in card[1:] if row[head.index("Сдача")]}
    for _play, deal, sheet, core in sochi.recorded[0], sochi.recorded[3]:
        row = rows[deal.code]
        assert row[head.index("Контракт")] == WORDS[sheet["contract"]][0]
        assert row[head.index("Пуля")] == _comma(core["pool"]["E"])
        assert row[head.index("Гора")] == _comma(core["mountain"]["E"])
        assert row[head.index("Висты")] == _whists(core["whists"].get("E", {}))
        assert row[head.index("Баланс")] == _comma(core["scores"]["E"])

    for name, args in (("event", [slug]), ("session", [slug, 1])):
        standings = _csv(client.get(reverse(f"public:{name}_csv", args=args)))
        assert standings[0][-1] == f"Игра: {GAME_LINE}"
    travellers = _csv(client.get(reverse("public:session_travellers_csv", args=[slug, 1])))
    assert travellers[0][-1] == f"Игра: {GAME_LINE}" and "Пуля N" in travellers[0]

    answer = client.get(reverse("public:traveller_xlsx", args=[slug, sochi.deal.pk]))
    sheet = load_workbook(io.BytesIO(answer.content)).worksheets[0]
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    head = values[0]
    assert head[-1] == f"Игра: {GAME_LINE}"
    made = next(row for row in values[1:] if row[head.index("Контракт")] == "N: 6♠")
    core = sochi.recorded[0][3]
    assert made[head.index("Пуля N")] == core["pool"]["N"]  # a number, not text
    assert made[head.index("Висты E")] == _whists(core["whists"]["E"])
    assert made[head.index("Баланс N")] == pytest.approx(core["scores"]["N"], abs=0.01)


def test_the_api_carries_the_game_and_the_russian_contract(client, sochi):
    sochi.publish()
    event = sochi.event
    base = f"/api/v1/events/{event.pk}"
    standings = client.get(f"{base}/standings/").json()
    assert standings["game"] == "sochi" and standings["game_line"] == GAME_LINE
    assert standings["rules"] == event.game_rules()
    traveller = client.get(f"{base}/deals/{sochi.deal.pk}/traveller/").json()
    assert traveller["game"] == "sochi" and traveller["game_line"] == GAME_LINE
    tables = {t["contract"]: t for t in traveller["tables"] if t["contract"]}
    for _play, _deal, sheet, core in sochi.recorded[:3]:
        table = tables[WORDS[sheet["contract"]][0]]
        for key in ("pool", "mountain", "whists", "failed"):
            assert table["result"][key] == core[key]
    east = entry_at(sochi.plays[0], "E")
    card = client.get(f"{base}/players/{east.pk}/card/").json()
    assert card["game"] == "sochi" and card["game_line"] == GAME_LINE
    contracts = {d["deal"]: d["contract"] for d in card["deals"] if d["contract"]}
    assert contracts[sochi.deal.code] == "N: 6♠"
    assert contracts[sochi.deal2.code] == "E: мизер"


def test_english_pages_say_the_russian_figures_with_no_cyrillic_but_names(client, director):
    found = Sochi(director, name="Sochi Cup")
    found.publish()
    event = found.event
    names = [e.full_name for e in Entry.objects.filter(event=event)]
    names += [n for e in Entry.objects.filter(event=event) for n in (e.last_name, e.first_name)]
    reader = Reader(client, names)
    east = entry_at(found.plays[0], "E")
    card = reader.get(reverse("public:card", args=[event.slug, east.number])).content.decode()
    assert GAME_LINE_EN in card and ">Pool</th>" in card and ">Balance</th>" in card
    assert "N: 6♠" in card and "E: misere" in card
    traveller = reader.get(reverse("public:traveller", args=[event.slug, found.deal.pk]))
    text = traveller.content.decode()
    assert "N: 6NT" in text and "all-pass" in text and 'data-figure="whists">whists ' in text
    core = found.recorded[1][3]
    assert _whists(core["whists"]["E"], "on") in text
    reader.get(reverse("public:traveller_csv", args=[event.slug, found.deal.pk]))
    reader.get(reverse("public:card_csv", args=[event.slug, east.number]))
    reader.get(reverse("public:event", args=[event.slug]))
    reader.get(f"/p/{east.key}/")
    reader.get(round_link(found.plays[1], "?as=E"))
    assert reader.found == {}


def test_the_russian_game_ranks_its_own_suits_whatever_the_events_austrian_setting(
    director_client, director
):
    """♠ < ♣ < ♦ < ♥ is the Russian game's (docs/game.md §9.2): an event that kept another
    Austrian suit order from before its game was chosen shows its hands and tables in the
    game's order, and its page does not list the Austrian settings."""
    from scoring.hands import records as hand_records

    event = event_services.event_create(
        owner=director, name="Сочи с мастями", date="2026-12-05", game="sochi"
    )
    Event.objects.filter(pk=event.pk).update(suit_order=Event.SuitOrder.choices[-1][0])
    event.refresh_from_db()
    assert event.suit_order != "spades-clubs-diamonds-hearts"
    assert hand_records.suit_order(event) == [0, 1, 2, 3]
    page = director_client.get(reverse("director:event_detail", args=[event.pk])).content
    page = page.decode()
    assert GAME_LINE in page and "Старшинство мастей" not in page and "A = " not in page
    austrian = event_services.event_create(owner=director, name="Котёл", date="2026-12-05")
    page = director_client.get(reverse("director:event_detail", args=[austrian.pk])).content
    assert "Старшинство мастей" in page.decode()
