"""The two-person rule (issue 11, finding 1): a confirmation counts only from a second person
proven by something of his own — his private link or his PIN; the table's link alone enters
(marked for the director), never confirms, and writes only the round at the table now."""

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.utils import translation

from events import rounds
from events.models import PIN_DIGITS, Entry, Round, Seat, new_pin
from scoring.models import Proof, ScoreSheet
from scoring.sheets import services
from tests.console_board import board_doc
from tests.factories import THREE_DIAMONDS_FORM, play_of, round_link

pytestmark = pytest.mark.django_db

GOOD = THREE_DIAMONDS_FORM  # N «три» in diamonds, E whists and takes 3, S passes


def _entry(play, position) -> Entry:
    return Seat.objects.get(round=play.round, table=play.table, position=position).entry


def _enter(client, play, *, who: dict):
    url = round_link(play, "deals/1/")
    checked = client.post(url, {**GOOD, **who, "check": "1"})
    if checked.status_code != 200:
        return checked
    digest = checked.context["form"].data["checked"]
    return client.post(url, {**GOOD, **who, "checked": digest, "save": "1"})


def _confirm(client, play, sheet, data):
    return client.post(round_link(play, f"sheets/{sheet.pk}/confirm/"), data)


#: The service's refusals (scoring.sheets.services._check_second_person), as the page says them.
SAME_PHONE = (
    "This sheet was entered on this phone without a PIN, so it cannot be confirmed on the same "
    "phone: the player confirming uses his own page on his own phone, or the sheet is entered "
    "again with the PIN of the player entering it."
)
SAME_PERSON = (
    "The player who entered the sheet cannot confirm it: a player of another seat at the "
    "table must, with his own PIN or from his own page."
)


def _said(message: str) -> str:
    """``message`` as the (Russian) page says it."""
    with translation.override("ru"):
        return translation.gettext(message)


def test_one_device_cannot_enter_as_n_and_confirm_as_e(client, running):
    """The probe's finding: the table's link entered a sheet as N and confirmed it as E. A
    sheet entered without a PIN is not confirmed on the phone that entered it, not even with
    another player's PIN (the two-person rule, issue 32)."""
    assert _enter(client, running, who={"as": "N"}).status_code == 302
    sheet = ScoreSheet.objects.get()
    page = client.get(round_link(running)).content.decode()
    assert 'id="same-phone-1"' in page and 'id="confirm-form-1"' not in page
    refused = _confirm(client, running, sheet, {"as": "E"})
    assert refused.status_code == 400
    assert "введите ПИН-код с именной карточки" in refused.content.decode()
    east = _entry(running, "E")
    refused = _confirm(client, running, sheet, {"as": "E", "pin": east.pin})
    assert refused.status_code == 400
    assert _said(SAME_PHONE) in refused.content.decode()
    sheet.refresh_from_db()
    assert sheet.status == "entered" and sheet.confirmed_by_entry is None
    # Another phone with the table's link alone cannot confirm it either; the seat it chose
    # stays chosen beside the refusal.
    other = Client()
    refused = _confirm(other, running, sheet, {"as": "E"})
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "введите ПИН-код с именной карточки" in body
    assert "по одной ссылке стола протокол можно внести, но не подтвердить" in body.lower()
    sheet.refresh_from_db()
    assert sheet.status == "entered" and sheet.confirmed_by_entry is None
    form = body[body.index('id="confirm-form-1"') :]
    assert re.search(r'<option value="E" selected>', form[: form.index("</form>")])


def test_his_pin_confirms_and_says_who_and_how(client, running):
    """E's PIN confirms on the phone that entered the sheet once N's PIN is on the entry:
    without it, the same phone is refused; the same result entered again with N's PIN makes
    the entry N's proven one."""
    _enter(client, running, who={"as": "N"})
    sheet = ScoreSheet.objects.get()
    east = _entry(running, "E")
    refused = _confirm(client, running, sheet, {"as": "E", "pin": east.pin})
    assert refused.status_code == 400 and _said(SAME_PHONE) in refused.content.decode()
    north = _entry(running, "N")
    assert _enter(client, running, who={"as": "N", "pin": north.pin}).status_code == 302
    sheet.refresh_from_db()
    assert sheet.current.number == 1 and sheet.current.proof == Proof.PIN
    assert sheet.current.entered_by_entry == north
    assert _confirm(client, running, sheet, {"as": "E", "pin": east.pin}).status_code == 302
    sheet.refresh_from_db()
    assert sheet.status == "confirmed"
    assert sheet.confirmed_by_entry == east and sheet.confirmed_proof == Proof.PIN


