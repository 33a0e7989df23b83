"""Table links are per round (issue 26): a table's key (its QR code, which everyone who ever
sat there has) is only a gate to the round at the table now, and each table-round has a
round link of its own. A player of an earlier round at the table, holding the table's link
and his round's link, reads and writes nothing of the table's later rounds; and a PIN is
counted only where its player could write (his table, his round)."""

import re

import pytest

from events import rounds
from events.models import Round, Seat
from scoring.models import Proof, ScoreSheet
from scoring.sheets import proof, services
from tests.factories import THREE_DIAMONDS, THREE_DIAMONDS_FORM, deal_of, play_of, round_link

pytestmark = pytest.mark.django_db

OTHER_FORM = {**THREE_DIAMONDS_FORM, "tricks_N": "6", "tricks_E": "4"}  # a different result


def _seats(play) -> dict[str, Seat]:
    return {
        s.position: s
        for s in Seat.objects.filter(round=play.round, table=play.table).select_related("entry")
    }


@pytest.fixture
def round2(session15):
    """The 15-player prime session (5 tables × 3 seats) running round 2, with a sheet of
    round 1 at table 1 entered by N («три» in diamonds), and round 2's deal 1 at table 1
    entered by its N (passed out)."""
    first = play_of(session15, 1, 1)
    rounds.round_start(first.round)
    services.sheet_record(
        first, deal_of(first, 1), THREE_DIAMONDS, by_entry=_seats(first)["N"].entry
    )
    rounds.round_end_now(Round.objects.get(pk=first.round_id))
    rounds.round_start(Round.objects.get(room=first.round.room, number=2))
    second = play_of(session15, 2, 1)
    services.sheet_record(
        second, deal_of(second, 1), {"contract": "passed"}, by_entry=_seats(second)["N"].entry
    )
    return first, second


def _earlier_player(first, second) -> Seat:
    """A round-1 player of table 1 who does not sit there in round 2."""
    now = {s.entry_id for s in _seats(second).values()}
    return next(s for s in _seats(first).values() if s.entry_id not in now)


def _round2_words(first, second) -> list[str]:
    """What of round 2 at table 1 must not show on round 1's pages: its set, its players
    (those who did not sit there in round 1 too), its deal's result, its link."""
    earlier = {s.entry_id for s in _seats(first).values()}
    words = [s.entry.full_name for s in _seats(second).values() if s.entry_id not in earlier]
    if second.board_set.number != first.board_set.number:
        words.append(f"комплект {second.board_set.number}")
    return [*words, "Распас", round_link(second)]


def test_an_earlier_player_with_the_tables_link_and_his_rounds_link_sees_nothing_of_round_2(
    client, round2
):
    first, second = round2
    old = _earlier_player(first, second)
    gate = client.get(f"/t/{first.table.key}/")
    mine = client.get(round_link(first, f"?me={old.entry.key}"))
    gate_as_me = client.get(f"/t/{first.table.key}/?me={old.entry.key}")
    assert gate.status_code == mine.status_code == gate_as_me.status_code == 200
    for page in (gate, mine, gate_as_me):
        body = page.content.decode()
        for word in _round2_words(first, second):
            assert word not in body, (page.request["PATH_INFO"], word)
    # The gate shows no sheet, set or seat of any round: only the table and its round now.
    for page in (gate, gate_as_me):
        body = page.content.decode()
        assert "комплект" not in body and 'data-deal="' not in body
        for seat in [*_seats(first).values(), *_seats(second).values()]:
            assert seat.entry.full_name not in body
    gate_body = gate.content.decode()
    assert "Стол 1" in gate_body and "тур 2" in gate_body and "Кто вы?" in gate_body
    # His own link does not lead him into round 2: he does not sit there.
    assert "не сидит за столом 1" in gate_as_me.content.decode()


def test_an_old_round_link_shows_its_round_only_and_says_where_the_new_one_opens(client, round2):
    first, second = round2
    # A phone nobody of round 1 proved himself on: «Тур окончен», nothing of its sheets, set
    # or seats (the next round's players may play its deals later), no «Кто вы?» (its
    # players may not write it any more), a pointer to each player's own page.
    body = client.get(round_link(first)).content.decode()
    assert 'id="round-over"' in body and 'id="own-page"' in body and 'id="gate"' not in body
    assert "комплект" not in body and 'data-deal="' not in body
    for seat in _seats(first).values():
        assert seat.entry.full_name not in body
    assert round_link(second) not in body
    # A player of round 1, from his own link: its round only, and where the new one opens.
    north = _seats(first)["N"].entry
    body = client.get(round_link(first, f"?me={north.key}")).content.decode()
    assert "тур 1" in body and f"комплект {first.board_set.number}" in body
    assert body.count('data-deal="') == 3
    assert "Тур 1 окончен: на этой странице только его протоколы." in body
    assert "по QR-коду на карточке стола или с вашей страницы" in body
    assert round_link(second) not in body


