"""Issue 26's acceptance: nobody learns a deal before he plays it.

An app-dealt session of 15 players (five 3-seat tables, the prime movement, five rounds) is
played through the phones' own pages — each table enters its sheets from its round link
(table 1 through the table card's gate, with a PIN) with the PIN of the player entering, and
another seat confirms with his PIN on the same phone; one table a round first types a wrong
talon, which «Проверить» does not compare and «Сохранить» refuses. After every round the director publishes the
standings, and every public page, download and API answer is read as an outsider, every
player's phone as that player and every table-round's link as whoever holds it. Nobody may
see a card, the talon, the seed, the analysis or another table's result of a deal he has
still to play; the refusal of a wrong talon names no card of the real one; an old table
link shows nothing of a later round, and once its round is over nothing of its own either to
a phone nobody of that round has proven himself on («Тур окончен»). Only once the last table has written its last sheet
does everything open, the seed with it.

Which deals are played out is computed here independently of ``scoring.standings.disclosure``: a
deal is played out once every table-round that plays its set is in a round already played
(every sheet of a played round is written in this test)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from events import rounds
from events.cards import SUIT_SYMBOLS, card_name, from_ppn, rank_of, suit_of
from events.models import Deal, Entry, Round, Seat, Session
from scoring.hands.analysis import session_analyse
from scoring.models import ScoreSheet, TablePlay
from scoring.sheets import services
from tests.factories import play_of, round_link, seat_players, start, varied_result
from tests.public_pages import deal_urls, public_urls

pytestmark = pytest.mark.django_db

TABLES, ROUNDS = 5, 5
# Any contract as the pages write it («N: раз ♠»): a result shown.
CONTRACT = re.compile(r"\b[WNES]: (раз|два|три|четыре|игра|червы|пас)")
RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]


def _card_text(card: int) -> str:
    return f"{SUIT_SYMBOLS[suit_of(card)]}{RANKS[rank_of(card)]}"


def _talon(deal: Deal) -> tuple[int, ...]:
    return tuple(from_ppn(deal.cards, tuple(deal.active_seats)).talon)


def _form(result: dict, talon) -> dict:
    data = {
        "declarer": result["declarer"],
        "contract": result["contract"],
        "trump": result["trump"],
        "talon": [card_name(c) for c in talon],
    }
    for seat, decision in result["defenders"].items():
        data[f"defence_{seat}"] = decision
    for seat, taken in result["tricks"].items():
        data[f"tricks_{seat}"] = str(taken)
    return data


class Evening:
    """The session and what the test knows of it: which set each table-round plays."""

    def __init__(self, session: Session):
        self.session = session
        self.event = session.event
        self.deals = list(
            Deal.objects.filter(board_set__session=session).select_related("board_set")
        )
        self.plays = list(
            TablePlay.objects.filter(round__room__session=session).select_related(
                "round", "table", "board_set"
            )
        )
        self.seats = list(
            Seat.objects.filter(round__room__session=session, table__isnull=False).select_related(
                "round", "entry"
            )
        )

    def played_out(self, rounds_played: int) -> set[int]:
        """Deals whose every table-round is in a round already played (every sheet of a
        played round is written here)."""
        last = {}
        for play in self.plays:
            last[play.board_set_id] = max(last.get(play.board_set_id, 0), play.round.number)
        done = {s for s, r in last.items() if r <= rounds_played}
        return {d.pk for d in self.deals if d.board_set_id in done}

    def sets_of_entry_after(self, entry: Entry, round_number: int) -> set[int]:
        """The sets he plays in rounds after ``round_number``."""
        mine = {(s.round_id, s.table_id) for s in self.seats if s.entry_id == entry.pk}
        return {
            p.board_set_id
            for p in self.plays
            if (p.round_id, p.table_id) in mine and p.round.number > round_number
        }

    def names_at(self, table_id: int, round_number: int) -> set[str]:
        return {
            s.entry.full_name
            for s in self.seats
            if s.table_id == table_id and s.round.number == round_number
        }


def _no_secret(body: str, hidden: list[Deal], seed: str, where: str) -> None:
    assert seed not in body, where
    for deal in hidden:
        assert deal.cards not in body, (where, deal.code)


def _walk_public(evening: Evening, shown: set[int]) -> None:
    """Everything public, as an outsider (who may be any player)."""
    outsider = Client()
    hidden = [d for d in evening.deals if d.pk not in shown]
    seed = evening.session.deal_seed
    for url in public_urls(evening.event, evening.session):
        answer = outsider.get(url)
        assert answer.status_code in (200, 403), url
        body = answer.content.decode("utf-8-sig")
        _no_secret(body, hidden, seed if hidden else "\0", url)
        if not shown:
            # Nothing played out: no diagram, no double-dummy table, no result of anyone.
            assert "hand-record" not in body and "dd-table" not in body, url
            assert not CONTRACT.search(body), url
            assert '"analysis"' not in body, url
    for deal in evening.deals:
        for url in deal_urls(evening.event, deal):
            answer = outsider.get(url)
            if deal.pk in shown:
                assert answer.status_code == 200, url
            else:
                assert answer.status_code == 403, url
                assert deal.cards not in answer.content.decode(), url
    # A card's rows of a deal still in play keep no result in the API either.
    for entry in Entry.objects.filter(event=evening.event):
        card = outsider.get(f"/api/v1/events/{evening.event.pk}/players/{entry.pk}/card/").json()
        for row in card["deals"]:
            if row["in_play"]:
                assert row["result"] is None and row["score"] is None and row["contract"] is None


def _walk_phones(evening: Evening, round_number: int) -> None:
    """Each player's phone: nothing of the sets he has still to play."""
    for entry in Entry.objects.filter(event=evening.event):
        later = evening.sets_of_entry_after(entry, round_number)
        hidden = [d for d in evening.deals if d.board_set_id in later]
        phone = Client()
        for url in (f"/p/{entry.key}/", f"/p/{entry.key}/places"):
            answer = phone.get(url)
            assert answer.status_code == 200, url
            body = answer.content.decode()
            _no_secret(body, hidden, evening.session.deal_seed, url)
            for deal in hidden:
                assert f"/results/deals/{deal.pk}/" not in body, (url, deal.code)
            assert "hand-record" not in body and "dd-table" not in body


