"""The small texts a newcomer met (issue 33): the «Протоколы» page's round chips and
statuses in words, a defence not chosen yet asked for rather than counted, and counts in
their Russian plural forms («от 1 сдачи»)."""

import pytest
from django.urls import reverse

from movements import seating
from movements.services import session_create
from scoring.games.austrian import InvalidInput, deal_from_json
from scoring.games.russian import InvalidInput as RussianInvalid
from scoring.games.russian import deal_from_json as russian_deal
from scoring.ladder.views import _events
from scoring.models import Ladder
from tests.factories import seat_players
from tests.games.russian.russian_helpers import sheet

pytestmark = pytest.mark.django_db


def _rendered(error) -> dict[str, list[str]]:
    return {
        name: [m.render("ru") for m in found] for name, found in error.problems.by_field.items()
    }


def test_a_defence_not_chosen_yet_is_asked_for_not_counted():
    austrian = {
        "declarer": "N",
        "contract": "one",
        "trump": "spades",
        "tricks": {"N": 6, "E": 2, "S": 2},
    }
    with pytest.raises(InvalidInput) as caught:
        deal_from_json(austrian)
    words = _rendered(caught.value)["defenders"]
    assert words == ["выберите двух защитников: вист или пас каждого"]
    with pytest.raises(InvalidInput) as one:
        deal_from_json(austrian | {"defenders": {"E": "whist"}})
    assert _rendered(one.value)["defenders"] == ["защитников должно быть двое, а указано 1"]


def test_the_russian_game_asks_for_the_defence_too():
    with pytest.raises(RussianInvalid) as caught:
        russian_deal(sheet(declarer="N", contract="6S", tricks={"N": 6, "E": 3, "S": 1}))
    assert "выберите двух защитников" in " ".join(_rendered(caught.value)["defenders"])


def test_a_ladders_rule_of_one_deal_reads_from_1_deal_not_from_1_deals(director, event):
    ladder = Ladder.objects.create(owner=director, name="Клуб", slug="klub", min_deals=1)
    event.results_public = True
    event.save()
    (note,) = [found["note"] for found in _events(ladder)]
    assert "от 1 сдачи" in note and "2 столов" in note, note
    ladder.min_deals, ladder.min_tables = 5, 1
    (note,) = [found["note"] for found in _events(ladder)]
    assert "от 5 сдач" in note and "1 стола" in note, note


def test_the_sheets_pages_round_chips_and_statuses_are_words(director_client, event):
    seat_players(event, 15)
    option = seating.event_plan(event)["options"][0]
    session_create(event, option, number=2)
    page = director_client.get(reverse("director:overview", args=[event.pk])).content.decode()
    chips = page[page.index('id="round-chips"') : page.index("</nav>", page.index("round-chips"))]
    assert "Сессия 1" in chips and "Сессия 2" in chips
    assert ">Тур 1<" in chips
    assert "·Т1" not in chips and "1·" not in chips
    assert 'class="statuses"' in page
