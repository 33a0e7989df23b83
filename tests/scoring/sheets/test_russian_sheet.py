"""The Russian game's sheet on the table's phone (docs/game.md §9.3): every outcome of the
note entered through the scorer form and stored with the figures of the pure core
(``scoring.games.settle_json`` of the same deal), the balance exact; every refusal named on
its field; the Austrian sheet unchanged beside it."""

from fractions import Fraction

import pytest
from django.urls import reverse

from events import rounds
from events import services as event_services
from events.models import Round
from scoring import games
from scoring.models import ScoreSheet
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS_FORM, play_of, round_link, seat_players

pytestmark = pytest.mark.django_db


def _event(director, game="sochi", **options):
    return event_services.event_create(
        owner=director, name="Кубок Сочи", date="2026-12-05", game=game, **options
    )


def _running(event):
    session = seat_players(event, 15)
    rounds.round_start(Round.objects.get(room__session=session, number=1))
    return play_of(session, 1, 1)


@pytest.fixture
def sochi(director):
    return _running(_event(director))


def _post(client, play, data, *, deal=1, save=False):
    url = round_link(play, f"deals/{deal}/")
    checked = client.post(url, {**data, "as": "N", "check": "1"})
    if not save or checked.status_code != 200:
        return checked
    digest = checked.context["form"].data["checked"]
    return client.post(url, {**data, "as": "N", "checked": digest, "save": "1"})


def _form(declarer="", contract="", defence=None, tricks=None, **more):
    data = {"declarer": declarer, "contract": contract, **more}
    data |= {f"defence_{s}": d for s, d in (defence or {}).items()}
    data |= {f"tricks_{s}": str(n) for s, n in (tricks or {}).items()}
    return data


def _core(event, deal, **sheet):
    """The same deal settled by the pure core, as ``manage.py settle --json`` does."""
    layout = {"board": {"players": deal.board_set.players, "number": deal.number}}
    return games.settle_json({"rules": event.game_rules(), **layout, **sheet})


def _stored(play, deal=1):
    return ScoreSheet.objects.get(play=play, deal__number=deal).current.result


# Deal 1 of a 3-seat set: N, E, S play, N is first hand (E the declarer's left of N).
OUTCOMES = [
    # made, two whisters (the note's example): +5.33, −0.67, −4.67
    (
        "made, both whist",
        _form("N", "6S", {"E": "whist", "S": "whist"}, {"N": 6, "E": 3, "S": 1}),
        dict(
            declarer="N",
            contract="6S",
            defenders={"E": "whist", "S": "whist"},
            tricks={"N": 6, "E": 3, "S": 1},
        ),
    ),
    (
        "down one with consolation",
        _form("N", "6S", {"E": "whist", "S": "pass"}, {"N": 5, "E": 5}),
        dict(
            declarer="N",
            contract="6S",
            defenders={"E": "whist", "S": "pass"},
            tricks={"N": 5, "E": 5},
        ),
    ),
    (
        "a lone whister short",
        _form("N", "7H", {"E": "pass", "S": "whist"}, {"N": 9, "S": 1}),
        dict(
            declarer="N",
            contract="7H",
            defenders={"E": "pass", "S": "whist"},
            tricks={"N": 9, "S": 1},
        ),
    ),
    (
        "both pass",
        _form("N", "8D", {"E": "pass", "S": "pass"}),
        dict(declarer="N", contract="8D", defenders={"E": "pass", "S": "pass"}),
    ),
    (
        "half whist",
        _form("N", "6C", {"E": "pass", "S": "half"}),
        dict(declarer="N", contract="6C", defenders={"E": "pass", "S": "half"}),
    ),
    (
        "misere made",
        _form("N", "misere", tricks={"N": 0}),
        dict(declarer="N", contract="misere", tricks={"N": 0}),
    ),
    (
        "misere caught",
        _form("N", "misere", tricks={"N": 2}),
        dict(declarer="N", contract="misere", tricks={"N": 2}),
    ),
    (
        "all-pass",
        _form("", "passed", tricks={"N": 5, "E": 0, "S": 5}),
        dict(contract="passed", tricks={"N": 5, "E": 0, "S": 5}),
    ),
    (
        "a checked 10 down",
        _form("N", "10NT", tricks={"N": 9}),
        dict(declarer="N", contract="10NT", tricks={"N": 9}),
    ),
    (
        "two whisters short at 8",
        _form("N", "8NT", {"E": "whist", "S": "whist"}, {"N": 10, "E": 0, "S": 0}),
        dict(
            declarer="N",
            contract="8NT",
            defenders={"E": "whist", "S": "whist"},
            tricks={"N": 10, "E": 0, "S": 0},
        ),
    ),
]


