"""The box's integrity (docs/game.md §2.7): the talon on the sheet, the known talon shown to
later tables, «коробка не совпадает» from the table to the director's console, a deal marked
fouled from a table on and compared within each version of its cards."""

from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from events.cards import check_deal, parse_card
from events.catalogue import translated
from events.models import BoxReport, DealVersion, Seat
from scoring import compare, standings
from scoring.compare.versions import Fouling, PlayAt, play_versions
from scoring.console.board import console_state
from scoring.games.austrian.messages import MESSAGES
from scoring.models import DealScore, ScoreSheet, TablePlay
from scoring.sheets import boxes, services
from tests.factories import (
    THREE_DIAMONDS,
    THREE_DIAMONDS_FORM,
    deal_of,
    play_of,
    round_link,
    seat_players,
    start,
)

pytestmark = pytest.mark.django_db

TALON = ["SA", "H7"]


def _ru(*msgids: str) -> None:
    """The Russian of these texts comes from the catalogue, filled after this change: until
    it has them the Russian assertions wait (xfail), the field and code checks do not."""
    with translation.override("ru"):
        missing = [m for m in msgids if translation.gettext(m) == m and translated(m, "ru") == m]
    if missing:
        pytest.xfail(f"not in the Russian catalogue yet: {missing}")


def _plays_of_set(session, set_number):
    return list(
        TablePlay.objects.filter(round__room__session=session, board_set__number=set_number)
        .select_related("round__room__session__event", "table", "board_set")
        .order_by("round__number")
    )


def _with(talon, **more):
    return THREE_DIAMONDS | {"talon": talon} | more


def _errors(play, deal, data):
    with pytest.raises(ValidationError) as caught:
        services.sheet_check(play, deal, data)
    return caught.value.message_dict


# --- the talon on the sheet ---------------------------------------------------------------


@pytest.mark.parametrize(
    "talon,code",
    [
        (["SA", "SA"], "talon_twice"),
        (["SA"], "talon_format"),
        ("SA H7 D8", "talon_format"),
        (["SA", "X9"], "talon_card"),
        (5, "talon_format"),
    ],
)
def test_it_refuses_a_talon_that_is_not_two_different_cards_on_its_field(session15, talon, code):
    play = play_of(session15, 1, 1)
    errors = _errors(play, deal_of(play, 1), _with(talon))
    assert list(errors) == ["talon"]
    with translation.override("en"):
        english = _errors(play, deal_of(play, 1), _with(talon))["talon"][0]
    assert english.split("«")[0] in MESSAGES[code]


def test_the_talon_errors_read_in_russian(session15):
    _ru(MESSAGES["talon_twice"], MESSAGES["talon_no_talon"])
    play = play_of(session15, 1, 1)
    assert _errors(play, deal_of(play, 1), _with(["SA", "SA"])) == {
        "talon": ["прикуп — это две разные карты"]
    }
    game = THREE_DIAMONDS | {"contract": "game", "talon": TALON}
    assert _errors(play, deal_of(play, 1), game)["talon"] == [
        "при «игра» прикуп никто не берёт: его записывают только при числовой заявке"
    ]


@pytest.mark.parametrize("contract", ["game", "hearts"])
def test_a_talon_goes_only_with_a_numeric_contract(session15, contract):
    play = play_of(session15, 1, 1)
    data = THREE_DIAMONDS | {"contract": contract, "trump": "clubs", "talon": TALON}
    if contract == "hearts":
        data["trump"] = "hearts"
    assert "talon" in _errors(play, deal_of(play, 1), data)


def test_the_talon_is_read_with_suit_symbols_and_kept_as_entered(session15, director):
    play = play_of(session15, 1, 1)
    done = services.sheet_record(play, deal_of(play, 1), _with("♥7, sa"), by_user=director)
    assert done.version.data["talon"] == "♥7, sa"
    assert deal_of(play, 1).talon == "SA H7"  # the first table's talon is the deal's


def test_a_later_table_with_another_talon_is_told_to_check_the_box(session15, director):
    first, second = _plays_of_set(session15, 1)[:2]
    deal = deal_of(first, 1)
    services.sheet_record(first, deal, _with(TALON), by_user=director)
    with translation.override("en"):
        errors = _errors(second, deal_of(second, 1), _with(["SA", "H8"]))
    assert list(errors) == ["talon"]
    # It names what was typed, never the known talon (the table may not have played yet).
    assert "♠A ♥8" in errors["talon"][0] and "♥7" not in errors["talon"][0]
    assert "the box does not match" in errors["talon"][0]
    # The same talon passes; the first table may still correct its own typing.
    services.sheet_check(second, deal_of(second, 1), _with(["H7", "SA"]))
    services.sheet_check(first, deal, _with(["SA", "H8"]))


