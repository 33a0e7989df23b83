"""The hand records and double dummy of the Russian game (issue 23): a Сочи event of 15
players whose boxes the app dealt, sheets recorded at the three tables of a set (6♠ with its
talon, a мизер, распасы) and more, published and analysed; the traveller, the player's card
and the printable hand records show each active seat's tricks in ♠ ♣ ♦ ♥ БК and мизер with
and without the talon, first hand leading — each figure equal to ``scoring.solver`` called
here — and each played row's «по картам» equal to the solver for that row's position;
распасы say they are not counted. The play rules are the game's (``Game.play``), and an
analysis made under other rules (an event whose game changed) is made again."""

import re

import pytest
from django.urls import reverse

from events import dealing
from events import services as event_services
from events.models import Event
from scoring import games, solver
from scoring.games.austrian.play import position as austrian_position
from scoring.games.common.play import ALL_PASS, Position
from scoring.games.russian.play import position as russian_position
from scoring.hands import analysis
from scoring.hands import records as hand_records
from scoring.models import TablePlay
from scoring.sheets import services
from scoring.solver import json_io
from tests.factories import entry_at, play_out, seat_players

pytestmark = pytest.mark.django_db

COLUMNS = ("spades", "clubs", "diamonds", "hearts", "notrump", "misere")
STRAIN_OF = {"6S": "spades", "6NT": "notrump", "7H": "hearts", "misere": "misere"}


def _hands(deal):
    dealt = dealing.deal_cards(deal)
    return {seat: list(hand) for seat, hand in dealt.by_seat()}, list(dealt.talon), dealt


class SochiDealt:
    """The event, the plays of its first set, the sheets recorded and the analysis run."""

    def __init__(self, director):
        self.event = event_services.event_create(
            owner=director, name="Сочи в открытую", date="2026-12-05", game="sochi"
        )
        self.session = seat_players(self.event, 15, dealing="app")
        plays = list(
            TablePlay.objects.filter(round__room__session=self.session)
            .select_related("board_set", "round__room__session__event", "table")
            .order_by("board_set__number", "round__number")
        )
        self.plays = [p for p in plays if p.board_set_id == plays[0].board_set_id][:3]
        self.deal = self.plays[0].board_set.deals.get(number=1)  # N first hand: N E S
        self.deal2 = self.plays[0].board_set.deals.get(number=2)  # E first hand: E S N
        self.deal3 = self.plays[0].board_set.deals.get(number=3)
        talon = _hands(self.deal)[2].as_names()["talon"]
        self.sheets = [
            # N 6♠ with its talon, E whists alone (he plays both hands), S passes.
            {
                "declarer": "N",
                "contract": "6S",
                "defenders": {"E": "whist", "S": "pass"},
                "tricks": {"N": 6, "E": 4},
                "talon": talon,
            },
            # E's мизер, caught once.
            {"declarer": "E", "contract": "misere", "tricks": {"E": 1}, "talon": talon},
            # Распасы: no double-dummy value.
            {"contract": "passed", "tricks": {"N": 4, "E": 3, "S": 3}},
        ]
        for play, sheet in zip(self.plays, self.sheets, strict=True):
            services.sheet_record(play, self.deal, sheet, by_user=director)
        # Deal 2 at the first table: S 6БК, both whisting; deal 3: 7♥ both passing.
        self.sheet2 = {
            "declarer": "S",
            "contract": "6NT",
            "defenders": {"N": "whist", "E": "whist"},
            "tricks": {"S": 6, "N": 2, "E": 2},
            "talon": _hands(self.deal2)[2].as_names()["talon"],
        }
        services.sheet_record(self.plays[0], self.deal2, self.sheet2, by_user=director)
        self.sheet3 = {
            "declarer": "N",
            "contract": "7H",
            "defenders": {"E": "pass", "S": "pass"},
            "talon": _hands(self.deal3)[2].as_names()["talon"],
        }
        services.sheet_record(self.plays[0], self.deal3, self.sheet3, by_user=director)
        assert analysis.session_analyse(self.session.pk) == 15
        for deal in (self.deal, self.deal2, self.deal3):
            deal.refresh_from_db()

    def publish(self):
        play_out(self.session)
        Event.objects.filter(pk=self.event.pk).update(results_public=True)
        self.event.refresh_from_db()


@pytest.fixture
def sochi(director):
    return SochiDealt(director)


def _table(deal):
    """The whole table of the deal, by the solver called here: Russian play, first hand
    leading."""
    hands, talon, _dealt = _hands(deal)
    return solver.deal_table(hands, talon, rules=solver.RUSSIAN_PLAY, leader=deal.first_hand)


def _solved(deal, sheet):
    """The declarer's tricks in the position ``sheet`` played, by the solver called here:
    the talon taken, both hands defending, first hand leading."""
    hands, talon, _dealt = _hands(deal)
    strain = STRAIN_OF[sheet["contract"]]
    misere = strain == "misere"
    tricks, _discard = solver.solve(
        hands,
        sheet["declarer"],
        "notrump" if misere else strain,
        talon=talon,
        rules=solver.RUSSIAN_PLAY,
        leader=deal.first_hand,
        misere=misere,
    )
    return tricks


