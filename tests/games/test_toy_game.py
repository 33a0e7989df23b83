"""A game is a unit (issue 33): a third game, a toy one, lives in a folder of its own
(``tests/games/toy/``: its pure core and messages, its play, its ``Game``, its sheets
adapter, its scorer form and its two templates), is registered for this test only, and one
of its deals is played through the table's phone form, confirmed by another seat, shown and
corrected on the director's sheet page and counted in the standings — touching no file
outside its folder.

The rules (``tests.games.toy``): the declarer names 6 to 10 tricks; made, he scores twice
his tricks, down −10; each defender scores his own tricks.

The events layer knows the toy only by what it registered (``events.gamesettings``): its
name on the pages, the event's choice of game, its page's lines."""

from __future__ import annotations

import copy
import datetime
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import Client, override_settings
from django.urls import reverse

from events import gamesettings
from events.catalogue import translated
from events.models import Event, Seat
from scoring import games
from scoring.games.common.messages import SHARED
from scoring.models import ScoreSheet
from scoring.sheets import services
from tests.factories import play_of, play_out, round_link, seat_players, start
from tests.games.toy import core
from tests.games.toy.game import GAME as TOY

pytestmark = pytest.mark.django_db

#: The toy's templates (``games/toy/sheet.html``, ``settlement.html``), found for the test only.
TOY_TEMPLATES = Path(__file__).resolve().parent / "toy" / "templates"

#: Deal 1 of a set of three (N first hand): N names 7 and takes 7, E 2, S 1.
MADE = {"declarer": "N", "contract": "7", "tricks_N": "7", "tricks_E": "2", "tricks_S": "1"}
#: The director's correction: N took 6 of his 7 — down.
DOWN = {"declarer": "N", "contract": "7", "tricks_N": "6", "tricks_E": "3", "tricks_S": "1"}


def _templates_with_the_toys() -> list[dict]:
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [*templates[0]["DIRS"], TOY_TEMPLATES]
    return templates


@pytest.fixture
def toy_game():
    """The toy registered in the one door (``scoring.games.register``) and in the events
    layer's hook (``events.gamesettings.register``: its name, its event page's lines — what
    the app does for its games in ``ready()``), its templates found; all of it undone after
    the test, so that no other test sees a third game."""
    games.register(TOY)
    gamesettings.register(core.NAME, TOY.sheets.settings_lines, label=TOY.sheets.label(core.NAME))
    try:
        with override_settings(TEMPLATES=_templates_with_the_toys()):
            yield TOY
    finally:
        games.unregister(TOY)
        gamesettings.unregister(core.NAME)


@pytest.fixture
def toy_play(toy_game, director):
    """An event of the toy game and
    a session of 15 players in one room of five tables of three (the planner has no movement
    for one table alone), its first round on the clock: table 1 plays the toy."""
    event = Event.objects.create(
        owner=director,
        name="Игрушечный кубок",
        date=datetime.date(2026, 12, 5),
        game=core.NAME,
        scoring_method=Event.ScoringMethod.POINTS,
    )
    session = seat_players(event, 15)
    play = play_of(session, 1, 1)
    start(play.round)
    return play


def _pin(play, position: str) -> str:
    return Seat.objects.get(round=play.round, table=play.table, position=position).entry.pin


def _text(html: bytes | str) -> str:
    """A page's visible text, tags taken out, spaces squeezed."""
    html = html.decode() if isinstance(html, bytes) else html
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def _stored(play) -> dict:
    return ScoreSheet.objects.get(play=play, deal__number=1).current.result


def test_the_toy_is_a_registered_game_only_while_its_test_runs(toy_game):
    assert games.GAMES[core.NAME] is TOY and games.of_json({"rules": {"game": "toy"}}) is TOY
    assert TOY.settle_json(
        {
            "seats": ["N", "E", "S"],
            "declarer": "N",
            "contract": 8,
            "tricks": {"N": 8, "E": 1, "S": 1},
        }
    ) == {"scores": {"N": 16, "E": 1, "S": 1}, "failed": [], "made": True}
    with pytest.raises(games.InvalidInput) as refused:
        games.settle_json(
            {
                "rules": {"game": "toy"},
                "seats": ["N", "E", "S"],
                "declarer": "W",
                "contract": 11,
                "tricks": {"N": 8, "E": 1},
            }
        )
    assert refused.value.render("en") == {
        "declarer": "W does not play this deal",
        "contract": "a toy contract is a number of tricks from 6 to 10",
        "tricks": "give every seat's tricks: N, E, S",
    }


def test_no_third_game_is_left_behind():
    """Run after the test above (or alone): the toy is gone from the door."""
    assert core.NAME not in games.GAMES