def test_the_refusal_of_another_talon_reads_in_russian(session15, director):
    msgid = (
        "This talon (%(found)s) is not the talon recorded for this deal. Check the box: if "
        "its talon really is other cards, report «the box does not match» on this deal's "
        "page; nothing of what you typed is lost."
    )
    _ru(msgid)
    first, second = _plays_of_set(session15, 1)[:2]
    services.sheet_record(first, deal_of(first, 1), _with(TALON), by_user=director)
    text = _errors(second, deal_of(second, 1), _with(["SA", "H8"]))["talon"][0]
    assert "коробка не совпадает" in text and "♠Т ♥8" in text and "♥7" not in text


def test_once_two_tables_agree_the_talon_stands(session15, director):
    first, second, third = _plays_of_set(session15, 1)[:3]
    services.sheet_record(first, deal_of(first, 1), _with(TALON), by_user=director)
    services.sheet_record(second, deal_of(second, 1), _with(TALON), by_user=director)
    assert "talon" in _errors(first, deal_of(first, 1), _with(["SA", "H8"]))
    assert "talon" in _errors(third, deal_of(third, 1), _with(["SA", "H8"]))


def test_with_known_cards_every_table_is_checked_against_the_deal(session15, director):
    first = _plays_of_set(session15, 1)[0]
    deal = deal_of(first, 1)
    hands = [
        [parse_card(c) for c in row]
        for row in (
            ["S7", "S8", "S9", "S10", "SJ", "SQ", "SK", "C7", "C8", "C9"],
            ["C10", "CJ", "CQ", "CK", "CA", "D7", "D8", "D9", "D10", "DJ"],
            ["DQ", "DK", "DA", "H8", "H9", "H10", "HJ", "HQ", "HK", "HA"],
        )
    ]
    dealt = check_deal(tuple(deal.active_seats), hands, [parse_card("SA"), parse_card("H7")])
    deal.cards, deal.cards_source = dealt.ppn(), "app"
    deal.save(update_fields=["cards", "cards_source"])
    assert "talon" in _errors(first, deal_of(first, 1), _with(["SA", "H8"]))
    services.sheet_check(first, deal_of(first, 1), _with(TALON))


def test_a_sheet_without_a_talon_is_still_recorded(session15, director):
    play = play_of(session15, 1, 1)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    assert deal_of(play, 1).talon == ""


# --- the table's page ---------------------------------------------------------------------


def _deal_url(play, deal=1):
    return round_link(play, f"deals/{deal}/")


def test_the_table_form_carries_the_talon_and_keeps_it_when_refused(client, session15, director):
    first, second = _plays_of_set(session15, 1)[:2]
    start(first.round)
    form = THREE_DIAMONDS_FORM | {"as": "N", "check": "1"}
    checked = client.post(_deal_url(first), form | {"talon": TALON})
    assert checked.status_code == 200 and checked.context["checked"].data["talon"] == TALON
    body = checked.content.decode()
    assert 'value="SA" id="group-talon-SA" checked' in body
    assert 'value="H7" id="group-talon-H7" checked' in body
    digest = checked.context["form"].data["checked"]
    saved = client.post(_deal_url(first), form | {"talon": TALON, "checked": digest, "save": "1"})
    assert saved.status_code == 302
    assert ScoreSheet.objects.get(play=first).current.data["talon"] == TALON
    start(second.round)
    # «Проверить» does not compare the talon: an answer before the play would tell it.
    wrong = form | {"talon": ["SA", "H8"]}
    checked = client.post(_deal_url(second), wrong)
    assert checked.status_code == 200 and checked.context["checked"].data["talon"] == ["SA", "H8"]
    assert boxes.talon_refusals(second, deal_of(second, 1)) == []
    # «Сохранить» does, on the talon's own field; the refused talon is kept as tried.
    digest = checked.context["form"].data["checked"]
    refused = client.post(_deal_url(second), wrong | {"checked": digest, "save": "1"})
    assert refused.status_code == 400
    assert list(refused.context["form"].errors) == ["talon"]
    assert not ScoreSheet.objects.filter(play=second).exists()
    assert len(boxes.talon_refusals(second, deal_of(second, 1))) == 1
    body = refused.content.decode()
    # Everything typed is kept: the cards ticked and the rest of the sheet.
    assert 'value="H8" id="group-talon-H8" checked' in body
    assert refused.context["form"]["tricks_N"].value() == "7"