def test_his_own_link_confirms_without_a_pin(client, running):
    _enter(client, running, who={"as": "N"})
    sheet = ScoreSheet.objects.get()
    south = _entry(running, "S")
    # On his own phone: the phone that entered it without a PIN does not confirm it.
    own = Client()
    page = own.get(round_link(running, f"?me={south.key}")).content.decode()
    form = page[page.index('id="confirm-form-1"') :]
    form = form[: form.index("</form>")]
    assert 'name="pin"' not in form and "со своей страницы" in form
    done = _confirm(own, running, sheet, {"me": south.key, "as": "S"})
    assert done.status_code == 302
    sheet.refresh_from_db()
    assert sheet.status == "confirmed"
    assert sheet.confirmed_by_entry == south and sheet.confirmed_proof == Proof.LINK


def test_another_players_link_proves_only_its_owner(client, running):
    """The page came from S's own link, but the device names E: E must show his PIN."""
    _enter(client, running, who={"as": "N"})
    sheet = ScoreSheet.objects.get()
    south = _entry(running, "S")
    refused = _confirm(client, running, sheet, {"me": south.key, "as": "E"})
    assert refused.status_code == 400
    assert ScoreSheet.objects.get().status == "entered"


def test_the_one_who_entered_cannot_confirm_even_with_his_pin(client, running):
    north = _entry(running, "N")
    _enter(client, running, who={"as": "N", "pin": north.pin})
    sheet = ScoreSheet.objects.get()
    refused = _confirm(client, running, sheet, {"as": "N", "pin": north.pin})
    assert refused.status_code == 400 and _said(SAME_PERSON) in refused.content.decode()
    assert ScoreSheet.objects.get().status == "entered"
    # Nor from his own page on his own phone.
    refused = _confirm(Client(), running, sheet, {"me": north.key})
    assert refused.status_code == 400 and _said(SAME_PERSON) in refused.content.decode()
    assert ScoreSheet.objects.get().status == "entered"


def test_a_wrong_pin_is_a_400_naming_the_pin_and_five_lock_that_player(client, running):
    north = _entry(running, "N")
    _enter(client, running, who={"as": "N", "pin": north.pin})
    sheet = ScoreSheet.objects.get()
    east = _entry(running, "E")
    wrong = f"{(int(east.pin) + 1) % 10**PIN_DIGITS:0{PIN_DIGITS}d}"
    first = _confirm(client, running, sheet, {"as": "E", "pin": wrong})
    assert first.status_code == 400
    assert f"Это не ПИН-код E {east.full_name}" in first.content.decode()
    for _ in range(4):
        _confirm(client, running, sheet, {"as": "E", "pin": wrong})
    locked = _confirm(client, running, sheet, {"as": "E", "pin": east.pin})
    assert locked.status_code == 400
    assert "Слишком много неверных ПИН-кодов" in locked.content.decode()
    assert ScoreSheet.objects.get().status == "entered"
    # Another player's PIN is not locked, and his own link still proves E.
    done = _confirm(client, running, sheet, {"me": east.key})
    assert done.status_code == 302 and ScoreSheet.objects.get().status == "confirmed"


def test_a_pin_from_an_earlier_round_does_not_prove_a_seat_now(client, session15):
    """A player who once sat at the table keeps its link: it gives him no seat later."""
    first = Round.objects.get(room__session=session15, number=1)
    rounds.round_start(first)
    old = play_of(session15, 1, 1)
    rounds.round_end_now(first)
    rounds.round_start(Round.objects.get(room__session=session15, number=2))
    now = play_of(session15, 2, 1)
    stranger = next(
        s.entry
        for s in Seat.objects.filter(round=old.round, table=old.table).select_related("entry")
        if s.entry_id
        not in {x.entry_id for x in Seat.objects.filter(round=now.round, table=now.table)}
    )
    _enter(client, now, who={"as": "N"})
    sheet = ScoreSheet.objects.get()
    # He names a seat of round 2 and types his own PIN: it is not that seat's player's.
    refused = _confirm(client, now, sheet, {"as": "E", "pin": stranger.pin})
    if stranger.pin != _entry(now, "E").pin:  # four digits may coincide
        assert refused.status_code == 400 and "Это не ПИН-код" in refused.content.decode()
        assert ScoreSheet.objects.get().status == "entered"
    # His own link names no seat here either.
    assert _confirm(client, now, sheet, {"me": stranger.key}).status_code == 400