def test_an_earlier_player_cannot_enter_confirm_or_dispute_a_round_2_sheet(client, round2):
    first, second = round2
    old = _earlier_player(first, second)
    sheet = ScoreSheet.objects.get(play=second)
    before = (sheet.status, sheet.versions.count())
    # Through the table's old addresses: the gate, never round 2's sheets.
    for data in (
        {**OTHER_FORM, "as": "E", "check": "1"},
        {**OTHER_FORM, "as": old.position, "pin": old.entry.pin, "check": "1"},
    ):
        answer = client.post(f"/t/{first.table.key}/deals/1/", data)
        assert answer.status_code == 302 and answer["Location"] == f"/t/{first.table.key}/"
    answer = client.post(
        f"/t/{first.table.key}/sheets/{sheet.pk}/confirm/", {"as": "E", "pin": old.entry.pin}
    )
    assert answer.status_code == 302 and answer["Location"] == f"/t/{first.table.key}/"
    # Through his round's link: round 1 only — round 2's sheet is not there to confirm…
    answer = client.post(
        round_link(first, f"sheets/{sheet.pk}/confirm/"),
        {"me": old.entry.key, "as": old.position},
    )
    assert answer.status_code == 404
    # … and what he enters there is round 1's (closed to him now), never round 2's.
    answer = client.post(
        round_link(first, "deals/1/"), {**OTHER_FORM, "me": old.entry.key, "check": "1"}
    )
    assert answer.status_code == 400
    assert not ScoreSheet.objects.filter(play=second).exclude(pk=sheet.pk).exists()
    sheet.refresh_from_db()
    assert (sheet.status, sheet.versions.count()) == before  # not confirmed, not disputed


def test_the_gate_with_a_round_2_players_pin_leads_to_round_2s_link(client, round2):
    _first, second = round2
    east = _seats(second)["E"].entry
    answer = client.post(f"/t/{second.table.key}/", {"round": "2", "as": "E", "pin": east.pin})
    assert answer.status_code == 302
    assert answer["Location"] == round_link(second, "?as=E")
    page = client.get(answer["Location"]).content.decode()
    assert east.full_name in page and 'data-deal="1"' in page
    # His own link leads him there without a PIN.
    mine = client.get(f"/t/{second.table.key}/?me={east.key}")
    assert mine.status_code == 302 and mine["Location"] == round_link(second, f"?me={east.key}")


def test_a_wrong_pin_on_the_gate_is_refused_in_russian_naming_the_field(client, round2):
    _first, second = round2
    east = _seats(second)["E"].entry
    wrong = "0000" if east.pin != "0000" else "1111"
    answer = client.post(f"/t/{second.table.key}/", {"round": "2", "as": "E", "pin": wrong})
    assert answer.status_code == 400
    body = answer.content.decode()
    error = re.search(r'<p class="error" role="alert" id="pin-error">([^<]*)</p>', body)
    assert error and "ПИН-код" in error.group(1) and "места E" in error.group(1)
    assert east.full_name not in body  # the gate names nobody
    assert 'aria-invalid="true"' in body and 'id="as-E" checked' in body  # the seat kept
    missing = client.post(f"/t/{second.table.key}/", {"round": "2", "pin": east.pin})
    assert missing.status_code == 400
    assert "Выберите своё место за этим столом." in missing.content.decode()


def test_the_gate_before_the_round_starts_asks_no_pin(client, session15):
    play = play_of(session15, 1, 1)
    page = client.get(f"/t/{play.table.key}/").content.decode()
    assert "Тур 1 ещё не начался" in page and 'id="gate"' not in page
    # The one PIN it asks is the players' check-in's («Я на месте», events.checkin).
    assert page.count('name="pin"') == page.count('id="checkin-id_pin"') == 1
    # Nor does the round's own link show its set or seats before it starts.
    body = client.get(round_link(play)).content.decode()
    assert "ещё не начался" in body and f"комплект {play.board_set.number}" not in body
    assert 'data-deal="' not in body
    for seat in _seats(play).values():
        assert seat.entry.full_name not in body