def _walk_tables(evening: Evening, round_number: int) -> None:
    """Every round link of every table so far, and its table card's gate: a round link
    shows its own round only — to its holder while the round runs, and once it is over
    only to a player of it (his own link: ``?me=``), the holder getting «Тур окончен»; the
    gate shows no set and no seat."""
    phone = Client()
    for play in evening.plays:
        if play.round.number > round_number:
            continue
        later_names = set()
        for later in range(play.round.number + 1, ROUNDS + 1):
            later_names |= evening.names_at(play.table_id, later)
        later_names -= evening.names_at(play.table_id, play.round.number)
        own = {d.pk for d in evening.deals if d.board_set_id == play.board_set_id}
        others = [d for d in evening.deals if d.pk not in own]
        over = Round.objects.get(pk=play.round_id).state == Round.State.FINISHED
        player = next(
            s.entry
            for s in evening.seats
            if s.round_id == play.round_id and s.table_id == play.table_id
        )
        pages = [round_link(play)] + [round_link(play, f"deals/{n}/") for n in (1, 2, 3)]
        pages += [f"{url}?me={player.key}" for url in pages]
        for url in pages:
            answer = phone.get(url)
            body = answer.content.decode()
            if over and "?me=" not in url:
                # Its holder, unproven: «Тур окончен», nothing of the round's sheets.
                if url == round_link(play):
                    assert answer.status_code == 200 and 'id="round-over"' in body, url
                    assert 'data-deal="' not in body and "known-talon" not in body, url
                else:
                    assert answer.status_code == 302, url
                    assert answer["Location"] == round_link(play), url
            else:
                assert answer.status_code == 200, url
            _no_secret(body, others, evening.session.deal_seed, url)
            for name in later_names:
                assert name not in body, (url, name)
            for later_play in evening.plays:
                if later_play.table_id == play.table_id and later_play.round.number > (
                    play.round.number
                ):
                    number = later_play.board_set.number
                    if number != play.board_set.number:
                        assert not re.search(rf"\b{number}\.[123]\b", body), (url, number)
    for table_play in [p for p in evening.plays if p.round.number == 1]:
        gate = phone.get(f"/t/{table_play.table.key}/").content.decode()
        for rnd in range(1, ROUNDS + 1):
            for name in evening.names_at(table_play.table_id, rnd):
                assert name not in gate, name
        assert 'data-deal="' not in gate and "known-talon" not in gate


