"""One name per kind of thing (issue 33): a card is named in one place per language
(``events.cards.card_text``): Russian pages say В Д К Т on every surface that names a card —
the talon grid, the director's sheet history, the wrong-talon message, the card entry's
messages and the dealing check — as the hand diagrams always did; English pages J Q K A."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from events.models import Deal, Session
from events.services import event_set_results_public
from scoring.models import TablePlay
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, play_of, play_out, round_link, seat_players

pytestmark = pytest.mark.django_db

TALON = ["SA", "H7"]
PICTURES_EN = re.compile(r"[♠♣♦♥](?:J|Q|K|A)\b")
PICTURES_RU = re.compile(r"[♠♣♦♥][ВДКТ]")


def _plays_of_set(session, number):
    return list(
        TablePlay.objects.filter(round__room__session=session, board_set__number=number)
        .select_related("round__room__session__event", "table", "board_set")
        .order_by("round__number")
    )


def _talon_labels(body: str) -> list[str]:
    """What the talon grid's buttons show (their visible half)."""
    grid = body[body.index('class="talon-grid"') :]
    grid = grid[: grid.index("</div>")]
    return re.findall(r'<span aria-hidden="true">([^<]+)</span>', grid)


def test_the_talon_grid_names_the_picture_cards_in_the_pages_language(client, session15):
    play = play_of(session15, 1, 1)
    from events import rounds

    rounds.round_start(play.round)
    url = round_link(play, "deals/1/")
    russian = _talon_labels(client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode())
    assert russian[:8] == ["♠7", "♠8", "♠9", "♠10", "♠В", "♠Д", "♠К", "♠Т"]
    assert len(russian) == 32 and not any(PICTURES_EN.search(label) for label in russian)
    client.cookies.load({"django_language": "en"})
    english = _talon_labels(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert english[-4:] == ["♥J", "♥Q", "♥K", "♥A"]


def test_the_sheet_history_names_the_talon_in_russian(director_client, session15, director):
    play = play_of(session15, 1, 1)
    done = services.sheet_record(
        play, deal_of(play, 1), THREE_DIAMONDS | {"talon": TALON}, by_user=director
    )
    event = session15.event
    body = director_client.get(reverse("director:sheet", args=[event.pk, done.sheet.pk]))
    text = body.content.decode()
    assert '<span class="card-name">♠Т</span>' in text
    assert '<span class="card-name red">♥7</span>' in text
    assert "♠A" not in text


def test_the_wrong_talon_message_names_the_cards_in_the_language(session15, director):
    first, second = _plays_of_set(session15, 1)[:2]
    services.sheet_record(
        first, deal_of(first, 1), THREE_DIAMONDS | {"talon": TALON}, by_user=director
    )
    wrong = THREE_DIAMONDS | {"talon": ["SA", "HK"]}
    for language, shown in (("ru", "♠Т ♥К"), ("en", "♠A ♥K")):
        with translation.override(language), pytest.raises(ValidationError) as caught:
            services.sheet_check(second, deal_of(second, 1), wrong)
        assert shown in caught.value.message_dict["talon"][0]


def test_the_card_entry_names_a_card_typed_twice_in_russian(director_client, event):
    session = seat_players(event, 15)
    deal = Deal.objects.filter(board_set__session=session).order_by("pk").first()
    url = reverse("director:deal_cards", args=[event.pk, session.number, deal.pk])
    answer = director_client.post(
        url,
        {
            "hand_N": "SA SK SQ SJ S10 S9 S8 S7 CA CK",
            "hand_E": "CQ CJ C10 C9 C8 C7 DA DK DQ SQ",
            "hand_S": "D10 D9 D8 D7 HA HK HQ HJ H10 H9",
            "talon": "H8 H7",
        },
    )
    message = " ".join(answer.context["form"].errors["hand_E"])
    assert "♠Д" in message and "SQ" not in message, message


def test_the_dealing_check_names_the_shuffles_cards_in_russian(client, event):
    session = Session.objects.get(pk=seat_players(event, 15, dealing="app").pk)
    play_out(session)
    event_set_results_public(event, True)
    url = reverse("public:session_check", args=[event.slug, session.number])
    russian = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "в порядке ♠7 … ♥Т" in russian and "♥A" not in russian
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "in the order ♠7 … ♥A" in english
