"""A deal's label in one place (issue 33, docs/game.md §5.5): in a session whose two rooms
play different movements (two families of sets), a deal is «A2.1» or «B2.1» on the grid
and the movement cards, the table's phone, the player's card, the travellers and their
titles, the session's list of deals, the dealing check and the hand records' text file —
never «2.1» on one surface and «A2» or «1/2.1» on another — and two different deals never
share a title."""

import re

import pytest
from django.urls import reverse

from events import services as event_services
from events.models import Deal, Event, Seat, Session
from movements import planner, seating
from movements.services import session_create
from scoring.models import TablePlay
from tests.factories import play_out, round_link, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_families(director):
    """35 players: a prime room of 5 tables × 4 and one of 5 × 3 — two movements, so two
    families of sets, dealt by the app (the hand records and the check are there)."""
    event = event_services.event_create(owner=director, name="Кубок двух залов", date="2026-12-05")
    for i in range(35):
        event_services.entry_create(event, last_name=f"Игроков{i + 1:02d}", first_name="Игорь")
    event_services.draw_make(event, seed="tests")
    option = next(
        o
        for o in planner.plan(35).as_dict()["options"]
        if [(r["kind"], r["tables"], r["seats"]) for r in o["rooms"]]
        == [("prime", 5, 4), ("prime", 5, 3)]
    )
    return session_create(event, option, dealing="app")


def _deal(session, family, number=2, deal=1) -> Deal:
    return Deal.objects.select_related("board_set").get(
        board_set__session=session, board_set__family=family, board_set__number=number, number=deal
    )


def _play(session, family, number=2) -> TablePlay:
    return (
        TablePlay.objects.select_related("round__room__session__event", "table", "board_set")
        .filter(round__room__session=session, board_set__family=family, board_set__number=number)
        .order_by("round__number", "table__number")
        .first()
    )


def _h1(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", re.search(r"<h1>(.*?)</h1>", html, re.S)[1]).split())


def test_a_deal_has_one_label_on_every_surface(client, two_families):
    session = Session.objects.get(pk=two_families.pk)
    event = session.event
    first, second = _deal(session, 1), _deal(session, 2)
    assert (first.code, second.code) == ("A2.1", "B2.1")
    assert str(first) == "A2.1"

    # The grid and the movement cards: the set as «A2» / «B2».
    labels = {
        room.number: {t.set_label for r in room.rounds for t in r.tables}
        for room in seating.session_seating(session)
    }
    assert "A2" in labels[1] and "B2" in labels[2]

    # The table's phone: the set and the deal under the same label.
    play = _play(session, 2)
    start(play.round)
    home = client.get(round_link(play)).content.decode()
    assert "комплект B2" in _h1(home)
    assert "Сдача B2.1" in home
    deal_page = client.get(round_link(play, "deals/1/")).content.decode()
    assert _h1(deal_page) == "Сдача B2.1"

    play_out(session)
    Event.objects.filter(pk=event.pk).update(results_public=True)

    # The player's card: the deals he played, by label.
    player = Seat.objects.filter(round=play.round, table=play.table).first().entry
    card = client.get(reverse("public:card", args=[event.slug, player.number])).content.decode()
    assert ">B2.1</a>" in card

    # The travellers and their titles: two deals, two titles.
    titles = []
    for deal, label in ((first, "A2.1"), (second, "B2.1")):
        page = client.get(reverse("public:traveller", args=[event.slug, deal.pk])).content.decode()
        title = _h1(page)
        assert title.startswith(f"Сдача {label} · "), title
        titles.append(title)
        window = re.search(r"<title>(.*?)</title>", page, re.S)[1]
        assert f"Сдача {label} " in window, window
    assert titles[0] != titles[1]

    # The session's list of deals and its dealing check.
    listing = client.get(reverse("public:session", args=[event.slug, session.number]))
    text = listing.content.decode()
    assert ">A2.1</a>" in text and ">B2.1</a>" in text and "1/2.1" not in text
    check = client.get(reverse("public:session_check", args=[event.slug, session.number]))
    rows = re.findall(r'<td data-label="Сдача">([^<]*)</td>', check.content.decode())
    assert "A2.1" in rows and "B2.1" in rows and len(rows) == len(set(rows))

    # The hand records' text file: each line «<label> <PPN>».
    hands = client.get(reverse("public:session_hands_txt", args=[event.slug, session.number]))
    lines = [line for line in hands.content.decode().splitlines() if not line.startswith("%")]
    assert f"A2.1 {first.cards}" in lines and f"B2.1 {second.cards}" in lines
    assert not any(line.startswith(("1/", "2/")) for line in lines)
    every = [line.split()[0] for line in lines]
    assert len(every) == len(set(every))  # no two deals share a label


def test_one_family_keeps_plain_numbers(session15):
    deal = Deal.objects.select_related("board_set").filter(board_set__session=session15).first()
    assert deal.code == f"{deal.board_set.number}.{deal.number}"
    assert deal.board_set.letter == ""
