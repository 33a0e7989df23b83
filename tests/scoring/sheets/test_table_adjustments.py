"""Artificial scores for a whole table-round in one action: the service, the director's page
and the API agree; defaults are valid; bad input names its field; nothing half-saved."""

import re

import pytest
from django.urls import reverse

from scoring import standings
from scoring.models import Adjustment, DealScore
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of

pytestmark = pytest.mark.django_db


def _form(play, **fields):
    data = {
        "round": play.round_id,
        "table": play.table.number,
        "deal": "",
        "score": "A",
        "reason": "стол не играл тур",
    }
    data.update(fields)
    return data


def test_a_four_player_table_gets_a_score_on_each_deal_each_player_plays(session20, director):
    play = play_of(session20, 1, 2)
    done = services.adjustments_table_create(
        play, by_user=director, score="A", reason="стол не играл"
    )
    # 4 players × 4 deals, each player sits one deal out as its dealer: 12 scores.
    assert (done.players, done.deals, len(done.adjustments)) == (4, 4, 12)
    for deal in play.board_set.deals.all():
        given = Adjustment.objects.filter(play=play, deal=deal)
        assert given.count() == 3
        assert deal.dealer not in {
            s.position for s in play.round.placements.filter(entry__in=[a.entry for a in given])
        }


def test_one_deal_and_a_seats_own_score(session15, director):
    play = play_of(session15, 1, 1)
    deal = deal_of(play, 2)
    done = services.adjustments_table_create(
        play,
        by_user=director,
        score="A",
        reason="испорчен комплект",
        deal=deal,
        seat_scores={"N": "A+", "E": "", "S": "A−"},
    )
    scores = {a.entry_id: a.score for a in done.adjustments}
    assert scores == {
        entry_at(play, "N").pk: "A+",
        entry_at(play, "E").pk: "A",
        entry_at(play, "S").pk: "A-",
    }
    assert set(Adjustment.objects.values_list("deal_id", flat=True)) == {deal.pk}


def test_the_scores_reach_the_comparison(session15, director):
    play = play_of(session15, 1, 1)
    deal = deal_of(play, 1)
    services.adjustments_table_create(play, by_user=director, score="A+", reason="x", deal=deal)
    traveller = standings.deal_traveller(deal)
    mine = next(r for r in traveller.rows if r.play.pk == play.pk)
    assert {s.artificial for s in mine.scores.values()} == {"A+"}
    assert DealScore.objects.filter(play=play, deal=deal).count() == 3


def test_a_clash_with_an_existing_score_saves_nothing(session15, director):
    play = play_of(session15, 1, 1)
    north = entry_at(play, "N")
    services.adjustment_create(
        play,
        entry=north,
        kind="artificial",
        deal=deal_of(play, 3),
        score="A-",
        by_user=director,
        reason="x",
    )
    with pytest.raises(services.ValidationError) as raised:
        services.adjustments_table_create(play, by_user=director, score="A", reason="y")
    assert "deal" in raised.value.error_dict
    assert north.full_name in str(raised.value)
    assert Adjustment.objects.count() == 1


def test_penalties_keep_working_beside_table_scores(session15, director):
    play = play_of(session15, 1, 1)
    services.adjustments_table_create(play, by_user=director, score="A", reason="x")
    services.adjustment_create(
        play,
        entry=entry_at(play, "E"),
        kind="penalty",
        penalty="1.5",
        by_user=director,
        reason="опоздание",
    )
    assert Adjustment.objects.filter(kind="penalty").count() == 1


def test_another_director_may_not(session15, other_director):
    play = play_of(session15, 1, 1)
    with pytest.raises(services.PermissionDenied):
        services.adjustments_table_create(play, by_user=other_director, score="A", reason="x")
    assert not Adjustment.objects.exists()


# --- the page ---------------------------------------------------------------------------