def test_entering_without_a_pin_is_marked_for_the_director(client, director_client, running):
    _enter(client, running, who={"as": "N"})
    sheet = ScoreSheet.objects.get()
    assert sheet.current.proof == Proof.SEAT
    event = running.round.room.session.event
    page = director_client.get(f"/director/events/{event.pk}/scores/sheets/{sheet.pk}/")
    body = page.content.decode()
    assert 'id="unproven"' in body and "на устройстве стола без ПИН-кода" in body
    doc = board_doc(
        director_client.get(
            f"/director/events/{event.pk}/rooms/{running.round.room_id}/console.html"
        )
    )
    cell = next(r for r in doc["rows"] if r["table"] == 1)["cells"][0]
    assert cell["unproven"] is True
    room = director_client.get(f"/director/events/{event.pk}/rooms/{running.round.room_id}/")
    assert 'class="cell state-entered unproven"' in room.content.decode()
    # The table's page says so too.
    table = client.get(round_link(running)).content.decode()
    assert "без ПИН-кода" in table


def test_entering_with_his_pin_or_link_is_not_marked(client, running):
    north = _entry(running, "N")
    assert _enter(client, running, who={"as": "N", "pin": north.pin}).status_code == 302
    assert ScoreSheet.objects.get().current.proof == Proof.PIN
    south = _entry(running, "S")
    url = round_link(running, "deals/2/")
    who = {"me": south.key, "declarer": "", "contract": "passed"}
    checked = client.post(url, {**who, "check": "1"})
    digest = checked.context["form"].data["checked"]
    client.post(url, {**who, "checked": digest, "save": "1"})
    second = ScoreSheet.objects.get(deal__number=2)
    assert second.current.proof == Proof.LINK and second.current.entered_by_entry == south