def test_the_known_talon_is_shown_to_later_tables_only(client, session15, director):
    first, second, third = _plays_of_set(session15, 1)[:3]
    start(first.round)
    assert 'id="known-talon"' not in client.get(_deal_url(first)).content.decode()
    services.sheet_record(first, deal_of(first, 1), _with(TALON), by_user=director)
    start(second.round)
    # Not before the next table has played the deal: the phone lies on the table during
    # the auction.
    page = client.get(_deal_url(second))
    assert page.context["known_talon"] is None and 'id="known-talon"' not in page.content.decode()
    services.sheet_record(second, deal_of(second, 1), _with(TALON), by_user=director)
    page = client.get(_deal_url(second))
    assert page.context["known_talon"].shown == "♠Т ♥7"
    body = page.content.decode()
    assert 'id="known-talon"' in body and '<span class="card-name red">♥7</span>' in body
    # Another deal of the set has no talon yet.
    assert 'id="known-talon"' not in client.get(_deal_url(second, 2)).content.decode()


def test_a_dealt_boxs_talon_is_not_on_the_phone_before_the_play(client, event, director):
    session = seat_players(event, 15, dealing="app")
    play = play_of(session, 1, 1)
    start(play.round)
    assert deal_of(play, 1).cards  # known from the start
    body = client.get(_deal_url(play)).content.decode()
    assert 'id="known-talon"' not in body


def test_the_known_talon_reads_in_the_tables_language(client, session15, director):
    _ru("The talon of this deal: %(cards)s — separate it after the play and check the box.")
    first, second = _plays_of_set(session15, 1)[:2]
    services.sheet_record(first, deal_of(first, 1), _with(TALON), by_user=director)
    services.sheet_record(second, deal_of(second, 1), _with(TALON), by_user=director)
    start(second.round)
    body = client.get(_deal_url(second)).content.decode()
    assert "Прикуп этой сдачи:" in body and "отделите его после игры и проверьте коробку" in body


# --- «коробка не совпадает» ---------------------------------------------------------------


def _report_url(play, deal=1):
    return reverse("table:box_report", args=[play.key, deal])


def test_a_report_needs_the_talon_found_and_keeps_what_was_typed(client, session15):
    play = play_of(session15, 1, 1)
    start(play.round)
    refused = client.post(
        _report_url(play), {"kind": "talon", "found": ["SA"], "report_note": "под столом"}
    )
    assert refused.status_code == 400 and not BoxReport.objects.exists()
    assert "talon" in refused.context["report_errors"]
    body = refused.content.decode()
    assert 'value="SA" id="found-talon-SA" checked' in body and "под столом" in body


def test_a_report_shows_on_the_console_at_once(client, director_client, session15):
    play = play_of(session15, 1, 2)
    room = play.round.room
    start(play.round)
    board_url = reverse("director:room_console", args=[session15.event.pk, room.pk])
    before = director_client.get(board_url)
    version = before["X-Console-Version"]
    sent = client.post(
        _report_url(play, 2), {"kind": "talon", "found": ["D8", "CK"], "report_note": "?"}
    )
    assert sent.status_code == 302 and sent["Location"].endswith("#box-report")
    report = BoxReport.objects.get()
    assert (report.play, report.deal.number, report.kind, report.talon) == (
        play,
        2,
        "talon",
        "CK D8",
    )
    state = console_state(room.__class__.objects.select_related("session__event").get(pk=room.pk))
    assert [(b.table, b.deal) for b in state.box_reports] == [(2, f"{play.board_set.number}.2")]
    row = next(r for r in state.rows if r.table == 2)
    assert row.box_reports == 1 and [c.box for c in row.cells] == [False, True, False]
    after = director_client.get(f"{board_url}?since={version}")
    assert after.status_code == 200 and after["X-Console-Version"] != version
    html = after.content.decode()
    assert (
        "data-box" in html
        and reverse("director:box_report", args=[session15.event.pk, report.pk]) in html
    )
    # The table sees it was sent; sending again keeps one report.
    page = client.get(_deal_url(play, 2))
    assert 'data-box-report="open"' in page.content.decode()
    client.post(_report_url(play, 2), {"kind": "hand"})
    assert BoxReport.objects.count() == 1