@pytest.mark.parametrize(("name", "form", "sheet"), OUTCOMES, ids=[o[0] for o in OUTCOMES])
def test_every_outcome_entered_on_the_phone_is_stored_as_the_core_settles_it(
    client, sochi, name, form, sheet
):
    saved = _post(client, sochi, form, save=True)
    assert saved.status_code == 302, saved.context and saved.context["form"].errors
    stored = _stored(sochi)
    core = _core(sochi.round.room.session.event, sochi.board_set.deals.get(number=1), **sheet)
    for key in ("pool", "mountain", "whists", "failed"):
        assert stored[key] == core[key], key
    exact = {seat: Fraction(text) for seat, text in stored["scores"].items()}
    assert sum(exact.values()) == 0  # zero-sum, exactly
    assert {s: float(round(v, 2)) for s, v in exact.items()} == core["scores"]
    assert stored["rules"]["game"] == "sochi"


def test_the_notes_example_is_exact_thirds(client, sochi):
    _post(client, sochi, OUTCOMES[0][1], save=True)
    assert _stored(sochi)["scores"] == {"N": "16/3", "E": "-2/3", "S": "-14/3"}


def test_check_shows_what_each_seat_writes_and_the_balance(client, sochi):
    checked = _post(client, sochi, OUTCOMES[1][1])
    assert checked.status_code == 200
    body = checked.content.decode()
    rows = {r["seat"]: r for r in checked.context["preview"]}
    assert rows["N"]["mountain"] == 2 and rows["N"]["failed"]
    assert rows["E"]["whists"] == [("N", 12)] and rows["S"]["whists"] == [("N", 2)]
    assert "Сочи · 10 проверяется · ответственность полная" in body
    assert 'id="ru-row-N"' in body and "12 на N" in body
    assert not ScoreSheet.objects.exists()


def test_leningrad_doubles_the_mountain_and_the_whists(client, director):
    play = _running(_event(director, "leningrad"))
    _post(client, play, OUTCOMES[1][1], save=True)
    stored = _stored(play)
    assert stored["mountain"]["N"] == 4 and stored["whists"]["E"] == {"N": 24}
    assert stored["rules"] == {
        "game": "leningrad",
        "ten": "whisted",
        "responsibility": "half",
        "stalingrad": False,
    }


REFUSALS = [
    # half whist by the first defender: on his own field
    (_form("N", "6S", {"E": "half", "S": "pass"}), "defence_E", "второй"),
    # half whist on an 8
    (_form("N", "8S", {"E": "pass", "S": "half"}), "defence_S", "шестерной"),
    # a checked 10 is not whisted
    (_form("N", "10S", {"E": "whist", "S": "pass"}, {"N": 10}), "defence_E", "десятерная"),
    # tricks on a deal not played
    (_form("N", "7S", {"E": "pass", "S": "pass"}, {"N": 10}), "tricks", "не играется"),
    # the tricks do not add up
    (_form("", "passed", tricks={"N": 5, "E": 2, "S": 2}), "tricks", "9"),
    # a declarer on all-pass
    (_form("N", "passed", tricks={"N": 5, "E": 0, "S": 5}), "declarer", ""),
    # the auction gives another declarer
    (
        _form(
            "N",
            "6S",
            {"E": "whist", "S": "whist"},
            {"N": 6, "E": 3, "S": 1},
            auction="N pass, E 6S, S pass",
        ),
        "auction",
        "",
    ),
    # no contract
    (_form("N", ""), "contract", ""),
]