def test_a_round_by_number_no_longer_exists(client, round2):
    first, _second = round2
    for path in ("rounds/2/", "rounds/1/", "rounds/2/deals/1/", "rounds/2/deals/1/box/"):
        assert client.get(f"/t/{first.table.key}/{path}").status_code == 404


def test_a_players_page_links_to_his_current_round_link(client, round2):
    _first, second = round2
    south = _seats(second)["S"].entry
    body = client.get(f"/p/{south.key}/").content.decode()
    assert f'href="{round_link(second, f"?me={south.key}")}"' in body
    assert f"/t/{second.table.key}/" not in body


# --- a PIN counts only where its player could write ------------------------------------------


def _wrong(entry) -> str:
    return "0000" if entry.pin != "0000" else "1111"


def test_wrong_pins_on_a_closed_round_of_his_old_table_leave_his_pin_working(client, round2):
    first, second = round2
    old = _earlier_player(first, second)
    old_sheet = ScoreSheet.objects.get(play=first)
    for _ in range(6):
        # The round's «Тур окончен» asks who he is; its players may not write it any more.
        answer = client.post(round_link(first), {"as": old.position, "pin": _wrong(old.entry)})
        assert answer.status_code == 400
        body = answer.content.decode()
        assert "тур 2 начался" in _error_of(answer, "round")  # the round's reason…
        assert "Это не ПИН-код" not in body  # … and no word on the PIN: it was not read
        # A confirmation sent from this phone is refused before anything is read.
        answer = client.post(
            round_link(first, f"sheets/{old_sheet.pk}/confirm/"),
            {"as": old.position, "pin": _wrong(old.entry)},
        )
        body = answer.content.decode()
        assert (
            answer.status_code == 400 and 'id="round-over"' in body and 'id="round-error"' in body
        )
        assert "Это не ПИН-код" not in body
    assert proof.seconds_locked(old.entry_id) == 0
    assert ScoreSheet.objects.get(pk=old_sheet.pk).status == "entered"
    # Nor on the table's gate, which offers round 2 only: round 1 is refused, no PIN read.
    for _ in range(6):
        gate = client.post(
            f"/t/{first.table.key}/", {"round": "1", "as": old.position, "pin": _wrong(old.entry)}
        )
        assert gate.status_code == 400 and "Выберите тур" in _error_of(gate, "round")
        assert _error_of(gate, "pin") == ""
    assert proof.seconds_locked(old.entry_id) == 0
    # His PIN still works where he sits now.
    play = play_of(first.round.room.session, 2, _table_of(old.entry, second.round))
    seat = Seat.objects.get(round=play.round, table=play.table, entry=old.entry)
    enterer = next(s for s in _seats(play).values() if s.pk != seat.pk)
    # With his PIN: an entry without one is confirmed from another phone only.
    services.sheet_record(
        play, deal_of(play, 2), THREE_DIAMONDS, by_entry=enterer.entry, proof=Proof.PIN
    )
    sheet = ScoreSheet.objects.get(play=play)
    if seat.position not in sheet.deal.active_seats:  # pragma: no cover - 3 seats play all
        pytest.skip("he sits this deal out")
    done = client.post(
        round_link(play, f"sheets/{sheet.pk}/confirm/"),
        {"as": seat.position, "pin": old.entry.pin},
    )
    assert done.status_code == 302
    sheet.refresh_from_db()
    assert sheet.status == "confirmed" and sheet.confirmed_by_entry_id == old.entry_id


def test_the_same_wrong_pins_on_his_current_round_lock_it(client, round2):
    _first, second = round2
    sheet = ScoreSheet.objects.get(play=second)
    east = _seats(second)["E"].entry
    url = round_link(second, f"sheets/{sheet.pk}/confirm/")
    for _ in range(5):
        assert client.post(url, {"as": "E", "pin": _wrong(east)}).status_code == 400
    refused = client.post(url, {"as": "E", "pin": east.pin})
    assert refused.status_code == 400 and "Слишком много неверных ПИН-кодов" in (
        refused.content.decode()
    )
    sheet.refresh_from_db()
    assert sheet.status == "entered"


def _error_of(answer, field: str) -> str:
    """The text of the page's error ``id="<field>-error"`` (or of ``id="access"``)."""
    marker = "access" if field == "access" else f"{field}-error"
    found = re.search(rf'id="{marker}">(?:<p>)?([^<]*)<', answer.content.decode())
    return found.group(1) if found else ""


def _table_of(entry, rnd) -> int:
    return Seat.objects.select_related("table").get(round=rnd, entry=entry).table.number
