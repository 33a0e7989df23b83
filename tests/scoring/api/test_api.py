"""The scoring API: director-owned writes, public reads once published, 400 naming the field
and the rule, 403/404 for the wrong actor — never a 500."""

import pytest
from rest_framework.authtoken.models import Token

from events.models import Event
from scoring.models import Adjustment, ScoreSheet
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of, play_out, sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def play(session15):
    return play_of(session15, 1, 1)


@pytest.fixture
def event(play):
    return Event.objects.get(pk=play.round.room.session.event_id)


def post(client, url, data, **extra):
    return client.post(url, data, content_type="application/json", **extra)


def sheets_url(event):
    return f"/api/v1/events/{event.pk}/sheets/"


def test_the_director_records_a_sheet(director_client, event, play):
    response = post(
        director_client, sheets_url(event), {"play": play.pk, "deal": 1} | THREE_DIAMONDS
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["outcome"] == "created" and body["version"] == 1 and body["status"] == "confirmed"
    assert body["result"]["scores"] == {"N": 70, "E": 30, "S": 0}
    again = post(director_client, sheets_url(event), {"play": play.pk, "deal": 1} | THREE_DIAMONDS)
    assert again.status_code == 200 and again.json()["outcome"] == "unchanged"


def test_a_bad_sheet_is_a_400_naming_field_and_rule(director_client, event, play):
    bad = {"play": play.pk, "deal": 1} | sheet(trump="clubs", tricks={"N": 7, "E": 2})
    response = post(director_client, sheets_url(event), bad)
    assert response.status_code == 400
    assert response.json() == {
        "trump": ["при «три» козырь — бубны или червы"],
        "tricks": ["взятки должны в сумме давать 10, а дают 9"],
    }
    english = post(director_client, sheets_url(event), bad, HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["trump"] == ["after «three» the trump must be diamonds or hearts"]
    assert not ScoreSheet.objects.exists()


@pytest.mark.parametrize(
    "payload,field",
    [
        ({"deal": 1, "play": None}, "play"),
        ({"play": 0, "deal": 1}, "play"),
        ({"play": "x", "deal": 1}, "play"),
        ({"deal": 9}, "deal"),
        ({"deal": 1, "tricks": "many"}, "tricks"),
        ({"deal": 1, "defenders": ["E"]}, "defenders"),
        ({"deal": 1, "seats": ["N"]}, "seats"),
        ({"deal": 1, "expected_version": "v"}, "expected_version"),
    ],
)
def test_malformed_input_is_a_400_not_a_500(director_client, event, play, payload, field):
    data = {
        k: v for k, v in (THREE_DIAMONDS | {"play": play.pk} | payload).items() if v is not None
    }
    response = post(director_client, sheets_url(event), data)
    assert response.status_code == 400, response.content
    assert field in response.json()


def test_a_deal_of_another_set_cannot_be_reached(director_client, event, session15):
    other = play_of(session15, 2, 3)
    response = post(
        director_client, sheets_url(event), {"play": other.pk, "deal": 1} | THREE_DIAMONDS
    )
    assert response.status_code == 201  # the deal is looked up in the table's own set
    assert ScoreSheet.objects.get().deal.board_set_id == other.board_set_id


def test_three_actors_on_the_write_endpoints(client, other_director, event, play, director):
    done = services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    urls = [
        (sheets_url(event), {"play": play.pk, "deal": 2} | sheet(declarer="E")),
        (f"{sheets_url(event)}{done.sheet.pk}/correct/", sheet(tricks={"N": 8, "E": 2})),
        (f"{sheets_url(event)}{done.sheet.pk}/confirm/", {}),
        (
            f"/api/v1/events/{event.pk}/adjustments/",
            {
                "play": play.pk,
                "entry": entry_at(play, "N").pk,
                "kind": "penalty",
                "penalty": 1,
                "reason": "x",
            },
        ),
        (f"/api/v1/events/{event.pk}/results-public/", {"public": True}),
    ]
    for url, data in urls:
        assert post(client, url, data).status_code in (401, 403), url
    client.force_login(other_director)
    for url, data in urls:
        assert post(client, url, data).status_code == 404, url
    assert ScoreSheet.objects.get().current.number == 1
    assert not Adjustment.objects.exists()
    assert not Event.objects.get(pk=event.pk).results_public


def test_a_token_authenticates_the_director(client, director, event, play):
    token = Token.objects.create(user=director)
    response = client.post(
        sheets_url(event),
        {"play": play.pk, "deal": 1} | THREE_DIAMONDS,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {token.key}",
    )
    assert response.status_code == 201


def test_list_detail_correct_confirm_and_history(director_client, event, play, director):
    from tests.factories import start

    start(play.round)
    done = services.sheet_record(
        play, deal_of(play, 1), THREE_DIAMONDS, by_entry=entry_at(play, "E")
    )
    listed = director_client.get(sheets_url(event), {"play": play.pk}).json()
    assert [s["id"] for s in listed] == [done.sheet.pk] and listed[0]["status"] == "entered"
    detail = director_client.get(f"{sheets_url(event)}{done.sheet.pk}/").json()
    assert detail["deal"] == 1 and detail["table"] == 1
    stale = post(
        director_client,
        f"{sheets_url(event)}{done.sheet.pk}/correct/",
        sheet(tricks={"N": 8, "E": 2}) | {"expected_version": 5},
    )
    assert stale.status_code == 400 and "expected_version" in stale.json()
    corrected = post(
        director_client,
        f"{sheets_url(event)}{done.sheet.pk}/correct/",
        sheet(tricks={"N": 8, "E": 2}) | {"expected_version": 1, "note": "протокол"},
    )
    assert corrected.status_code == 200 and corrected.json()["version"] == 2
    history = director_client.get(f"{sheets_url(event)}{done.sheet.pk}/history/").json()
    assert history["current"] == 2
    assert [v["number"] for v in history["versions"]] == [1, 2]
    assert history["versions"][0]["entered_by"] == {
        "entry": entry_at(play, "E").pk,
        "proof": "seat",
    }
    assert history["versions"][1]["note"] == "протокол"
    confirmed = post(director_client, f"{sheets_url(event)}{done.sheet.pk}/confirm/", {})
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"


def test_another_directors_sheet_is_not_found(other_client, event, play, director):
    done = services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    assert other_client.get(f"{sheets_url(event)}{done.sheet.pk}/").status_code == 404
    assert other_client.get(f"{sheets_url(event)}{done.sheet.pk}/history/").status_code == 404
    assert other_client.get(sheets_url(event)).status_code == 404


def test_plays_list_the_tables_sets_and_deals(director_client, event):
    plays = director_client.get(f"/api/v1/events/{event.pk}/plays/", {"round": 1}).json()
    assert len(plays) == 5
    first = plays[0]
    # The set and its deals named as every page names them (events.boards: one place).
    assert first["set_label"] == str(first["set"])
    assert first["deals"][0] == {
        "number": 1,
        "label": f"{first['set']}.1",
        "active_seats": "NES",
        "first_hand": "N",
    }


def test_the_api_gives_no_rank_before_a_deal_is_scored(director_client, director, event, play):
    """Where the pages say «—», the API says null: a rank everyone without a deal shares
    («1–15») says nothing (standings.Placed, one source)."""
    url = f"/api/v1/events/{event.pk}/standings/?view=director"
    rows = director_client.get(url).json()["standings"]
    assert rows and all(row["rank"] is None and row["deals"] == 0 for row in rows)
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    rows = director_client.get(url).json()["standings"]
    placed = [row for row in rows if row["deals"]]
    assert placed and all(row["rank"] for row in placed)
    assert all(row["rank"] is None for row in rows if not row["deals"])


def test_adjustments_are_created_listed_and_deleted(director_client, event, play):
    url = f"/api/v1/events/{event.pk}/adjustments/"
    north = entry_at(play, "N")
    bad = post(
        director_client,
        url,
        {"play": play.pk, "entry": north.pk, "kind": "artificial", "score": "A+", "reason": "x"},
    )
    assert bad.status_code == 400 and "deal" in bad.json()
    made = post(
        director_client,
        url,
        {
            "play": play.pk,
            "entry": north.pk,
            "kind": "artificial",
            "deal": 1,
            "score": "A+",
            "reason": "x",
        },
    )
    assert made.status_code == 201 and made.json()["score"] == "A+"
    assert len(director_client.get(url).json()) == 1
    gone = director_client.delete(f"{url}{made.json()['id']}/")
    assert gone.status_code == 204 and not Adjustment.objects.exists()


def test_results_are_public_only_once_published(client, other_director, director, event, play):
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    deal = deal_of(play, 1)
    entry = entry_at(play, "N")
    urls = [
        f"/api/v1/events/{event.pk}/standings/",
        f"/api/v1/events/{event.pk}/standings/?session=1",
        f"/api/v1/events/{event.pk}/deals/{deal.pk}/traveller/",
        f"/api/v1/events/{event.pk}/players/{entry.pk}/card/",
    ]
    for url in urls:
        assert client.get(url).status_code in (401, 403), url
    client.force_login(other_director)
    for url in urls:
        assert client.get(url).status_code == 404, url
    client.force_login(director)
    # His own view (?view=director): everything, before publishing too; on the public
    # addresses he reads what the public will (the deal still in play: no traveller).
    for url in urls:
        own = client.get(url + ("&" if "?" in url else "?") + "view=director")
        assert own.status_code == 200, url
        assert "no-store" in own["Cache-Control"], url
    for url in urls:
        assert client.get(url).status_code == (403 if url == urls[2] else 200), url
    assert post(client, f"/api/v1/events/{event.pk}/results-public/", {"public": True}).json() == {
        "public": True,
        "deals": {"shown": 0, "total": 15},  # none played out yet (scoring.standings.disclosure)
    }
    mine = client.get(urls[1] + "&view=director").json()["standings"][0]
    assert mine["deals"] == 1 and mine["total"] == 50.0
    client.logout()
    standing = client.get(urls[1]).json()
    assert standing["by"] == "average" and len(standing["standings"]) == 15
    # The deal is still to be played at the other tables: neither its traveller nor the
    # result on the card, and the public totals count only the deals played out (none).
    assert all(r["deals"] == 0 and r["total"] is None for r in standing["standings"])
    assert client.get(urls[2]).status_code == 403
    early = client.get(urls[3]).json()["deals"][0]
    assert early["in_play"] and early["result"] is None and early["score"] is None
    play_out(play.round.room.session)
    top = client.get(urls[1]).json()["standings"][0]
    assert top["deals"] == 1 and top["total"] == 50.0
    traveller = client.get(urls[2]).json()
    assert traveller["tables"][0]["figures"]["N"]["net"] == 50.0
    card = client.get(urls[3]).json()
    assert card["deals"][0]["score"]["points"] == 70.0
    assert client.get(f"/api/v1/events/{event.pk}/standings/?session=9").status_code == 404


def test_a_card_row_names_its_deal_for_the_traveller(client, director, event, play):
    services.sheet_record(play, deal_of(play, 1), THREE_DIAMONDS, by_user=director)
    play_out(play.round.room.session)
    client.force_login(director)
    post(client, f"/api/v1/events/{event.pk}/results-public/", {"public": True})
    client.logout()
    north = entry_at(play, "N")
    row = client.get(f"/api/v1/events/{event.pk}/players/{north.pk}/card/").json()["deals"][0]
    assert row["deal_id"] == deal_of(play, 1).pk and "pool" not in row  # the Austrian card
    traveller = client.get(f"/api/v1/events/{event.pk}/deals/{row['deal_id']}/traveller/").json()
    assert traveller["deal"] == row["deal"]
    # The Austrian scores stay the numbers they were (a trick is A/10: one decimal at most).
    assert traveller["tables"][0]["result"]["scores"] == {"N": 70, "E": 30, "S": 0}
    assert traveller["tables"][0]["figures"]["N"]["points"] == 70.0