def _dd_tables(html: str) -> list[dict[str, list[tuple[int, int]]]]:
    """Each double-dummy table of a page: seat → [(with the talon, without it)] by column."""
    found = []
    for body in re.findall(r'<table class="dd-table[^"]*">(.*?)</table>', html, re.S):
        rows = {}
        for seat, cells in re.findall(r'<th scope="row">(\w)</th>(.*?)</tr>', body, re.S):
            rows[seat] = [(int(a), int(b)) for a, b in re.findall(r"<td>(\d+) / (\d+)</td>", cells)]
        found.append(rows)
    return found


def _expected_rows(deal):
    table = _table(deal)
    return {
        seat: [(table[seat][c]["talon"], table[seat][c]["no_talon"]) for c in COLUMNS]
        for seat in deal.active_seats
    }


def _traveller_rows(html: str) -> list[str]:
    body = html[html.index('id="traveller"') :]
    body = body[body.index("<tbody>") : body.index("</tbody>")]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)) for row in body.split("<tr")[1:]]


# --- the game's play, one way --------------------------------------------------------------


def test_the_play_rules_are_the_games_own():
    assert games.RUSSIAN_GAME.play is solver.RUSSIAN_PLAY
    assert games.AUSTRIAN_GAME.play is solver.AUSTRIAN_PLAY
    assert not hasattr(json_io, "PLAY_RULES")
    for name in ("sochi", "leningrad", "rostov"):
        position = json_io.read_position(
            {"rules": {"game": name}, "hands": {"N": ["SA"], "E": ["S7"], "S": ["S8"]}}
            | {"declarer": "N", "trump": "notrump", "leader": "E"}
        )
        assert position["rules"] is games.game_named(name).play
    assert solver.RUSSIAN_PLAY.leader("E") == "E" and solver.AUSTRIAN_PLAY.leader("E") is None


def test_the_russian_position_of_a_sheet():
    assert russian_position(
        {"contract": "6S", "declarer": "N", "defenders": {"E": "whist", "S": "pass"}}
    ) == Position("N", "spades", True, "both")
    assert russian_position({"contract": "misere", "declarer": "E", "tricks": {"E": 0}}) == (
        Position("E", "misere", True)
    )
    assert russian_position({"contract": "10NT", "declarer": "S", "tricks": {"S": 10}}).key == (
        "S.notrump.talon.both"
    )
    assert russian_position({"contract": "passed", "tricks": {"N": 5}}) is ALL_PASS
    # Not played: both passed, полвиста.
    assert (
        russian_position(
            {"contract": "7H", "declarer": "N", "defenders": {"E": "pass", "S": "pass"}}
        )
        is None
    )
    assert (
        russian_position(
            {"contract": "6D", "declarer": "N", "defenders": {"E": "pass", "S": "half"}}
        )
        is None
    )
    assert russian_position(None) is None
    # The Austrian game's keys are as they were.
    assert austrian_position(
        {"contract": "three", "declarer": "N", "trump": "diamonds", "defenders": {"E": "whist"}}
    ).key == ("N.diamonds.talon.E")
    assert hand_records.position_key({"contract": "passed"}) is None


# --- the stored analysis --------------------------------------------------------------------


def test_the_worker_stores_the_russian_table_with_its_rules_leader_and_positions(sochi):
    deal = sochi.deal
    expected = _table(deal)
    for seat in "NES":
        for column in COLUMNS:
            assert deal.analysis[seat][column] == expected[seat][column], (seat, column)
    assert deal.analysis["play"] == solver.RUSSIAN_PLAY.as_json()
    assert deal.analysis["leader"] == deal.first_hand == "N"
    made, misere, _passed = sochi.sheets
    assert deal.analysis["positions"] == {
        "N.spades.talon.both": _solved(deal, made),
        "E.misere.talon.both": _solved(deal, misere),
    }
    assert sochi.deal2.analysis["leader"] == "E"
    assert sochi.deal2.analysis["positions"] == {
        "S.notrump.talon.both": _solved(sochi.deal2, sochi.sheet2)
    }
    assert sochi.deal3.analysis["positions"] == {}  # both passed: not played
    assert dealing.session_cards_state(sochi.session).analysed == 15


def test_a_table_of_other_play_rules_is_made_again(director):
    event = event_services.event_create(owner=director, name="Был австрийский", date="2026-12-05")
    session = seat_players(event, 15, dealing="app")
    analysis.session_analyse(session.pk)
    deal = session_deal = dealing.session_deals(session).first()
    deal.refresh_from_db()
    assert "notrump" not in deal.analysis["N"] and "play" in deal.analysis
    # The game changes before any sheet: the Austrian table is no Russian one.
    Event.objects.filter(pk=event.pk).update(game="sochi", ten="checked", responsibility="full")
    event.refresh_from_db()
    record = hand_records.hand_record(deal, event)
    assert not record.analysed and record.table == []
    analysis.session_analyse(session.pk)  # the round's end or «Проанализировать»
    session_deal.refresh_from_db()
    assert session_deal.analysis["N"] == _table(session_deal)["N"]
    assert hand_records.hand_record(session_deal, event).analysed