def test_one_toy_deal_through_the_table_the_director_and_the_standings(director_client, toy_play):
    play = toy_play
    client = Client()  # the table's phone: no account
    event = play.round.room.session.event
    url = round_link(play, "deals/1/")
    north, east = _entry(play, "N"), _entry(play, "E")

    # (1) The table's phone: the toy's own fields, in its own words.
    page = client.get(url, {"as": "N"})
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="toy-sheet"' in html and 'name="tricks_S"' in html
    assert '<option value="7">игрушка 7</option>' in html
    assert 'name="trump"' in html and 'type="hidden"' in html  # no trump of its own
    assert 'name="auction"' not in html  # no auction: the form has none, nor the page

    # A broken rule is the toy core's, named on its field; nothing is stored.
    wrong = client.post(
        url, {**MADE, "tricks_S": "2", "as": "N", "pin": _pin(play, "N"), "check": "1"}
    )
    assert wrong.status_code == 400
    said = translated(SHARED["tricks_sum"], "ru").format(total=11)
    assert wrong.context["form"].errors["tricks"] == [said] and said in _text(wrong.content)
    assert not ScoreSheet.objects.exists()

    # «Check» shows the toy's settlement, «Save» records it with N's PIN.
    who = {"as": "N", "pin": _pin(play, "N")}
    checked = client.post(url, {**MADE, **who, "check": "1"})
    assert checked.status_code == 200, checked.context["form"].errors
    settlement = checked.content.decode()
    assert 'id="toy-settlement"' in settlement
    assert re.search(r'id="toy-row-N".*?<td class="num">14</td>', settlement, re.S)
    digest = checked.context["form"].data["checked"]
    saved = client.post(url, {**MADE, **who, "checked": digest, "save": "1"})
    assert saved.status_code == 302, saved.context and saved.context["form"].errors
    sheet = ScoreSheet.objects.get()
    assert sheet.status == "entered" and sheet.current.entered_by_entry == north
    assert _stored(play) == {
        "scores": {"N": 14, "E": 2, "S": 1},
        "failed": [],
        "made": True,
        "rules": {"game": "toy"},
        "sheet": {"declarer": "N", "contract": "7", "tricks": {"E": 2, "N": 7, "S": 1}},
    }
    # The table's page shows the result in the toy's words; E confirms it with his PIN.
    table = _text(client.get(round_link(play), {"as": "E"}).content)
    assert "игрушка 7" in table and "Очки игрушки" in table
    confirmed = client.post(
        round_link(play, f"sheets/{sheet.pk}/confirm/"), {"as": "E", "pin": _pin(play, "E")}
    )
    assert confirmed.status_code == 302
    sheet.refresh_from_db()
    assert sheet.status == "confirmed" and sheet.confirmed_by_entry == east

    # (2) The director's sheet page shows it; he corrects it through his own form.
    detail = _text(
        director_client.get(reverse("director:sheet", args=[event.pk, sheet.pk])).content
    )
    assert "N: игрушка 7" in detail and "N 7 · E 2 · S 1" in detail
    form_url = reverse("director:sheet_form", args=[event.pk, play.pk, 1])
    form = director_client.get(form_url)
    assert form.status_code == 200 and 'id="toy-sheet"' in form.content.decode()
    assert form.context["form"].initial["tricks_N"] == 7
    corrected = director_client.post(form_url, {**DOWN, "expected_version": "1", "check": "1"})
    assert corrected.status_code == 200, corrected.context["form"].errors
    assert re.search(
        r'id="toy-row-N".*?<td class="num failed">-10</td>', corrected.content.decode(), re.S
    )
    digest = corrected.context["form"].data["checked"]
    saved = director_client.post(
        form_url, {**DOWN, "expected_version": "1", "checked": digest, "save": "1"}
    )
    assert saved.status_code == 302, saved.context and saved.context["form"].errors
    sheet.refresh_from_db()
    assert sheet.versions.count() == 2 and sheet.current.entered_by_user is not None
    assert _stored(play)["scores"] == {"N": -10, "E": 3, "S": 1}
    assert _stored(play)["failed"] == ["N"]
    detail = _text(
        director_client.get(reverse("director:sheet", args=[event.pk, sheet.pk])).content
    )
    assert "N 6 · E 3 · S 1" in detail and "N 7 · E 2 · S 1" in detail  # the history keeps both

    # (3) The standings count the toy's scores (point totals: each seat's own), once the
    # session is played out and published: in the API and on the public page.
    play_out(play.round.room.session)
    Event.objects.filter(pk=event.pk).update(results_public=True)
    event.refresh_from_db()
    south = _entry(play, "S")
    answer = client.get(f"/api/v1/events/{event.pk}/standings/")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["game"] == "toy" and body["method"] == "points"
    counted = [r for r in body["standings"] if r["total"] is not None]
    assert [(r["name"], float(r["total"]), r["deals"]) for r in counted] == [
        (east.full_name, 3.0, 1),
        (south.full_name, 1.0, 1),
        (north.full_name, -10.0, 1),
    ]
    assert [r["rank"] for r in counted] == ["1", "2", "3"]
    public = _text(client.get(reverse("public:event", args=[event.slug])).content)
    for rank, entry, total in ((1, east, "3.00"), (2, south, "1.00"), (3, north, "-10.00")):
        assert f"{rank} {entry.number} {entry.full_name} {total} 1" in public, public
    # The event's page lists the toy's own settings line (``SheetGame.settings_lines``).
    page = _text(director_client.get(reverse("director:event_detail", args=[event.pk])).content)
    assert "Игрушка от 6 до 10 взяток" in page