def test_a_wrong_pin_on_the_deal_form_keeps_what_was_typed(client, running):
    north = _entry(running, "N")
    wrong = f"{(int(north.pin) + 1) % 10**PIN_DIGITS:0{PIN_DIGITS}d}"
    response = client.post(
        round_link(running, "deals/1/"), {**GOOD, "as": "N", "pin": wrong, "check": "1"}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert f"Это не ПИН-код N {north.full_name}" in body and 'id="pin-error"' in body
    assert response.context["form"]["tricks_N"].value() == "7"
    assert f'value="{wrong}"' not in body  # a wrong PIN is not written back into the page
    assert not ScoreSheet.objects.exists()


def test_a_round_no_longer_at_the_table_is_written_only_with_a_proof(client, running, director):
    rounds.round_end_now(running.round)
    # Over, the next round not started: still the round at the table; its link writes.
    late = services.players_access(running)
    assert late.open and late.at_table_now
    rounds.round_start(Round.objects.get(room=running.round.room, number=2))
    services.play_access_set(running, "open", by_user=director)
    # Its page first asks who he is («Тур окончен»): the table's link alone writes nothing.
    gated = _enter(client, running, who={"as": "N"})
    body = gated.content.decode()
    assert gated.status_code == 400 and 'id="round-over"' in body and 'id="round-error"' in body
    assert not ScoreSheet.objects.exists()
    north = _entry(running, "N")
    passed = client.post(round_link(running), {"as": "N", "pin": north.pin})
    assert passed.status_code == 302 and passed.url == round_link(running, "?as=N")
    # Past the gate, a write without a PIN is still refused: only a proof writes it.
    refused = _enter(client, running, who={"as": "N"})
    assert refused.status_code == 400
    assert "Тур 1 больше не за этим столом" in refused.content.decode()
    assert not ScoreSheet.objects.exists()
    saved = _enter(client, running, who={"as": "N", "pin": north.pin})
    assert saved.status_code == 302
    sheet = ScoreSheet.objects.get()
    assert sheet.play == running and sheet.late and sheet.current.proof == Proof.PIN


def test_the_table_page_states_the_rule_and_leaks_no_pin(client, running):
    _enter(client, running, who={"as": "N"})
    page = client.get(round_link(running)).content.decode()
    assert 'id="two-person-rule"' in page
    assert "по одной ссылке стола протокол можно внести, но не подтвердить" in page
    for seat in Seat.objects.filter(round=running.round, table=running.table).select_related(
        "entry"
    ):
        assert f'value="{seat.entry.pin}"' not in page and f">{seat.entry.pin}<" not in page


def test_the_name_card_and_the_players_own_page_show_his_pin(director_client, running):
    entry = _entry(running, "E")
    event = running.round.room.session.event
    cards = director_client.get(f"/director/events/{event.pk}/cards/names/").content.decode()
    assert f"ПИН-код <strong>{entry.pin}</strong>" in cards
    own = director_client.get(f"/p/{entry.key}/").content.decode()
    assert f'<strong class="pin-digits">{entry.pin}</strong>' in own


def test_pins_are_four_random_digits_per_player(session15):
    pins = list(Entry.objects.filter(event=session15.event).values_list("pin", flat=True))
    assert all(re.fullmatch(r"\d{4}", p) for p in pins)
    assert len(set(pins)) > 1
    assert all(re.fullmatch(r"\d{4}", new_pin()) for _ in range(200))


def test_the_service_refuses_a_players_confirmation_without_a_proof(running):
    done = services.sheet_record(
        running,
        running.board_set.deals.get(number=1),
        _data(),
        by_entry=_entry(running, "N"),
        device="phone-n",
    )
    assert done.version.proof == Proof.SEAT and done.version.device == "phone-n"
    east = _entry(running, "E")
    with pytest.raises(services.ValidationError) as refused:
        services.sheet_confirm(done.sheet, by_entry=east, device="phone-e")
    assert "pin" in refused.value.message_dict
    # An entry without a proof is not confirmed from its phone, nor from no phone said.
    for device in ("phone-n", ""):
        with pytest.raises(PermissionDenied):
            services.sheet_confirm(done.sheet, by_entry=east, proof=Proof.PIN, device=device)
    done.sheet.refresh_from_db()
    assert done.sheet.status == "entered"
    confirmed = services.sheet_confirm(done.sheet, by_entry=east, proof=Proof.PIN, device="phone-e")
    assert confirmed.status == "confirmed"


def _data():
    return {
        "declarer": "N",
        "contract": "three",
        "trump": "diamonds",
        "defenders": {"E": "whist", "S": "pass"},
        "tricks": {"N": 7, "E": 3},
    }


def test_the_api_says_who_entered_and_confirmed_and_how(client, director_client, running):
    _enter(client, running, who={"as": "N"})
    sheet = ScoreSheet.objects.get()
    east = _entry(running, "E")
    # From another phone: the one that entered it without a PIN does not confirm it.
    assert _confirm(Client(), running, sheet, {"as": "E", "pin": east.pin}).status_code == 302
    event = running.round.room.session.event
    listed = director_client.get(f"/api/v1/events/{event.pk}/sheets/").json()
    row = next(r for r in listed if r["id"] == sheet.pk)
    assert row["confirmed_by"] == {"entry": east.pk, "proof": "pin"}
    history = director_client.get(f"/api/v1/events/{event.pk}/sheets/{sheet.pk}/history/").json()
    assert history["versions"][0]["entered_by"] == {
        "entry": _entry(running, "N").pk,
        "proof": "seat",
    }


def test_a_refused_pin_on_the_round_page_does_not_mark_that_seat_as_you(client, running):
    """Issue 21, finding 7: «(вы)» only after a right PIN — on the round page as on the deal
    form. The seat the gate led him to (?as=, after his PIN) and his own link are «(вы)»."""
    north = _entry(running, "N")
    _enter(client, running, who={"as": "N", "pin": north.pin})  # confirmable on this phone
    sheet = ScoreSheet.objects.get()
    east = _entry(running, "E")
    wrong = f"{(int(east.pin) + 1) % 10**PIN_DIGITS:0{PIN_DIGITS}d}"
    refused = _confirm(client, running, sheet, {"as": "E", "pin": wrong})
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "(вы)" not in body
    # The seat stays chosen in the form, with why beside it.
    assert re.search(r'<option value="E" selected>', body)
    by_gate = client.get(round_link(running) + "?as=E").content.decode()
    assert f"<bdi>{east.full_name}</bdi> <strong>(вы)</strong>" in by_gate
    by_link = client.get(round_link(running) + f"?me={east.key}").content.decode()
    assert f"<bdi>{east.full_name}</bdi> <strong>(вы)</strong>" in by_link
    assert 'id="back-to-mine"' in by_link and 'id="back-to-mine"' not in by_gate