def test_only_the_events_director_decides_on_a_report(client, other_client, session15):
    play = play_of(session15, 1, 1)
    start(play.round)
    client.post(_report_url(play), {"kind": "hand"})
    report = BoxReport.objects.get()
    url = reverse("director:box_report", args=[session15.event.pk, report.pk])
    decide = reverse("director:box_report_decide", args=[session15.event.pk, report.pk])
    assert client.get(url).status_code == 302  # to the login
    assert other_client.get(url).status_code == 404
    assert other_client.post(decide, {"action": "foul"}).status_code == 404
    assert not DealVersion.objects.exists()


def test_the_director_dismisses_a_report(director_client, client, session15):
    play = play_of(session15, 1, 1)
    start(play.round)
    client.post(_report_url(play), {"kind": "other", "report_note": "мятая карта"})
    report = BoxReport.objects.get()
    page = director_client.get(reverse("director:box_report", args=[session15.event.pk, report.pk]))
    assert page.status_code == 200 and "мятая карта" in page.content.decode()
    decide = reverse("director:box_report_decide", args=[session15.event.pk, report.pk])
    assert director_client.post(decide, {"action": "dismiss"}).status_code == 302
    report.refresh_from_db()
    assert report.state == "dismissed" and not DealVersion.objects.exists()
    assert director_client.post(decide, {"action": "foul"}).status_code == 400
    assert 'data-box-report="dismissed"' in client.get(_deal_url(play)).content.decode()


# --- the version rule ---------------------------------------------------------------------


def test_a_version_covers_its_table_and_the_later_rounds_of_its_room():
    plays = [
        PlayAt(1, room=1, round=1),
        PlayAt(2, room=1, round=2),
        PlayAt(3, room=1, round=2),  # the same round as the fouling, another copy: stays
        PlayAt(4, room=1, round=3),
        PlayAt(5, room=2, round=3),  # a twin room's own box: stays
        PlayAt(6, room=1, round=5),
    ]
    assert play_versions(plays, []) == {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1}
    assert play_versions(plays, [Fouling(2, from_play=2)]) == {1: 1, 2: 2, 3: 1, 4: 2, 5: 1, 6: 2}
    # A second fouling later on: the latest in the box's travel wins.
    twice = [Fouling(2, from_play=2), Fouling(3, from_play=4)]
    assert play_versions(plays, twice) == {1: 1, 2: 2, 3: 1, 4: 3, 5: 1, 6: 3}
    # Decided in the other order (the earlier table's report came last): the same travel.
    late = [Fouling(2, from_play=4), Fouling(3, from_play=2)]
    assert play_versions(plays, late) == {1: 1, 2: 3, 3: 1, 4: 2, 5: 1, 6: 2}


def _foul(director_client, client, play, deal_number, found):
    start(play.round)
    client.post(_report_url(play, deal_number), {"kind": "talon", "found": found})
    report = BoxReport.objects.get(play=play, deal__number=deal_number, state="open")
    decide = reverse(
        "director:box_report_decide", args=[play.round.room.session.event_id, report.pk]
    )
    assert director_client.post(decide, {"action": "foul"}).status_code == 302
    return report


def _record_all(session, director, set_number, deal_number, tricks_by_round, talon=None):
    for play in _plays_of_set(session, set_number):
        n = tricks_by_round[play.round.number]
        data = THREE_DIAMONDS | {"tricks": {"N": n, "E": 10 - n}}
        if talon:
            data["talon"] = talon(play)
        services.sheet_record(play, deal_of(play, deal_number), data, by_user=director)