def _entry(play, position: str):
    return Seat.objects.get(round=play.round, table=play.table, position=position).entry


def test_every_page_of_a_toy_event_answers(director_client, director, toy_play):
    """The pages, files and API of the event and its deal, for the director, the players
    and the public, drawn with the toy's words: none asks which game it is."""
    play = toy_play
    event = play.round.room.session.event
    services.sheet_record(
        play,
        play.board_set.deals.get(number=1),
        {"declarer": "S", "contract": "6", "tricks": {"N": 2, "E": 3, "S": 5}},
        by_user=director,
    )
    sheet = ScoreSheet.objects.get()
    north = _entry(play, "N")
    phone = Client()
    director_pages = [
        reverse("director:event_detail", args=[event.pk]),
        reverse("director:overview", args=[event.pk]),
        reverse("director:play", args=[event.pk, play.pk]),
        reverse("director:sheet", args=[event.pk, sheet.pk]),
        reverse("director:room_detail", args=[event.pk, play.round.room.pk]),
        reverse("director:event_archive", args=[event.pk]),
        f"/api/v1/events/{event.pk}/",
    ]
    for url in director_pages:
        assert director_client.get(url).status_code == 200, url
    table = _text(phone.get(round_link(play), {"as": "E"}).content)
    assert "игрушка 6" in table
    assert phone.get(f"/p/{north.key}/").status_code == 200
    play_out(play.round.room.session)
    Event.objects.filter(pk=event.pk).update(results_public=True)
    event.refresh_from_db()
    slug, deal = event.slug, sheet.deal
    traveller = _text(phone.get(reverse("public:traveller", args=[slug, deal.pk])).content)
    assert "S: игрушка 6 N 2 · E 3 · S 5 2 2 3 3 -10 -10" in traveller
    card = _text(phone.get(reverse("public:card", args=[slug, north.number])).content)
    assert "S: игрушка 6" in card and "Очки игрушки" in card
    public = [
        reverse("public:session", args=[slug, 1]),
        reverse("public:traveller_csv", args=[slug, deal.pk]),
        reverse("public:traveller_xlsx", args=[slug, deal.pk]),
        reverse("public:card_csv", args=[slug, north.number]),
        reverse("public:event_csv", args=[slug]),
        reverse("public:session_travellers_csv", args=[slug, 1]),
        f"/api/v1/events/{event.pk}/deals/{deal.pk}/traveller/",
        f"/api/v1/events/{event.pk}/players/{north.pk}/card/",
    ]
    for url in public:
        assert phone.get(url).status_code == 200, url
    csv = phone.get(reverse("public:traveller_csv", args=[slug, deal.pk])).content.decode()
    assert "S: игрушка 6" in csv and "Очки игрушки" in csv


# --- an event of the toy game, through the events layer's own doors ----------------------


def test_an_events_game_line_names_any_registered_game(toy_game, director):
    event = Event(owner=director, name="Игрушка", date=datetime.date(2026, 12, 5), game="toy")
    assert event.game_line() == str(TOY.sheets.label(core.NAME))


def test_an_event_may_play_any_registered_game(toy_game, director):
    event = Event(owner=director, name="Игрушка", date=datetime.date(2026, 12, 5), game="toy")
    event.full_clean()
    event.save()
    assert event.get_game_display() == str(TOY.sheets.label(core.NAME))


def test_a_game_unregistered_is_no_choice(director):
    event = Event(owner=director, name="Игрушка", date=datetime.date(2026, 12, 5), game="toy")
    with pytest.raises(ValidationError) as refused:
        event.full_clean()
    assert "game" in refused.value.message_dict