def test_the_page_offers_valid_defaults_and_one_post_scores_the_whole_table(
    director_client, session15
):
    play = play_of(session15, 1, 3)
    event = session15.event
    page = director_client.get(
        reverse("director:adjustments", args=[event.pk]) + f"?play={play.pk}"
    )
    form = page.context["table_form"]
    assert form["round"].value() == play.round_id and form["table"].value() == 3
    assert form["score"].value() == "A" and form["deal"].value() in (None, "")
    response = director_client.post(
        reverse("director:adjustments_table", args=[event.pk]), _form(play)
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("director:play", args=[event.pk, play.pk])
    assert Adjustment.objects.filter(play=play, score="A").count() == 9
    shown = director_client.get(response["Location"]).content.decode()
    assert "9" in shown and entry_at(play, "N").full_name in shown


@pytest.mark.parametrize(
    "fields,field,text",
    [
        ({"table": "9"}, "table", "No table 9 plays in round 1: choose one from the list."),
        ({"table": ""}, "table", "Choose the table from the list."),
        ({"table": "три"}, "table", "Choose the table from the list."),
        ({"reason": ""}, "reason", "This field is required."),
        ({"score": "B"}, "score", "Select a valid choice"),
        ({"deal": "7"}, "deal", "Select a valid choice"),
        ({"score_W": "A+"}, "score_W", "Nobody sits at W at table 1 in round 1."),
    ],
)
def test_bad_input_is_named_on_its_field_and_kept(
    director_client, session15, en, fields, field, text
):
    play = play_of(session15, 1, 1)
    response = director_client.post(
        reverse("director:adjustments_table", args=[session15.event.pk]),
        _form(play, **fields),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    form = response.context["table_form"]
    assert field in form.errors and text in " ".join(form.errors[field])
    assert form["reason"].value() == _form(play, **fields)["reason"]
    assert not Adjustment.objects.exists()


def _offered(body: str) -> str:
    """The seats whose own-score field the page shows (not ``hidden``), W N E S order."""
    found = re.findall(r'<div class="field[^"]*" data-seat="([WNES])"( hidden)?>', body)
    return "".join(seat for seat, hidden in found if not hidden)


def _table_options(body: str) -> list[str]:
    select = re.search(r'<select name="table"[^>]*>(.*?)</select>', body, re.S)
    assert select, "the table is chosen from a list"
    return re.findall(r'<option value="(\d+)"', select.group(1))


def test_a_table_of_three_offers_its_three_seats_and_the_rounds_tables_in_a_list(
    director_client, session15
):
    play = play_of(session15, 2, 4)
    url = reverse("director:adjustments", args=[session15.event.pk]) + f"?play={play.pk}"
    body = director_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert _offered(body) == "NES" and "Seat W" not in re.sub(
        r'<div[^>]* data-seat="W" hidden>.*?</div>', "", body, flags=re.S
    )
    assert _table_options(body) == ["1", "2", "3", "4", "5"]
    assert re.search(r'<option value="4" selected>Table 4</option>', body)
    assert 'name="table" type="number"' not in body and 'type="number" name="table"' not in body
    # A set of three has no deal 4: no table of the event plays one.
    deal = re.search(r'<select name="deal"[^>]*>(.*?)</select>', body, re.S).group(1)
    assert re.findall(r'<option value="(\d*)"', deal) == ["", "1", "2", "3"]


def test_a_table_of_four_offers_four_seats_and_on_one_deal_not_its_dealer(
    director_client, session20
):
    play = play_of(session20, 1, 2)
    url = reverse("director:adjustments", args=[session20.event.pk]) + f"?play={play.pk}"
    body = director_client.get(url).content.decode()
    assert _offered(body) == "WNES"
    dealer = deal_of(play, 2).dealer
    response = director_client.post(
        reverse("director:adjustments_table", args=[session20.event.pk]),
        _form(play, deal="2", **{f"score_{dealer}": "A+"}),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    errors = response.context["table_form"].errors
    assert errors[f"score_{dealer}"] == [
        f"{dealer} deals deal 2 and sits it out: that seat gets no score on it."
    ]
    body = response.content.decode()
    # The seat with the error stays in sight; the other seats of deal 2 are offered.
    assert _offered(body) == "WNES"
    assert not Adjustment.objects.exists()
    again = director_client.post(
        reverse("director:adjustments_table", args=[session20.event.pk]),
        _form(play, deal="2", reason=""),
    )
    assert _offered(again.content.decode()) == "".join(
        p for p in "WNES" if p in deal_of(play, 2).active_seats
    )


def test_the_api_refuses_a_score_for_the_dealer_on_his_deal(director_client, session20):
    play = play_of(session20, 1, 1)
    dealer = deal_of(play, 1).dealer
    response = director_client.post(
        reverse("scoring-adjustment-table", args=[session20.event.pk]),
        {"play": play.pk, "deal": 1, "score": "A", "scores": {dealer: "A-"}, "reason": "x"},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json()[f"scores.{dealer}"] == [
        f"{dealer} deals deal 1 and sits it out: that seat gets no score on it."
    ]
    assert not Adjustment.objects.exists()


def test_the_page_speaks_russian(director_client, session15):
    play = play_of(session15, 1, 1)
    response = director_client.post(
        reverse("director:adjustments_table", args=[session15.event.pk]), _form(play, table="9")
    )
    body = response.content.decode()
    assert "Искусственные результаты для всего стола" in body
    assert "Стол 9 не играет в туре 1" in body


def test_the_table_page_links_to_the_whole_table_form(director_client, session15):
    play = play_of(session15, 1, 1)
    body = director_client.get(
        reverse("director:play", args=[session15.event.pk, play.pk])
    ).content.decode()
    assert f"?play={play.pk}#table-scores" in body


def test_the_single_players_form_defaults_to_a_valid_artificial_score(director_client, session15):
    play = play_of(session15, 1, 1)
    form = director_client.get(
        reverse("director:play", args=[session15.event.pk, play.pk])
    ).context["form"]
    assert form["kind"].value() in (None, "artificial") or form["kind"].initial is None
    assert form["deal"].value() == 1 and form["score"].value() == "A"
    data = {
        "kind": "artificial",
        "entry": entry_at(play, "N").pk,
        "deal": form["deal"].value(),
        "score": form["score"].value(),
        "reason": "x",
    }
    response = director_client.post(
        reverse("director:adjustment_add", args=[session15.event.pk, play.pk]), data
    )
    assert response.status_code == 302
    assert Adjustment.objects.get().score == "A"


def test_writes_belong_to_the_events_director(client, other_client, session15):
    play = play_of(session15, 1, 1)
    url = reverse("director:adjustments_table", args=[session15.event.pk])
    assert client.post(url, _form(play)).status_code == 302  # to the login page
    assert other_client.post(url, _form(play)).status_code == 404
    assert not Adjustment.objects.exists()


# --- the API ------------------------------------------------------------------------------


def _api(event):
    return reverse("scoring-adjustment-table", args=[event.pk])


def test_the_api_gives_the_same_scores_as_the_page(director_client, session15):
    play = play_of(session15, 1, 1)
    response = director_client.post(
        _api(session15.event),
        {"play": play.pk, "score": "A-", "scores": {"N": "A"}, "reason": "x"},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    doc = response.json()
    assert (doc["players"], doc["deals"], len(doc["adjustments"])) == (3, 3, 9)
    by_round_table = director_client.post(
        _api(session15.event),
        {"round": play.round_id, "table": 2, "deal": 1, "score": "A", "reason": "x"},
        content_type="application/json",
    )
    assert by_round_table.status_code == 201
    assert {a["table"] for a in by_round_table.json()["adjustments"]} == {2}


@pytest.mark.parametrize(
    "payload,field",
    [
        ({"score": "A", "reason": "x"}, "play"),
        ({"play": 0, "score": "A", "reason": "x"}, "play"),
        ({"round": 0, "table": 1, "score": "A", "reason": "x"}, "round"),
        ({"round": "ROUND", "table": 99, "score": "A", "reason": "x"}, "table"),
        ({"play": "PLAY", "score": "Z", "reason": "x"}, "score"),
        ({"play": "PLAY", "score": "A", "scores": {"W": "A"}, "reason": "x"}, "scores.W"),
        ({"play": "PLAY", "deal": 9, "score": "A", "reason": "x"}, "deal"),
        ({"play": "PLAY", "score": "A", "reason": " "}, "reason"),
        ({"play": "PLAY", "score": "A", "scores": ["N"], "reason": "x"}, "scores"),
    ],
)
def test_bad_api_input_is_a_400_naming_the_field(director_client, session15, payload, field):
    play = play_of(session15, 1, 1)
    payload = {
        k: (play.pk if v == "PLAY" else play.round_id if v == "ROUND" else v)
        for k, v in payload.items()
    }
    response = director_client.post(_api(session15.event), payload, content_type="application/json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    assert not Adjustment.objects.exists()


def test_the_api_refuses_the_wrong_actor(client, other_client, session15):
    play = play_of(session15, 1, 1)
    payload = {"play": play.pk, "score": "A", "reason": "x"}
    assert (
        client.post(_api(session15.event), payload, content_type="application/json").status_code
        == 401
    )
    assert (
        other_client.post(
            _api(session15.event), payload, content_type="application/json"
        ).status_code
        == 404
    )
    assert not Adjustment.objects.exists()


def test_a_sheet_already_recorded_is_replaced_for_the_comparison(
    director_client, session15, director
):
    play = play_of(session15, 1, 1)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    services.adjustments_table_create(
        play, by_user=director, score="A", reason="x", deal=deal_of(play, 1)
    )
    scores = DealScore.objects.filter(play=play, deal=deal_of(play, 1))
    standings.deal_traveller(deal_of(play, 1))
    assert {s.artificial for s in scores} == {"A"}