def test_marking_a_deal_fouled_splits_its_comparison_with_neuberg(
    director_client, client, session15, director
):
    plays = _plays_of_set(session15, 1)
    assert [p.round.number for p in plays] == [1, 2, 3, 4, 5]
    tricks = {1: 6, 2: 7, 3: 8, 4: 5, 5: 9}
    _record_all(session15, director, 1, 1, tricks)
    report = _foul(director_client, client, plays[2], 1, ["D8", "CK"])  # table of round 3
    version = DealVersion.objects.get()
    assert (version.number, version.from_play, version.talon) == (2, plays[2], "CK D8")
    report.refresh_from_db()
    assert report.state == "fouled" and report.version == version
    deal = deal_of(plays[0], 1)
    assert boxes.deal_play_versions(deal) == {
        plays[0].pk: 1,
        plays[1].pk: 1,
        plays[2].pk: 2,
        plays[3].pk: 2,
        plays[4].pk: 2,
    }
    standings.session_refresh(session15)
    # The independent computation: each version's N scores compared among themselves, the
    # plain percentage restated by Neuberg to all 5 tables.
    expected = {}
    for group in ([plays[0], plays[1]], [plays[2], plays[3], plays[4]]):
        n = len(group)
        scores = {
            p.pk: Fraction(ScoreSheet.objects.get(play=p, deal=deal).current.result["scores"]["N"])
            for p in group
        }
        for pk, value in scores.items():
            beaten = sum(1 for v in scores.values() if v < value)
            ties = sum(1 for v in scores.values() if v == value) - 1
            plain = Fraction(100 * (2 * beaten + ties), 2 * (n - 1))
            expected[pk] = (plain - 50) * Fraction(n - 1, n) * Fraction(5, 4) + 50
    got = {
        s.play_id: Fraction(s.figure_num, s.figure_den)
        for s in DealScore.objects.filter(deal=deal, position="N")
    }
    assert got == expected
    # The best of three, restated: (100 − 50)·2/3·5/4 + 50; the best of two: ·1/2·5/4.
    assert got[plays[4].pk] == Fraction(275, 3) and got[plays[1].pk] == Fraction(325, 4)
    # The same as the core on each group with N = 5.
    core = compare.matchpoints([scores_of(deal, p) for p in plays[2:]], expected=5).percent
    assert [got[p.pk] for p in plays[2:]] == list(core)


def scores_of(deal, play):
    return Fraction(ScoreSheet.objects.get(play=play, deal=deal).current.result["scores"]["N"])


def test_a_fouled_version_has_its_own_known_talon(director_client, client, session15, director):
    plays = _plays_of_set(session15, 1)
    services.sheet_record(plays[0], deal_of(plays[0], 1), _with(TALON), by_user=director)
    _foul(director_client, client, plays[2], 1, ["D8", "CK"])
    # Round 2 still plays version 1; round 3 on, version 2 with the talon the table found.
    assert "talon" in _errors(plays[1], deal_of(plays[1], 1), _with(["D8", "CK"]))
    services.sheet_check(plays[3], deal_of(plays[3], 1), _with(["D8", "CK"]))
    assert "talon" in _errors(plays[3], deal_of(plays[3], 1), _with(TALON))
    services.sheet_record(plays[3], deal_of(plays[3], 1), _with(["D8", "CK"]), by_user=director)
    start(plays[3].round)
    page = client.get(_deal_url(plays[3]))
    assert page.context["known_talon"].shown == "♣К ♦8" and page.context["card_version"] == 2


def test_the_traveller_shows_the_versions_apart_and_the_csv_carries_them(
    director_client, client, session15, director
):
    plays = _plays_of_set(session15, 1)
    _record_all(session15, director, 1, 1, {1: 6, 2: 7, 3: 8, 4: 5, 5: 9})
    _foul(director_client, client, plays[3], 1, ["D8", "CK"])
    deal = deal_of(plays[0], 1)
    found = standings.deal_traveller(deal)
    assert [r.version for r in found.rows] == [1, 1, 1, 2, 2]
    assert [(v.number, v.table, v.round) for v in found.versions] == [
        (1, None, None),
        (2, plays[3].table.number, 4),
    ]
    event = session15.event
    event.results_public = True
    event.save(update_fields=["results_public"])
    page = client.get(reverse("public:traveller", args=[event.slug, deal.pk]))
    body = page.content.decode()
    assert body.count('data-version-head="') == 2 and 'id="fouled-note"' in body
    csv_text = client.get(reverse("public:traveller_csv", args=[event.slug, deal.pk])).content
    lines = csv_text.decode("utf-8-sig").splitlines()
    head = lines[0].split(";")
    column = head.index(next(h for h in head if h in ("Версия", "Version")))
    assert [line.split(";")[column] for line in lines[1:6]] == ["1", "1", "1", "2", "2"]


def test_the_version_heads_read_in_russian(director_client, client, session15, director):
    _ru(
        "Version 1 — the box as dealt",
        "Version %(n)s — the box fouled from table %(table)s, round %(round)s",
    )
    plays = _plays_of_set(session15, 1)
    _record_all(session15, director, 1, 1, {1: 6, 2: 7, 3: 8, 4: 5, 5: 9})
    _foul(director_client, client, plays[3], 1, ["D8", "CK"])
    event = session15.event
    event.results_public = True
    event.save(update_fields=["results_public"])
    body = client.get(reverse("public:traveller", args=[event.slug, deal_of(plays[0], 1).pk]))
    text = body.content.decode()
    assert f"Версия 2 — коробка испорчена со стола {plays[3].table.number}, тур 4" in text


