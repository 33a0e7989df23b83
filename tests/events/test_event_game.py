"""An event's game (docs/game.md §9): «Новый турнир» and «Изменить» offer the Austrian game
(the default, as before) or a Russian convention with its options, each convention's
defaults filled in; the game is fixed once a sheet is recorded — the form says why, the API
answers 400 naming the field; the director's page names the game in one line."""

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from events import gamesettings, services
from events.models import Event, Game
from scoring.games.russian import Rules

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Кубок Сочи",
    "date": "2026-12-12",
    "minutes_per_deal": 6,
    "scoring_method": "matchpoints",
    "pot_rule": "fixed",
    "stake": 100,
    "suit_order": "spades-clubs-diamonds-hearts",
    "average_plus": 60,
    "average": 50,
    "average_minus": 40,
}


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def _with_a_sheet(event):
    from events import rounds
    from events.models import Round
    from scoring.sheets import services as scoring_services
    from tests.factories import THREE_DIAMONDS, deal_of, play_of, seat_players

    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    play = play_of(session, 1, 1)
    scoring_services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=event.owner)
    return event


def test_the_defaults_are_the_cores_own():
    """The events layer reads each convention's defaults from its game (one source)."""
    defaults = gamesettings.all_option_defaults()
    assert set(defaults) == {"sochi", "leningrad", "rostov"}
    for game, options in defaults.items():
        rules = Rules(game)
        assert (rules.ten.value, rules.responsibility.value) == (
            options["ten"],
            options["responsibility"],
        )
    assert gamesettings.option_defaults("austrian") is None


def test_an_event_plays_the_austrian_game_by_default_with_no_options(event):
    assert (event.game, event.ten, event.responsibility, event.stalingrad) == (
        "austrian",
        "",
        "",
        False,
    )
    assert event.game_rules() == {"game": "austrian"}


def test_a_russian_event_takes_its_conventions_defaults(director):
    event = services.event_create(owner=director, name="Питер", date="2026-12-05", game="leningrad")
    assert (event.ten, event.responsibility, event.stalingrad) == ("whisted", "half", False)
    with translation.override("ru"):
        assert event.game_line() == "Ленинград · 10 вистуется · ответственность половинная"
    with translation.override("en"):
        assert event.game_line() == "Leningrad · 10 whisted · half responsibility"


def test_an_austrian_event_keeps_no_russian_options(director):
    event = services.event_create(
        owner=director, name="Вена", date="2026-12-05", ten="checked", stalingrad=True
    )
    assert (event.ten, event.stalingrad) == ("", False)


def test_the_new_event_form_offers_the_game_and_its_options(director_client):
    body = director_client.get(reverse("director:event_create")).content.decode()
    assert "Австрийский (котёл)" in body and "Ростов" in body
    assert 'id="game-options"' in body and "game_options.js" in body
    assert "как принято в конвенции" in body and "Сталинград" in body


def test_a_sochi_event_through_the_form_without_javascript(director_client):
    # Without JavaScript the options stay at «as the convention has it».
    response = director_client.post(
        reverse("director:event_create"),
        {**FORM, "game": "sochi", "ten": "", "responsibility": "", "stalingrad": "on"},
    )
    event = Event.objects.get(name="Кубок Сочи")
    assert response.status_code == 302
    assert (event.game, event.ten, event.responsibility, event.stalingrad) == (
        "sochi",
        "checked",
        "full",
        True,
    )
    page = director_client.get(event.get_absolute_url()).content.decode()
    assert "Сочи · 10 проверяется · ответственность полная · Сталинград" in page


def test_an_event_form_without_the_game_keeps_the_austrian_one(director_client):
    director_client.post(reverse("director:event_create"), FORM)
    assert Event.objects.get().game == Game.AUSTRIAN


def test_the_game_changes_until_a_sheet_is_recorded(director_client, event):
    url = reverse("director:event_edit", args=[event.pk])
    director_client.post(url, {**FORM, "game": "rostov", "ten": "whisted"})
    event.refresh_from_db()
    assert (event.game, event.ten, event.responsibility) == ("rostov", "whisted", "full")


def test_the_game_is_fixed_once_a_sheet_is_recorded_and_the_form_says_why(director_client, event):
    _with_a_sheet(event)
    url = reverse("director:event_edit", args=[event.pk])
    page = director_client.get(url)
    assert page.context["form"].fields["game"].disabled
    assert "Протоколы уже записаны по этой игре" in page.content.decode()
    director_client.post(url, {**FORM, "name": "Кубок", "game": "sochi"})
    event.refresh_from_db()
    assert (event.name, event.game) == ("Кубок", "austrian")


def test_the_api_carries_the_game_and_its_options(api):
    made = api.post(
        "/api/v1/events/",
        {"name": "Кубок", "date": "2026-12-05", "game": "rostov", "stalingrad": True},
        format="json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["game"], body["ten"], body["responsibility"], body["stalingrad"]) == (
        "rostov",
        "checked",
        "full",
        True,
    )
    assert body["game_line"]
    changed = api.patch(f"/api/v1/events/{body['id']}/", {"ten": "whisted"}, format="json")
    assert changed.status_code == 200 and changed.json()["ten"] == "whisted"


def test_the_api_refuses_a_game_unknown(api):
    made = api.post(
        "/api/v1/events/", {"name": "Кубок", "date": "2026-12-05", "game": "vint"}, format="json"
    )
    assert made.status_code == 400 and "game" in made.json()


def test_the_api_refuses_a_game_change_after_a_sheet_naming_the_field(api, event):
    _with_a_sheet(event)
    answer = api.patch(
        f"/api/v1/events/{event.pk}/", {"game": "sochi", "stalingrad": True}, format="json"
    )
    assert answer.status_code == 400
    assert set(answer.json()) == {"game", "stalingrad"}
    event.refresh_from_db()
    assert event.game == "austrian"
    same = api.patch(f"/api/v1/events/{event.pk}/", {"game": "austrian"}, format="json")
    assert same.status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_an_existing_event_migrates_to_the_austrian_game():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate([("events", "0009_tableplay_key")])
    old = executor.loader.project_state([("events", "0009_tableplay_key")]).apps
    owner = old.get_model("auth", "User").objects.create(username="old-judge")
    old.get_model("events", "Event").objects.create(owner=owner, name="Старый", date="2026-11-01")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    event = Event.objects.get(name="Старый")
    assert (event.game, event.ten, event.responsibility, event.stalingrad) == (
        "austrian",
        "",
        "",
        False,
    )
