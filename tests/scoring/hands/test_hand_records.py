"""Computer-dealt sessions, dealing sheets, card entry and hand records (docs/hand-records.md).

The dealing is checked against an independent dealing written from docs/game.md §8 with
``hashlib`` alone, not with events.cards."""

import hashlib
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from events import dealing
from events.models import Deal, Session
from events.services import event_set_results_public
from scoring.hands import records as hand_records
from tests.factories import play_out, seat_players

pytestmark = pytest.mark.django_db

SEATS_ORDER = "SCDH"
RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]
PPN = "123456789ABCDEFGHIJKLMNOPQRSTUVW"  # ♠ ♦ ♥ ♣, each 7 … A
PPN_SUITS = "SDHC"


def _independent_deal(seed, family, set_number, deal_number):
    """Fisher–Yates over S7 … HA from SHA-256 of «seed:family:set:deal:counter», written
    from the documentation alone."""

    def numbers():
        counter = 0
        while True:
            text = f"{seed}:{family}:{set_number}:{deal_number}:{counter}"
            block = hashlib.sha256(text.encode()).digest()
            for i in range(0, 32, 4):
                yield int.from_bytes(block[i : i + 4], "big")
            counter += 1

    stream = numbers()
    deck = list(range(32))
    for i in range(31, 0, -1):
        bound = i + 1
        limit = 2**32 - 2**32 % bound
        while True:
            value = next(stream)
            if value < limit:
                break
        j = value % bound
        deck[i], deck[j] = deck[j], deck[i]
    parts = [deck[0:10], deck[10:20], deck[20:30], deck[30:32]]
    return [{SEATS_ORDER[c // 8] + RANKS[c % 8] for c in part} for part in parts]


def _ppn_names(ppn):
    cards = []
    for char in ppn:
        index = PPN.index(char)
        cards.append(PPN_SUITS[index // 8] + RANKS[index % 8])
    return [set(cards[0:10]), set(cards[10:20]), set(cards[20:30]), set(cards[30:32])]


@pytest.fixture
def dealt(event):
    return seat_players(event, 15, dealing="app")


def test_an_app_dealt_session_deals_every_deal_from_its_seed_verifiably(dealt):
    session = Session.objects.get(pk=dealt.pk)
    assert session.dealing == "app"
    assert len(session.deal_seed) == 64
    assert session.deal_seed_hash == hashlib.sha256(session.deal_seed.encode()).hexdigest()
    deals = list(Deal.objects.filter(board_set__session=session).select_related("board_set"))
    assert len(deals) == 15  # 5 sets × 3 deals
    for deal in deals:
        assert deal.cards_source == "app"
        assert len(deal.cards) == 32
        expected = _independent_deal(
            session.deal_seed, deal.board_set.family, deal.board_set.number, deal.number
        )
        assert _ppn_names(deal.cards) == expected, deal.code
        assert set(deal.talon.split()) == expected[3]
    assert len({d.cards for d in deals}) == 15
    check = dealing.session_check(session)
    assert check.hash_ok and check.all_equal and len(check.deals) == 15


def test_a_by_hand_session_has_no_seed_and_no_cards(event):
    session = seat_players(event, 15)
    assert session.dealing == "" and session.deal_seed == "" and session.deal_seed_hash == ""
    assert not Deal.objects.filter(board_set__session=session).exclude(cards="").exists()
    assert dealing.session_check(session) is None


def test_the_planner_form_creates_an_app_dealt_session(director_client, event):
    from events import services as event_services
    from movements import seating

    for i in range(15):
        event_services.entry_create(event, last_name=f"Игроков{i:02d}", first_name="Игорь")
    event_services.draw_make(event, seed="tests")
    page = director_client.get(reverse("director:plan", args=[event.pk]))
    assert "Раздача" in page.content.decode()
    doc = seating.event_plan(event)
    answer = director_client.post(
        reverse("director:plan", args=[event.pk]),
        {
            "option": doc["options"][0]["index"],
            "participants": doc["participants"],
            "number": 1,
            "dealing": "app",
        },
    )
    assert answer.status_code == 302
    session = event.sessions.get()
    assert session.dealing == "app" and session.deal_seed_hash
    page = director_client.get(answer["Location"]).content.decode()
    assert session.deal_seed_hash in page
    assert session.deal_seed not in page  # not before the results are published


def _public_pages(client, event, session):
    deal = Deal.objects.filter(board_set__session=session).first()
    urls = [
        reverse("public:event", args=[event.slug]),
        reverse("public:session", args=[event.slug, session.number]),
        reverse("public:traveller", args=[event.slug, deal.pk]),
        reverse("public:session_hands", args=[event.slug, session.number]),
        reverse("public:session_hands_txt", args=[event.slug, session.number]),
        reverse("public:session_check", args=[event.slug, session.number]),
        reverse("public:clock", args=[event.slug]),
    ]
    return {url: client.get(url) for url in urls}


def test_before_publishing_the_hash_is_public_but_neither_seed_nor_cards(client, event, dealt):
    session = Session.objects.get(pk=dealt.pk)
    cards = list(Deal.objects.filter(board_set__session=session).values_list("cards", flat=True))
    pages = _public_pages(client, event, session)
    for url, answer in pages.items():
        body = answer.content.decode()
        assert session.deal_seed not in body, url
        for ppn in cards:
            assert ppn not in body, url
    hidden = pages[reverse("public:event", args=[event.slug])]
    assert hidden.status_code == 403
    assert session.deal_seed_hash in hidden.content.decode()
    # Nor the API, anonymous or the director's.
    cards_deal = Deal.objects.filter(board_set__session=session).first()
    for path in (
        f"/api/v1/events/{event.pk}/sessions/",
        f"/api/v1/events/{event.pk}/standings/",
        f"/api/v1/events/{event.pk}/",
        f"/api/v1/events/{event.pk}/deals/{cards_deal.pk}/traveller/",
    ):
        body = client.get(path).content.decode()
        assert session.deal_seed not in body
        assert not any(ppn in body for ppn in cards), path


def test_the_director_api_shows_the_hash_never_the_seed(director_client, event, dealt):
    session = Session.objects.get(pk=dealt.pk)
    body = director_client.get(f"/api/v1/events/{event.pk}/sessions/").json()
    assert body[0]["dealing"] == "app"
    assert body[0]["deal_seed_hash"] == session.deal_seed_hash
    assert session.deal_seed not in str(body)


def test_after_publishing_the_seed_and_the_check_are_public(client, event, dealt):
    session = Session.objects.get(pk=dealt.pk)
    play_out(session)
    event_set_results_public(event, True)
    page = client.get(reverse("public:session", args=[event.slug, session.number]))
    body = page.content.decode()
    assert session.deal_seed in body and session.deal_seed_hash in body
    check = client.get(reverse("public:session_check", args=[event.slug, session.number]))
    text = check.content.decode()
    assert check.status_code == 200
    assert session.deal_seed in text
    assert "все 15 сдач" in text
    assert text.count("✓ совпадает") == 15


def test_the_director_session_page_reveals_the_seed_once_published(director_client, event, dealt):
    session = Session.objects.get(pk=dealt.pk)
    url = reverse("director:session", args=[event.pk, session.number])
    assert session.deal_seed not in director_client.get(url).content.decode()
    event_set_results_public(event, True)
    assert session.deal_seed in director_client.get(url).content.decode()


def test_the_ppn_text_export_has_one_line_a_deal(client, event, dealt):
    session = Session.objects.get(pk=dealt.pk)
    play_out(session)
    event_set_results_public(event, True)
    url = reverse("public:session_hands_txt", args=[event.slug, session.number])
    answer = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert answer["Content-Type"].startswith("text/plain")
    lines = answer.content.decode().splitlines()
    assert lines[0] == f"% {event.name}"
    assert lines[1] == "% Session 1"
    assert any("speaking order" in line for line in lines if line.startswith("%"))
    assert "% 3 players, deal 2: E S N, then the talon (pocket W)" in lines
    data = [line for line in lines if not line.startswith("%")]
    assert len(data) == 15
    stored = {
        d.code: d.cards
        for d in Deal.objects.filter(board_set__session=session).select_related("board_set")
    }
    for line in data:
        assert re.fullmatch(r"\d+\.\d [1-9A-W]{32}", line), line
        code, ppn = line.split()
        assert stored[code] == ppn
    # A Russian reader gets the comments in Russian and the very same data lines.
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode().splitlines()
    assert russian[1] == "% Сессия 1"
    assert "% 3 игрока, сдача 2: E S N, затем прикуп (карман W)" in russian
    comments = [line for line in russian[1:] if line.startswith("%")]
    assert comments and all(re.search("[а-я]", line) for line in comments)
    assert [line for line in russian if not line.startswith("%")] == data


# --- dealing sheets -------------------------------------------------------------------------


def _pockets(html, box_id):
    box = html.split(f'id="{box_id}"', 1)[1].split("</article>", 1)[0]
    found = {}
    for seat, body in re.findall(r'class="pocket pos-(\w)[^"]*">(.*?)</div>', box, re.S):
        found[seat] = (body, "talon" in body.split("</h4>")[0] or "прикуп" in body)
    return found


def _rank_ru(rank):
    return {"J": "В", "Q": "Д", "K": "К", "A": "Т"}.get(rank, rank)


def _pocket_cards(body):
    cards = set()
    for symbol, ranks in re.findall(r'class="sym [^"]*">(.)</span> ([^<]*)</li>', body):
        suit = "SCDH"["♠♣♦♥".index(symbol)]
        for rank in ranks.split():
            if rank != "—":
                cards.add((suit, rank))
    return cards


def _expected(names):
    return {(n[0], _rank_ru(n[1:])) for n in names}


def test_dealing_sheets_put_each_hand_in_its_pocket_and_the_talon_in_w_at_three(
    director_client, event, dealt
):
    session = Session.objects.get(pk=dealt.pk)
    html = director_client.get(
        reverse("director:dealing_sheets", args=[event.pk, session.number])
    ).content.decode()
    assert html.count('class="box"') == 15
    for deal in Deal.objects.filter(board_set__session=session).select_related("board_set"):
        names = dealing.deal_cards(deal).as_names()
        pockets = _pockets(html, f"box-1-{deal.code}")
        assert set(pockets) == {"W", "N", "E", "S"}
        for seat in "NES":
            assert _pocket_cards(pockets[seat][0]) == _expected(names[seat])
        assert "прикуп" in pockets["W"][0]
        assert _pocket_cards(pockets["W"][0]) == _expected(names["talon"])


def test_dealing_sheets_at_four_put_the_talon_in_the_dealers_pocket(director_client, event):
    session = seat_players(event, 20, seats=4, dealing="app")
    html = director_client.get(
        reverse("director:dealing_sheets", args=[event.pk, session.number])
    ).content.decode()
    deals = list(Deal.objects.filter(board_set__session=session).select_related("board_set"))
    assert {d.talon_pocket for d in deals} == {"W", "N", "E", "S"}
    for deal in deals:
        assert deal.talon_pocket == deal.dealer
        names = dealing.deal_cards(deal).as_names()
        pockets = _pockets(html, f"box-{deal.board_set.family}-{deal.code}")
        for seat in deal.active_seats:
            assert _pocket_cards(pockets[seat][0]) == _expected(names[seat])
        assert "прикуп" in pockets[deal.talon_pocket][0]
        assert _pocket_cards(pockets[deal.talon_pocket][0]) == _expected(names["talon"])


def test_dealing_sheets_are_the_directors_only(client, other_client, event, dealt):
    url = reverse("director:dealing_sheets", args=[event.pk, dealt.number])
    assert client.get(url).status_code == 302  # the login page
    assert other_client.get(url).status_code == 404


# --- entering the cards ---------------------------------------------------------------------

HANDS = {
    "hand_N": "SA SK SQ SJ S10 S9 S8 S7 CA CK",
    "hand_E": "CQ CJ C10 C9 C8 C7 DA DK DQ DJ",
    "hand_S": "D10 D9 D8 D7 HA HK HQ HJ H10 H9",
    "talon": "H8 H7",
}


def _entry_url(event, session, deal):
    return reverse("director:deal_cards", args=[event.pk, session.number, deal.pk])


def test_the_director_enters_a_by_hand_deals_cards(director_client, event):
    session = seat_players(event, 15)
    deal = Deal.objects.filter(board_set__session=session).order_by("pk").first()
    answer = director_client.post(_entry_url(event, session, deal), HANDS)
    assert answer.status_code == 302
    deal.refresh_from_db()
    assert deal.cards_source == "entered"
    names = dealing.deal_cards(deal).as_names()
    assert set(names["N"]) == set(HANDS["hand_N"].split())
    assert deal.talon == "H8 H7"
    # The dealing sheets of the by-hand session now show this box's pockets.
    html = director_client.get(
        reverse("director:dealing_sheets", args=[event.pk, session.number])
    ).content.decode()
    pockets = _pockets(html, f"box-1-{deal.code}")
    assert _pocket_cards(pockets["N"][0]) == _expected(HANDS["hand_N"].split())
    assert _pocket_cards(pockets["W"][0]) == _expected(["H8", "H7"])
    # The same deal as one PPN string.
    other = Deal.objects.filter(board_set__session=session).order_by("pk")[1]
    answer = director_client.post(_entry_url(event, session, other), {"ppn": deal.cards})
    assert answer.status_code == 302
    other.refresh_from_db()
    assert other.cards == dealing.cards_parse(other.active_seats, ppn=deal.cards).ppn()


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"hand_E": "CQ CJ C10 C9 C8 C7 DA DK DQ SA"}, "hand_E", ["Карман E", "♠Т", "Карман N"]),
        ({"hand_S": "D10 D9 D8 D7 HA HK HQ HJ H10"}, "hand_S", ["Карман S", "9", "10"]),
        ({"talon": "H8 X7"}, "talon", ["Прикуп", "X7", "не карта"]),
        ({"talon": "H8"}, "talon", ["Прикуп", "1", "2"]),
    ],
)
def test_card_entry_errors_are_russian_name_the_field_and_keep_the_input(
    director_client, event, change, field, words
):
    session = seat_players(event, 15)
    deal = Deal.objects.filter(board_set__session=session).order_by("pk").first()
    data = HANDS | change
    answer = director_client.post(_entry_url(event, session, deal), data)
    assert answer.status_code == 400
    form = answer.context["form"]
    message = " ".join(form.errors[field])
    for word in words:
        assert word in message, message
    body = answer.content.decode()
    assert data[field] in body  # what was typed stays
    deal.refresh_from_db()
    assert deal.cards == ""


def test_card_entry_refuses_an_app_dealt_deal(director_client, event, dealt):
    deal = Deal.objects.filter(board_set__session=dealt).first()
    before = deal.cards
    answer = director_client.post(_entry_url(event, dealt, deal), HANDS)
    assert answer.status_code == 400
    assert "роздана приложением" in answer.content.decode()
    deal.refresh_from_db()
    assert deal.cards == before and deal.cards_source == "app"


def test_card_entry_is_the_directors_only(client, other_client, event):
    session = seat_players(event, 15)
    deal = Deal.objects.filter(board_set__session=session).first()
    url = _entry_url(event, session, deal)
    assert client.post(url, HANDS).status_code == 302
    assert other_client.post(url, HANDS).status_code == 404
    deal.refresh_from_db()
    assert deal.cards == ""


# --- hand records ---------------------------------------------------------------------------


def test_the_hand_record_shows_once_published_and_to_the_director_always(
    director_client, event, dealt
):
    from django.test import Client

    client = Client()
    deal = Deal.objects.filter(board_set__session=dealt).first()
    url = reverse("public:traveller", args=[event.slug, deal.pk])
    assert client.get(url).status_code == 403
    # His preview of the unpublished results shows what the public will see (the deal in
    # play: refused); his own view behind the switch shows the hand record.
    assert director_client.get(url).status_code == 403
    preview = director_client.get(f"{url}?view=director").content.decode()
    assert 'id="hand-record"' in preview
    play_out(dealt)
    event_set_results_public(event, True)
    body = client.get(url).content.decode()
    assert 'id="hand-record"' in body
    pockets = re.findall(r'class="pocket pos-(\w)( talon)?"', body)
    assert pockets == [("W", " talon"), ("N", ""), ("E", ""), ("S", "")]


def test_the_hand_record_follows_the_events_suit_order(event, dealt):
    deal = Deal.objects.filter(board_set__session=dealt).first()
    record = hand_records.hand_record(deal, event)
    assert [line.symbol for line in record.pockets["N"].lines] == ["♠", "♣", "♦", "♥"]
    event.suit_order = "clubs-spades-diamonds-hearts"
    record = hand_records.hand_record(deal, event)
    assert [line.symbol for line in record.suits] == ["♣", "♠", "♦", "♥"]


def test_no_hand_record_while_the_cards_are_unknown(client, event):
    session = seat_players(event, 15)
    play_out(session)
    event_set_results_public(event, True)
    deal = Deal.objects.filter(board_set__session=session).first()
    body = client.get(reverse("public:traveller", args=[event.slug, deal.pk])).content.decode()
    assert 'id="hand-record"' not in body
    hands = client.get(reverse("public:session_hands", args=[event.slug, session.number]))
    assert "не известны" in hands.content.decode()


def test_the_players_card_shows_his_tables_hands_with_names(client, event, dealt):
    from events.models import Seat

    play_out(dealt)
    event_set_results_public(event, True)
    seat = Seat.objects.filter(round__room__session=dealt, table__isnull=False).first()
    body = client.get(reverse("public:card", args=[event.slug, seat.entry.number])).content.decode()
    assert 'id="card-hands"' in body
    assert body.count('class="hand-record card"') == 15  # 5 rounds × 3 deals
    assert seat.entry.full_name in body.split('id="card-hands"')[1]


def test_position_keys_name_declarer_trump_talon_and_defence():
    key = hand_records.position_key
    assert (
        key(
            {
                "contract": "three",
                "declarer": "N",
                "trump": "diamonds",
                "defenders": {"E": "whist", "S": "pass"},
            }
        )
        == "N.diamonds.talon.E"
    )
    assert (
        key(
            {
                "contract": "game",
                "declarer": "E",
                "trump": "clubs",
                "defenders": {"S": "whist", "N": "whist"},
            }
        )
        == "E.clubs.no_talon.both"
    )
    assert (
        key({"contract": "hearts", "declarer": "S", "defenders": {"N": "whist", "E": "invited"}})
        == "S.hearts.no_talon.both"
    )
    assert (
        key(
            {
                "contract": "two",
                "declarer": "S",
                "trump": "spades",
                "defenders": {"N": "pass", "E": "pass"},
            }
        )
        is None
    )
    assert key({"contract": "passed"}) is None


def test_the_traveller_api_gives_the_cards_only_once_readable(client, event, dealt):
    deal = Deal.objects.filter(board_set__session=dealt).first()
    url = f"/api/v1/events/{event.pk}/deals/{deal.pk}/traveller/"
    hidden = client.get(url)
    assert hidden.status_code in (401, 403, 404)
    assert deal.cards not in hidden.content.decode()
    play_out(dealt)
    event_set_results_public(event, True)
    body = client.get(url).json()
    assert body["cards"] == deal.cards
    assert body["analysis"] is None  # not analysed yet


def test_the_analyse_button_is_the_directors_only(client, other_client, event, dealt):
    url = reverse("director:deals_analyse", args=[event.pk, dealt.number])
    assert client.post(url).status_code == 302  # the login page
    assert other_client.post(url).status_code == 404


def test_the_pages_read_in_english_too(director_client, event, dealt):
    director_client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    sheets = director_client.get(reverse("director:dealing_sheets", args=[event.pk, dealt.number]))
    assert "Dealing sheets" in sheets.content.decode() and "talon" in sheets.content.decode()
    check = director_client.get(reverse("public:session_check", args=[event.slug, dealt.number]))
    assert "Dealing check" in check.content.decode()
    hands = director_client.get(
        reverse("public:session_hands", args=[event.slug, dealt.number]) + "?view=director"
    )
    body = hands.content.decode()
    assert "Hand records" in body
    assert re.search(r"</span> [AKQJ]\b", body)  # the ranks in English letters


def test_the_session_page_follows_the_analysis_from_its_counts(
    director_client, other_client, event, dealt
):
    url = reverse("director:session_analysis", args=[event.pk, dealt.number])
    page = director_client.get(reverse("director:session", args=[event.pk, dealt.number]))
    assert f'data-progress-url="{url}"' in page.content.decode()  # nothing analysed yet
    doc = director_client.get(url).json()
    assert doc == {
        "known": 15,
        "analysed": 0,
        "analysing": True,
        "text": "Анализ: 0 из 15 сдач",
    }
    Deal.objects.filter(board_set__session=dealt).update(analysed_at=timezone.now())
    assert director_client.get(url).json()["analysing"] is False
    page = director_client.get(reverse("director:session", args=[event.pk, dealt.number]))
    assert "data-progress-url" not in page.content.decode()
    assert Client().get(url).status_code == 302  # the login page
    assert other_client.get(url).status_code == 404