def test_the_standings_and_the_card_say_a_deal_was_fouled(
    director_client, client, session15, director
):
    plays = _plays_of_set(session15, 1)
    _record_all(session15, director, 1, 1, {1: 6, 2: 7, 3: 8, 4: 5, 5: 9})
    _foul(director_client, client, plays[3], 1, ["D8", "CK"])
    event = session15.event
    event.results_public = True
    event.save(update_fields=["results_public"])
    results = client.get(reverse("public:event", args=[event.slug])).content.decode()
    assert 'id="fouled-deals"' in results
    entry = Seat.objects.get(round=plays[3].round, table=plays[3].table, position="N").entry
    card = client.get(reverse("public:card", args=[event.slug, entry.number])).content.decode()
    assert 'data-fouled="2"' in card


# --- the API --------------------------------------------------------------------------------


def test_the_api_records_and_returns_the_talon(director_client, session15):
    first, second = _plays_of_set(session15, 1)[:2]
    url = f"/api/v1/events/{session15.event.pk}/sheets/"
    made = director_client.post(
        url, {"play": first.pk, "deal": 1} | _with("SA H7"), content_type="application/json"
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["data"]["talon"] == "SA H7"
    again = director_client.get(f"{url}{body['id']}/").json()
    assert again["data"]["talon"] == "SA H7"
    refused = director_client.post(
        url,
        {"play": second.pk, "deal": 1} | _with(["SA", "H8"]),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert refused.status_code == 400 and list(refused.json()) == ["talon"]
    bad = director_client.post(
        url, {"play": second.pk, "deal": 1} | _with({"a": 1}), content_type="application/json"
    )
    assert bad.status_code == 400 and list(bad.json()) == ["talon"]


def test_the_director_adds_a_talon_to_a_recorded_sheet_as_a_correction(session15, director):
    play = play_of(session15, 1, 1)
    deal = deal_of(play, 1)
    services.sheet_record(play, deal, THREE_DIAMONDS, by_user=director)
    done = services.sheet_record(play, deal, _with(TALON), by_user=director)
    assert done.outcome == "corrected" and done.version.data["talon"] == TALON
    assert deal_of(play, 1).talon == "SA H7"
    again = services.sheet_record(play, deal, _with(["H7", "SA"]), by_user=director)
    assert again.outcome == "unchanged"


def test_the_api_traveller_gives_each_tables_version(director_client, client, session15, director):
    plays = _plays_of_set(session15, 1)
    _record_all(session15, director, 1, 1, {1: 6, 2: 7, 3: 8, 4: 5, 5: 9})
    _foul(director_client, client, plays[3], 1, ["D8", "CK"])
    deal = deal_of(plays[0], 1)
    body = director_client.get(f"/api/v1/events/{session15.event.pk}/deals/{deal.pk}/traveller/")
    assert body.status_code == 200, body.content
    assert [t["version"] for t in body.json()["tables"]] == [1, 1, 1, 2, 2]


def test_a_dealt_boxs_own_talon_is_accepted_in_any_order(event, director):
    """The known talon from the dealt cards and the sheet's talon are the same cards
    whatever order each is kept in (a talon of two suits, both orders typed)."""
    session = seat_players(event, 15, dealing="app")
    plays = _plays_of_set(session, 1)
    deal = deal_of(plays[0], 1)
    seats = deal.active_seats
    # The talon: S7 and HA, two suits; PPN keeps it hearts first.
    every = [c for c in range(32) if c not in (0, 31)]
    dealt = check_deal(seats, [every[0:10], every[10:20], every[20:30]], [31, 0])
    assert dealt.ppn()[-2:] == "O1"
    type(deal).objects.filter(pk=deal.pk).update(cards=dealt.ppn(), talon="")
    for play, typed in zip(plays[:2], (["S7", "HA"], ["HA", "S7"]), strict=True):
        start(play.round)
        services.sheet_check(play, deal_of(play, 1), _with(typed))
        services.sheet_record(play, deal_of(play, 1), _with(typed), by_user=director)
    assert "talon" in _errors(plays[2], deal_of(plays[2], 1), _with(["S7", "H7"]))