def test_an_analysis_stored_before_the_rules_were_kept_reads_as_austrian(director):
    event = event_services.event_create(owner=director, name="Старый анализ", date="2026-12-05")
    session = seat_players(event, 15, dealing="app")
    analysis.session_analyse(session.pk)
    deal = dealing.session_deals(session).first()
    stored = {k: v for k, v in deal.analysis.items() if k not in ("play", "leader")}
    type(deal).objects.filter(pk=deal.pk).update(analysis=stored)
    deal.refresh_from_db()
    record = hand_records.hand_record(deal, event)
    assert record.analysed and [c.name for c in record.suits] == list(COLUMNS[:4])


# --- the pages ------------------------------------------------------------------------------


def test_the_traveller_shows_the_russian_table_and_by_the_cards_on_each_played_row(client, sochi):
    sochi.publish()
    url = reverse("public:traveller", args=[sochi.event.slug, sochi.deal.pk])
    html = client.get(url).content.decode()
    record = html[html.index('id="hand-record"') :]
    assert "первый ход — первая рука N" in record
    assert "Мизер: сколько взяток ему навяжут" in record
    heads = re.findall(r'<th scope="col" class="col-(\w+)">(.*?)</th>', record)
    assert [name for name, _ in heads] == list(COLUMNS)
    assert "БК" in heads[4][1] and "мизер" in heads[5][1]
    assert _dd_tables(html) == [_expected_rows(sochi.deal)]

    rows = _traveller_rows(html)
    made, misere, _passed = sochi.sheets
    by_contract = {
        "N: 6♠": f"по картам: {_solved(sochi.deal, made)}",
        "E: мизер": f"по картам: {_solved(sochi.deal, misere)}",
        "распасы": "распасы: по картам не считается",
    }
    for contract, said in by_contract.items():
        [row] = [r for r in rows if f" {contract} " in r]
        assert said in row, row
    assert sum("по картам" in r for r in rows) == 3

    # Deal 2's БК and deal 3, not played (both passed): no «по картам» there.
    html2 = client.get(
        reverse("public:traveller", args=[sochi.event.slug, sochi.deal2.pk])
    ).content.decode()
    assert f"по картам: {_solved(sochi.deal2, sochi.sheet2)}" in html2
    assert "первый ход — первая рука E" in html2
    assert _dd_tables(html2) == [_expected_rows(sochi.deal2)]
    html3 = client.get(
        reverse("public:traveller", args=[sochi.event.slug, sochi.deal3.pk])
    ).content.decode()
    assert "по картам" not in html3.split('id="traveller"')[1]


def test_the_players_card_and_the_printable_hand_records_show_the_russian_tables(client, sochi):
    sochi.publish()
    deals = {d.pk: d for d in dealing.session_deals(sochi.session)}
    north = entry_at(sochi.plays[0], "N")
    card = client.get(
        reverse("public:card", args=[sochi.event.slug, north.number])
    ).content.decode()
    shown = re.findall(r'id="card-hand-(\d+)"', card)
    assert len(shown) == 15
    tables = _dd_tables(card)
    assert tables == [_expected_rows(deals[int(pk)]) for pk in shown]

    hands = client.get(
        reverse("public:session_hands", args=[sochi.event.slug, sochi.session.number])
    ).content.decode()
    boxes = re.findall(r'id="hand-(\d+)"', hands)
    assert len(boxes) == 15
    assert _dd_tables(hands) == [_expected_rows(deals[int(pk)]) for pk in boxes]
    assert "первый ход — первая рука" in hands and "мизер: сколько взяток ему навяжут" in hands


def test_the_ppn_export_of_a_russian_session(client, sochi):
    sochi.publish()
    url = reverse("public:session_hands_txt", args=[sochi.event.slug, sochi.session.number])
    lines = client.get(url).content.decode().splitlines()
    data = [line for line in lines if not line.startswith("%")]
    stored = {d.code: d.cards for d in dealing.session_deals(sochi.session)}
    assert len(data) == 15
    assert dict(line.split() for line in data) == stored


def test_the_russian_hand_record_reads_in_english(director_client, sochi):
    sochi.publish()
    director_client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    # A public page's language is its address's or the browser's, never the cookie's.
    html = director_client.get(
        reverse("public:traveller", args=[sochi.event.slug, sochi.deal.pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    record = html[html.index('id="hand-record"') : html.index("</section>")]
    assert "first hand N leading" in record and "Misère: the fewest tricks" in record
    assert ">NT<" in record and ">misère<" in record
    assert not re.search("[А-Яа-яЁё]", re.sub(r'<span class="player">.*?</span>', "", record))
    assert "all-pass: not counted by the cards" in html