@pytest.mark.parametrize(("form", "field", "word"), REFUSALS)
def test_a_broken_rule_is_named_on_its_field_and_nothing_typed_is_lost(
    client, sochi, form, field, word
):
    answer = _post(client, sochi, form)
    assert answer.status_code == 400
    errors = answer.context["form"].errors
    assert field in errors, errors
    assert word in " ".join(errors[field])
    bound = answer.context["form"]
    for name, value in form.items():
        assert str(bound[name].value() or "") == value
    summary = answer.context["error_summary"]
    assert summary and summary.problems
    assert not ScoreSheet.objects.exists()


def test_the_refusals_are_english_on_english_pages(client, sochi):
    client.cookies["django_language"] = "en"
    answer = _post(client, sochi, REFUSALS[1][0])
    assert "half whist is only on a 6 or a 7" in " ".join(
        answer.context["form"].errors["defence_S"]
    )


def test_the_same_result_sent_again_records_nothing_new(client, sochi):
    lone = _form("N", "6S", {"E": "whist", "S": "pass"}, {"N": 6, "E": 4})
    _post(client, sochi, lone, save=True)
    # The passer's hand written this time: the lone whister's tricks are all the defence's.
    again = _form("N", "6S", {"E": "whist", "S": "pass"}, {"N": 6, "E": 2, "S": 2})
    _post(client, sochi, again, save=True)
    sheet = ScoreSheet.objects.get()
    assert sheet.versions.count() == 1 and sheet.status == "entered"


def test_the_form_offers_half_whist_only_to_the_second_defender(client, sochi):
    answer = _post(client, sochi, _form("N", "6S", {"E": "pass"}))
    form = answer.context["form"]
    assert [f.name for f in form.defence_fields()] == ["defence_E", "defence_S"]
    assert "half" not in dict(form.fields["defence_E"].widget.choices)
    assert "half" in dict(form.fields["defence_S"].widget.choices)
    late = _post(client, sochi, _form("N", "9S"))
    assert "half" not in dict(late.context["form"].fields["defence_S"].widget.choices)


def test_the_director_form_takes_a_russian_sheet(director_client, sochi):
    url = reverse("director:sheet_form", args=[sochi.round.room.session.event_id, sochi.pk, 1])
    form = OUTCOMES[0][1]
    checked = director_client.post(url, {**form, "check": "1"})
    assert checked.status_code == 200, checked.context["form"].errors
    digest = checked.context["form"].data["checked"]
    saved = director_client.post(url, {**form, "checked": digest, "save": "1"})
    assert saved.status_code == 302
    assert _stored(sochi)["scores"]["N"] == "16/3"


def test_the_austrian_sheet_is_as_before_beside_it(client, event):
    play = _running(event)
    saved = _post(client, play, THREE_DIAMONDS_FORM, save=True)
    assert saved.status_code == 302
    stored = _stored(play)
    assert stored["scores"] == {"N": 70, "E": 30, "S": 0} and stored["stake"] == 100
    assert "pool" not in stored and "rules" not in stored


def test_the_services_essence_of_a_russian_sheet(sochi):
    deal = sochi.board_set.deals.get(number=1)
    data = {
        "declarer": "N",
        "contract": "6S",
        "defenders": {"E": "whist", "S": "pass"},
        "tricks": {"N": 7, "E": 3},
    }
    checked = services.sheet_check(sochi, deal, data)
    assert checked.essence == services.essence_of_data(data, sochi, deal)
    assert checked.essence["tricks"] == {"E": 3, "N": 7}