def _play_round(evening: Evening, director, number: int) -> None:
    """Every table enters its three sheets through the phones; another seat confirms."""
    for table in range(1, TABLES + 1):
        play = play_of(evening.session, number, table)
        phone = Client()
        base = round_link(play)
        if table == 1:
            # The table card's QR: the gate, a player of this round with his PIN.
            east = Seat.objects.get(round=play.round, table=play.table, position="E").entry
            gate = f"/t/{play.table.key}/"
            went = phone.post(gate, {"round": str(number), "as": "E", "pin": east.pin})
            assert went.status_code == 302 and went["Location"].startswith(base), went
        north = Seat.objects.get(round=play.round, table=play.table, position="N").entry
        for deal in play.board_set.deals.order_by("number"):
            result = varied_result(table, number, deal.number, deal.first_hand)
            talon = _talon(deal)
            url = round_link(play, f"deals/{deal.number}/")
            if table == number:
                # A wrong talon first: refused, naming neither card of the real one.
                # «Проверить» does not compare it (an answer before the play would tell
                # the talon); «Сохранить» does.
                wrong = [c for c in range(32) if c not in talon][:2]
                typed = {**_form(result, wrong), "as": "N", "pin": north.pin}
                checked = phone.post(url, {**typed, "check": "1"})
                assert checked.status_code == 200 and not checked.context["form"].errors
                digest = checked.context["form"].data["checked"]
                refused = phone.post(url, {**typed, "checked": digest, "save": "1"})
                assert refused.status_code == 400
                errors = refused.context["form"].errors
                assert list(errors) == ["talon"], errors
                text = " ".join(errors["talon"])
                assert all(_card_text(c) not in text for c in talon), text
                assert all(_card_text(c) in text for c in wrong), text
                assert "коробка не совпадает" in text
            # With N's PIN: an entry without one is confirmed from another phone only.
            data = {**_form(result, talon), "as": "N", "pin": north.pin}
            checked = phone.post(url, {**data, "check": "1"})
            assert checked.status_code == 200
            digest = checked.context["form"].data["checked"]
            saved = phone.post(url, {**data, "checked": digest, "save": "1"})
            assert saved.status_code == 302, saved.content.decode()[:2000]
            sheet = ScoreSheet.objects.get(play=play, deal=deal)
            south = Seat.objects.get(round=play.round, table=play.table, position="S").entry
            confirmed = phone.post(
                round_link(play, f"sheets/{sheet.pk}/confirm/"), {"as": "S", "pin": south.pin}
            )
            assert confirmed.status_code == 302
            sheet.refresh_from_db()
            assert sheet.status == ScoreSheet.Status.CONFIRMED


def test_nobody_sees_a_deal_before_he_plays_it(event, director, director_client):
    session = Session.objects.get(pk=seat_players(event, 15, dealing="app").pk)
    assert session_analyse(session.pk) == 15  # the analysis is there, to be kept back
    evening = Evening(session)
    assert len(evening.deals) == 15 and all(d.cards for d in evening.deals)
    publish = reverse("director:publish", args=[event.pk])
    for number in range(1, ROUNDS + 1):
        rnd = start(Round.objects.get(room__session=session, number=number))
        if number > 1:
            _walk_tables(evening, number)  # the old links, with round «number» running
        _play_round(evening, director, number)
        rounds.round_end_now(rnd)
        assert director_client.post(publish, {"public": "1"}).status_code == 302
        shown = evening.played_out(number)
        # The prime movement plays each set in every round: nothing is played out before
        # the last round's sheets are all written, and then everything is.
        assert shown == (set() if number < ROUNDS else {d.pk for d in evening.deals})
        _walk_public(evening, shown)
        _walk_phones(evening, number)
        _walk_tables(evening, number)
    # The director closes the last round: it stays so (every sheet is written anyway).
    last = Round.objects.get(room__session=session, number=ROUNDS)
    services.round_access_set(last, TablePlay.Access.CLOSED, by_user=director)
    _walk_public(evening, shown)
    outsider = Client()
    page = outsider.get(reverse("public:session", args=[event.slug, 1])).content.decode()
    assert session.deal_seed in page and 'id="hand-records-links"' in page
    check = outsider.get(reverse("public:session_check", args=[event.slug, 1]))
    assert check.status_code == 200 and check.content.decode().count("✓ совпадает") == 15
    traveller = outsider.get(deal_urls(event, evening.deals[0])[0]).content.decode()
    assert 'id="hand-record"' in traveller and "dd-table" in traveller
    assert CONTRACT.search(traveller)
    api = outsider.get(deal_urls(event, evening.deals[0])[2]).json()
    assert api["cards"] == evening.deals[0].cards and api["analysis"]
