"""Issue 32's attack test: the routes a second security trial found to learn a deal before
playing it, or to make a «confirmed» sheet alone, each tried through HTTP as a hostile player
or an outsider would — forms, the API, downloads, with and without keys, from fresh
sessions (a fresh ``Client`` is a fresh phone).

The evening: an app-dealt session of 15 players, five tables of three, the prime movement —
each set travels to every table, one table a round — so after round 1 no deal is played out.
Round 1 is played and confirmed by two people at every table, the director publishes the
standings, and round 2 starts. Then:

1. the talon check is no oracle: «Проверить» answers alike for the right talon and a wrong
   one, and after three refused talons «Сохранить» refuses the right one as it refuses any;
2. a sham sheet (no PIN) for a deal not yet played shows no talon;
3. the table's shared phone shows nothing of a finished round without a proof;
4. published totals do not move when one table plays a deal the others still hold;
5. one player cannot enter a sheet as another seat and confirm it himself;
6. the director's laptop shows the public on the public address (his own view is marked,
   behind a switch, and never stored);
7. a stranger's wrong PINs lock his own phone, not the player's PIN.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from config.logmask import mask
from events import rounds
from events.cards import card_name, from_ppn
from events.models import BoxReport, Deal, Round, Seat, Session
from scoring.models import Proof, ScoreSheet
from scoring.sheets import services
from tests.factories import play_of, round_link, seat_players, start, varied_result

pytestmark = pytest.mark.django_db

TABLES = 5
CONTRACT = re.compile(r"\b[WNES]: (раз|два|три|четыре|игра|червы|пас)")
RESULT = 'class="deal-result"'  # a result on a table's page (table/_result.html)
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|data-version="[^"]*"')


def _talon(deal: Deal) -> list[int]:
    return list(from_ppn(deal.cards, tuple(deal.active_seats)).talon)


def _form(result: dict, talon=()) -> dict:
    data = {
        "declarer": result["declarer"],
        "contract": result["contract"],
        "trump": result["trump"],
    }
    if talon:
        data["talon"] = [card_name(c) for c in talon]
    for seat, decision in result["defenders"].items():
        data[f"defence_{seat}"] = decision
    for seat, taken in result["tricks"].items():
        data[f"tricks_{seat}"] = str(taken)
    return data


def _entry(play, position):
    return (
        Seat.objects.select_related("entry")
        .get(round=play.round, table=play.table, position=position)
        .entry
    )


def _check(phone, play, deal, data):
    return phone.post(round_link(play, f"deals/{deal.number}/"), {**data, "check": "1"})


def _save(phone, play, deal, data):
    """«Проверить», then «Сохранить» what was checked."""
    checked = _check(phone, play, deal, data)
    assert checked.status_code == 200, checked.content.decode()[:1000]
    digest = checked.context["form"].data["checked"]
    return phone.post(
        round_link(play, f"deals/{deal.number}/"), {**data, "checked": digest, "save": "1"}
    )


def _play_by_two(play, deal, result) -> ScoreSheet:
    """A sheet entered by N with his PIN and confirmed by S with his, as a table does."""
    north, south = _entry(play, "N"), _entry(play, "S")
    services.sheet_record(
        play,
        deal,
        result | {"talon": [card_name(c) for c in _talon(deal)]},
        by_entry=north,
        proof=Proof.PIN,
    )
    sheet = ScoreSheet.objects.get(play=play, deal=deal)
    return services.sheet_confirm(sheet, by_entry=south, proof=Proof.PIN, device="s-phone")


@pytest.fixture
def evening(event, director, director_client):
    session = Session.objects.get(pk=seat_players(event, 15, dealing="app").pk)
    first = start(Round.objects.get(room__session=session, number=1))
    for table in range(1, TABLES + 1):
        play = play_of(session, 1, table)
        for deal in play.board_set.deals.order_by("number"):
            _play_by_two(play, deal, varied_result(table, 1, deal.number, deal.first_hand))
    rounds.round_end_now(first)
    publish = reverse("director:publish", args=[event.pk])
    assert director_client.post(publish, {"public": "1"}).status_code == 302
    start(Round.objects.get(room__session=session, number=2))
    return session


def test_1_the_talon_check_is_no_oracle(evening):
    play = play_of(evening, 2, 1)
    deal = play.board_set.deals.order_by("number").first()
    real = _talon(deal)
    wrong = [[c for c in range(32) if c not in real][i : i + 2] for i in (0, 2, 4)]
    result = {**varied_result(1, 2, deal.number, deal.first_hand)}
    phone = Client()
    # Before any save: the right and a wrong talon get the same answer — a settled preview,
    # nothing about the talon.
    for talon in (real, wrong[0]):
        answer = _check(phone, play, deal, {**_form(result, talon), "as": "N"})
        assert answer.status_code == 200
        assert "talon" not in answer.context["form"].errors
        assert answer.context["preview"]
    # Saving compares it: three different wrong talons are refused…
    for talon in wrong:
        refused = _save(phone, play, deal, {**_form(result, talon), "as": "N"})
        assert refused.status_code == 400
        assert list(refused.context["form"].errors) == ["talon"]
    # …then the right one, a repeated one and a new one all get one answer, unchecked.
    texts = set()
    for talon in (real, wrong[0], real):
        refused = _save(phone, play, deal, {**_form(result, talon), "as": "N"})
        assert refused.status_code == 400
        texts.add(re.sub(r"\(.*?\)", "", " ".join(refused.context["form"].errors["talon"])))
    assert len(texts) == 1, texts
    assert not ScoreSheet.objects.filter(play=play, deal=deal).exists()
    # The deal went to the director, who sees every talon tried.
    report = BoxReport.objects.get(play=play, deal=deal)
    assert report.state == BoxReport.State.OPEN


def test_2_a_sham_sheet_shows_no_talon(evening):
    play = play_of(evening, 2, 2)
    deal = play.board_set.deals.order_by("number").first()
    phone = Client()
    made_up = _form(varied_result(9, 9, deal.number, deal.first_hand))
    assert _save(phone, play, deal, {**made_up, "as": "E"}).status_code == 302
    page = phone.get(round_link(play, f"deals/{deal.number}/")).content.decode()
    assert "known-talon" not in page
    # Nor from another phone, nor with a player's own link.
    north = _entry(play, "N")
    for viewer, url in (
        (Client(), round_link(play, f"deals/{deal.number}/")),
        (Client(), round_link(play, f"deals/{deal.number}/?me={north.key}")),
    ):
        assert "known-talon" not in viewer.get(url).content.decode()
    # Once played — confirmed by a second person from his own phone — the table sees it.
    sheet = ScoreSheet.objects.get(play=play, deal=deal)
    south = _entry(play, "S")
    own = Client()
    confirmed = own.post(
        round_link(play, f"sheets/{sheet.pk}/confirm/"), {"me": south.key, "as": "S"}
    )
    assert confirmed.status_code == 302
    page = own.get(round_link(play, f"deals/{deal.number}/?me={south.key}")).content.decode()
    assert "known-talon" in page


def test_3_the_shared_phone_shows_nothing_of_a_finished_round(evening):
    old = play_of(evening, 1, 1)
    phone = Client()  # the phone left on table 1: round 2's players pick it up
    page = phone.get(round_link(old))
    body = page.content.decode()
    assert page.status_code == 200 and 'id="round-over"' in body
    assert RESULT not in body and "data-deal=" not in body
    assert "no-store" in page["Cache-Control"]
    for deal in old.board_set.deals.all():
        moved = phone.get(round_link(old, f"deals/{deal.number}/"))
        assert moved.status_code == 302 and moved["Location"] == round_link(old)
    sheet = ScoreSheet.objects.filter(play=old).first()
    refused = phone.post(round_link(old, f"sheets/{sheet.pk}/confirm/"), {})
    assert refused.status_code == 400 and RESULT not in refused.content.decode()
    saved = phone.post(round_link(old, "deals/1/"), {"as": "N", "save": "1"})
    assert saved.status_code == 400 and RESULT not in saved.content.decode()
    # Its own players still see it: by their own link.
    north = _entry(old, "N")
    mine = Client().get(round_link(old, f"?me={north.key}")).content.decode()
    assert RESULT in mine


def test_3b_after_the_bell_a_pin_shows_the_round_on_that_phone_only(evening):
    rnd = Round.objects.get(room__session=evening, number=2)
    play = play_of(evening, 2, 3)
    deal = play.board_set.deals.order_by("number").first()
    _play_by_two(play, deal, varied_result(3, 2, deal.number, deal.first_hand))
    rounds.round_end_now(rnd)  # «Конец тура!»: the table may still finish its sheets
    phone = Client()
    gate = phone.get(round_link(play)).content.decode()
    assert 'id="round-over"' in gate and 'id="gate"' in gate and RESULT not in gate
    east = _entry(play, "E")
    wrong = phone.post(round_link(play), {"as": "E", "pin": "0000" if east.pin != "0000" else "1"})
    assert wrong.status_code == 400 and RESULT not in wrong.content.decode()
    went = phone.post(round_link(play), {"as": "E", "pin": east.pin})
    assert went.status_code == 302
    shown = phone.get(went["Location"])
    assert RESULT in shown.content.decode()
    assert "no-store" in shown["Cache-Control"]
    assert RESULT not in Client().get(round_link(play)).content.decode()


def _standings(client, event) -> list[tuple]:
    found = client.get(f"/api/v1/events/{event.pk}/standings/?session=1").json()
    return [(row["entry"], row["total"], row["deals"]) for row in found["standings"]]


def test_4_published_totals_move_only_with_deals_played_out(evening):
    event = evening.event
    outsider = Client()
    before = _standings(outsider, event)
    page = CSRF.sub(
        "", outsider.get(reverse("public:session", args=[event.slug, 1])).content.decode()
    )
    # Round 1 is over, but every set it played is still held by four more tables.
    assert all(deals == 0 for _e, _t, deals in before)
    play = play_of(evening, 2, 4)
    deal = play.board_set.deals.order_by("number").first()
    _play_by_two(play, deal, varied_result(4, 2, deal.number, deal.first_hand))
    assert _standings(outsider, event) == before
    again = outsider.get(reverse("public:session", args=[event.slug, 1])).content.decode()
    assert CSRF.sub("", again) == page
    csv = outsider.get(reverse("public:session_csv", args=[event.slug, 1])).content.decode()
    assert ",1," not in csv.replace(" ", "")  # no row counts a deal yet
    # The player's own phone gives him the public's place: none yet.
    north = _entry(play, "N")
    assert "Место" not in Client().get(f"/p/{north.key}/places").content.decode()


def test_5_one_player_cannot_enter_as_another_and_confirm_himself(evening):
    play = play_of(evening, 2, 5)
    deal = play.board_set.deals.order_by("number").first()
    north, east = _entry(play, "N"), _entry(play, "E")
    mine = Client()  # N's own phone, with his own link
    result = _form(varied_result(5, 2, deal.number, deal.first_hand))
    url = round_link(play, f"deals/{deal.number}/?me={north.key}")
    checked = mine.post(url, {**result, "me": north.key, "as": "E", "check": "1"})
    digest = checked.context["form"].data["checked"]
    saved = mine.post(url, {**result, "me": north.key, "as": "E", "checked": digest, "save": "1"})
    assert saved.status_code == 302
    sheet = ScoreSheet.objects.get(play=play, deal=deal)
    assert sheet.current.entered_by_entry == east and sheet.current.proof == Proof.SEAT
    # Confirming it as himself, by his own link: refused — and from another phone too.
    for phone in (mine, Client()):
        refused = phone.post(
            round_link(play, f"sheets/{sheet.pk}/confirm/"), {"me": north.key, "as": "N"}
        )
        assert refused.status_code == 400
        sheet.refresh_from_db()
        assert sheet.status == ScoreSheet.Status.ENTERED
    # Nor on the table's phone that entered it, with another seat's PIN.
    south = _entry(play, "S")
    refused = mine.post(
        round_link(play, f"sheets/{sheet.pk}/confirm/"), {"as": "S", "pin": south.pin}
    )
    assert refused.status_code == 400
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.ENTERED
    # S on his own phone, by his own link: a second person — confirmed.
    done = Client().post(
        round_link(play, f"sheets/{sheet.pk}/confirm/"), {"me": south.key, "as": "S"}
    )
    assert done.status_code == 302
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.CONFIRMED and sheet.confirmed_by_entry == south


def test_6_the_directors_laptop_shows_the_public_on_the_public_address(evening, director_client):
    event = evening.event
    deal = play_of(evening, 1, 1).board_set.deals.order_by("number").first()
    public = [
        reverse("public:session_hands", args=[event.slug, 1]),
        reverse("public:session_hands_txt", args=[event.slug, 1]),
        reverse("public:traveller", args=[event.slug, deal.pk]),
    ]
    for url in public:
        answer = director_client.get(url)
        body = answer.content.decode()
        assert deal.cards not in body, url
        assert "no-store" in answer["Cache-Control"], url
    hands = director_client.get(public[0]).content.decode()
    assert 'class="director-switch"' in hands and "?view=director" in hands
    marks = [f'id="hand-{deal.pk}"', deal.cards, 'id="traveller"']
    for url, mark in zip(public, marks, strict=True):
        assert mark not in Client().get(url).content.decode(), url
        answer = director_client.get(f"{url}?view=director")
        assert answer.status_code == 200, url
        assert mark in answer.content.decode(), url
        assert "no-store" in answer["Cache-Control"], url
    own = director_client.get(f"{public[0]}?view=director").content.decode()
    assert 'id="director-view"' in own and "director-view" in own
    # The switch is his: for anyone else the same address is the public's.
    for url in public:
        assert deal.cards not in Client().get(f"{url}?view=director").content.decode(), url
    api = director_client.get(f"/api/v1/events/{event.pk}/deals/{deal.pk}/traveller/")
    assert api.status_code == 403
    api = director_client.get(f"/api/v1/events/{event.pk}/deals/{deal.pk}/traveller/?view=director")
    assert api.status_code == 200 and api.json()["cards"] == deal.cards
    assert "no-store" in api["Cache-Control"]


def test_7_a_strangers_wrong_pins_lock_his_phone_not_the_players_pin(evening):
    play = play_of(evening, 2, 3)
    gate = f"/t/{play.table.key}/"
    north = _entry(play, "N")
    wrong = "0000" if north.pin != "0000" else "1111"
    stranger = Client()
    for _ in range(6):
        assert stranger.post(gate, {"round": "2", "as": "N", "pin": wrong}).status_code == 400
    # The stranger's phone is locked for N, even with the right PIN…
    assert stranger.post(gate, {"round": "2", "as": "N", "pin": north.pin}).status_code == 400
    # …but N on his table's phone gets in with his PIN.
    went = Client().post(gate, {"round": "2", "as": "N", "pin": north.pin})
    assert went.status_code == 302 and went["Location"].startswith(round_link(play))


def test_8_keys_are_masked_in_a_log_line(evening):
    play = play_of(evening, 2, 1)
    north = _entry(play, "N")
    line = f'"GET /t/{play.key}/deals/1/?me={north.key} HTTP/1.1" 200'
    masked = mask(line)
    assert play.key not in masked and north.key not in masked
    assert mask(f"/p/{north.key}/places").count(north.key) == 0
