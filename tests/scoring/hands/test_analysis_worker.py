"""The double-dummy analysis runs on a real worker: queued when an app-dealt session is
created, when a deal's cards are entered and by the session page's «Проанализировать»; it
fills each deal's table one deal at a time (the session page counts them) and, for each
table's sheet, what the cards allowed in the position it played."""

import pytest
from django.urls import reverse

from events import dealing
from events.models import Deal
from events.services import event_set_results_public
from scoring import solver
from scoring.sheets import services
from tests.factories import deal_of, entry_at, finish, play_of, seat_players, start, wait_until

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery"),
    pytest.mark.slow,
]


def until(check):
    return wait_until(check, 60.0, 0.2)


def _analysed(session):
    state = dealing.session_cards_state(session)
    return state.known and state.analysed == state.known


def test_the_worker_analyses_an_app_dealt_session_deal_by_deal(
    celery_worker_process, event, director_client
):
    session = seat_players(event, 15, dealing="app")
    assert until(lambda: _analysed(session)), celery_worker_process.log_path.read_text()[-3000:]
    page = director_client.get(reverse("director:session", args=[event.pk, session.number]))
    assert "Анализ: 15 из 15 сдач" in page.content.decode()

    deal = Deal.objects.filter(board_set__session=session).order_by("pk").first()
    dealt = dealing.deal_cards(deal)
    hands = {seat: list(hand) for seat, hand in dealt.by_seat()}
    expected = solver.deal_table(hands, list(dealt.talon))
    for seat in "NES":
        for trump in ("spades", "clubs", "diamonds", "hearts"):
            cell = deal.analysis[seat][trump]
            assert cell == expected[seat][trump]
            assert 0 <= cell["no_talon"] <= 10 and 0 <= cell["talon"] <= 10
    assert deal.analysis["positions"] == {}

    # A table plays N «три» ♦ against E alone; «Проанализировать» adds what the cards allowed.
    play = play_of(session, 1, 1)
    start(play.round)
    table_deal = deal_of(play, 1)
    sheet = {
        "declarer": "N",
        "contract": "three",
        "trump": "diamonds",
        "defenders": {"E": "whist", "S": "pass"},
        "tricks": {"N": 6, "E": 4},
    }
    services.sheet_record(play, table_deal, sheet, by_entry=entry_at(play, "N"))
    answer = director_client.post(
        reverse("director:deals_analyse", args=[event.pk, session.number])
    )
    assert answer.status_code == 302

    def _position():
        table_deal.refresh_from_db()
        return (table_deal.analysis.get("positions") or {}).get("N.diamonds.talon.E")

    found = until(lambda: _position() is not None)
    assert found is not None, celery_worker_process.log_path.read_text()[-3000:]
    dealt = dealing.deal_cards(table_deal)
    hands = {seat: list(hand) for seat, hand in dealt.by_seat()}
    tricks, _discard = solver.solve(hands, "N", "diamonds", "E", talon=list(dealt.talon))
    assert _position() == tricks

    # The traveller shows it in the table's row, and the hand record the whole table: to the
    # director on his own view (the deal is still to be played at other tables).
    event_set_results_public(event, True)
    body = director_client.get(
        reverse("public:traveller", args=[event.slug, table_deal.pk]) + "?view=director"
    ).content.decode()
    assert f"по картам: {tricks}" in body
    assert 'class="dd-table"' in body


def test_entered_cards_are_analysed(celery_worker_process, event, director_client):
    session = seat_players(event, 15)
    deal = Deal.objects.filter(board_set__session=session).order_by("pk").first()
    answer = director_client.post(
        reverse("director:deal_cards", args=[event.pk, session.number, deal.pk]),
        {
            "hand_N": "SA SK SQ SJ S10 S9 S8 S7 CA CK",
            "hand_E": "CQ CJ C10 C9 C8 C7 DA DK DQ DJ",
            "hand_S": "D10 D9 D8 D7 HA HK HQ HJ H10 H9",
            "talon": "H8 H7",
        },
    )
    assert answer.status_code == 302

    def _done():
        deal.refresh_from_db()
        return deal.analysed_at is not None

    assert until(_done), celery_worker_process.log_path.read_text()[-3000:]
    # N holds every spade: ten tricks in spades, with or without the talon.
    assert deal.analysis["N"]["spades"] == {"talon": 10, "no_talon": 10}
    page = director_client.get(reverse("director:session", args=[event.pk, session.number]))
    assert "Анализ: 1 из 1 сдачи" in page.content.decode()


def test_the_end_of_a_round_adds_the_positions_its_tables_played(celery_worker_process, event):
    session = seat_players(event, 15, dealing="app")
    assert until(lambda: _analysed(session)), celery_worker_process.log_path.read_text()[-3000:]
    play = play_of(session, 1, 2)
    start(play.round)
    deal = deal_of(play, 2)  # E is first hand: E plays «игра» ♣ against both defenders
    sheet = {
        "declarer": "E",
        "contract": "game",
        "trump": "clubs",
        "defenders": {"S": "whist", "N": "whist"},
        "tricks": {"E": 6, "S": 2, "N": 2},
    }
    services.sheet_record(play, deal, sheet, by_entry=entry_at(play, "E"))
    finish(play.round)

    def _position():
        deal.refresh_from_db()
        return (deal.analysis.get("positions") or {}).get("E.clubs.no_talon.both")

    assert until(lambda: _position() is not None), celery_worker_process.log_path.read_text()[
        -3000:
    ]
    # Both defenders whisting, no talon: the whole table's «без прикупа» cell.
    assert _position() == deal.analysis["E"]["clubs"]["no_talon"]
