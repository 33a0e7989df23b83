"""Two directors on the adjustments at once (issue 34): a score or penalty given, or deleted,
from a page drawn before another director's change is refused with what changed — who,
when, old → new — what was typed stays, and nothing is overwritten; the API the same with
an optional ``expected`` (409), and as before without it."""

import re

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import Adjustment
from scoring.sheets import adjustment_tokens, services
from tests.factories import entry_at

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="expected" value="([^"]*)"')


def _token(response) -> str:
    """The token of the page's first form: the one that gives (the table's or the whole
    table's form, drawn first)."""
    found = TOKEN.findall(response.content.decode())
    assert found, "the page carries what it was drawn from"
    return found[0]


def _penalty(play, position, token, reason="опоздание"):
    return {
        "kind": "penalty",
        "entry": entry_at(play, position).pk,
        "deal": "",
        "penalty": "2",
        "reason": reason,
        "expected": token,
    }


def test_a_penalty_from_a_page_drawn_before_anothers_is_refused_saying_what_changed(
    team_world,
):
    event, play = team_world["event"], team_world["play"][1]
    chief, deputy = team_world["clients"]["chief"], team_world["clients"]["director"]
    page = reverse("director:play", args=[event.pk, play.pk])
    add = reverse("director:adjustment_add", args=[event.pk, play.pk])
    seen_by_chief = _token(chief.get(page))
    seen_by_deputy = _token(deputy.get(page))
    assert seen_by_chief == seen_by_deputy == str(team_world["adjustment"][1].pk)

    assert deputy.post(add, _penalty(play, "N", seen_by_deputy)).status_code == 302
    before = Adjustment.objects.filter(play=play).count()

    refused = chief.post(add, _penalty(play, "S", seen_by_chief, reason="мобильный"))
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "Изменено за это время" in text and "deputy" in text
    assert entry_at(play, "N").full_name in text and "— → −2" in text
    assert "мобильный" in text  # what he typed stays
    assert Adjustment.objects.filter(play=play).count() == before  # nothing saved
    # The form is drawn again from the state of now: sent again, it is saved.
    fresh = _token(refused)
    assert fresh == adjustment_tokens.play_token(play) != seen_by_chief
    again = chief.post(add, _penalty(play, "S", fresh, reason="мобильный"))
    assert again.status_code == 302
    assert Adjustment.objects.filter(play=play).count() == before + 1


def test_a_change_at_another_table_does_not_refuse(team_world):
    event, play = team_world["event"], team_world["play"][1]
    chief = team_world["clients"]["chief"]
    seen = _token(chief.get(reverse("director:play", args=[event.pk, play.pk])))
    services.adjustment_create(
        team_world["play"][2],
        entry=entry_at(team_world["play"][2], "N"),
        kind="penalty",
        by_user=team_world["users"]["director"],
        penalty="1",
        reason="другой стол",
    )
    add = reverse("director:adjustment_add", args=[event.pk, play.pk])
    assert chief.post(add, _penalty(play, "N", seen)).status_code == 302


def test_a_deletion_meanwhile_refuses_and_a_second_delete_says_by_whom(team_world):
    event, play = team_world["event"], team_world["play"][1]
    chief, deputy = team_world["clients"]["chief"], team_world["clients"]["director"]
    first = team_world["adjustment"][1]
    page = reverse("director:play", args=[event.pk, play.pk])
    seen = _token(chief.get(page))
    _token(deputy.get(page))
    delete = reverse("director:adjustment_delete", args=[event.pk, first.pk])
    assert deputy.post(delete, {"back": "play", "expected": seen}).status_code == 302
    assert not Adjustment.objects.filter(pk=first.pk).exists()

    # The chief, on his old page, gives a penalty: refused, the deletion named (old → new).
    add = reverse("director:adjustment_add", args=[event.pk, play.pk])
    refused = chief.post(add, _penalty(play, "N", seen), HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400
    assert "deputy" in refused.content.decode() and "−1.50 → —" in refused.content.decode()
    assert not Adjustment.objects.filter(play=play).exists()

    # And deletes the same one again: told who deleted it, no 404, no second log line.
    again = chief.post(delete, {"back": "play", "expected": seen}, follow=True)
    assert again.status_code == 200
    assert "удалено за это время" in again.content.decode() and "deputy" in again.content.decode()
    assert event.action_log.filter(kind="penalty.set", before__adjustment=first.pk).count() == 1


def test_a_delete_from_an_outdated_page_is_refused(team_world):
    event, play = team_world["event"], team_world["play"][1]
    chief = team_world["clients"]["chief"]
    seen = adjustment_tokens.play_token(play)
    page = chief.get(reverse("director:adjustments", args=[event.pk])).content.decode()
    assert f'name="expected" value="{seen}"' in page  # the row's own table-round
    services.adjustment_create(
        play,
        entry=entry_at(play, "N"),
        kind="artificial",
        deal=play.board_set.deals.order_by("number").first(),
        score="A+",
        by_user=team_world["users"]["director"],
        reason="ошибка раздачи",
    )
    first = team_world["adjustment"][1]
    delete = reverse("director:adjustment_delete", args=[event.pk, first.pk])
    refused = chief.post(delete, {"expected": seen}, follow=True)
    assert "Изменено за это время" in refused.content.decode()
    assert "— → A+" in refused.content.decode()
    assert Adjustment.objects.filter(pk=first.pk).exists()


def test_whole_table_scores_from_an_outdated_page_are_refused_and_kept(team_world):
    event, play = team_world["event"], team_world["play"][1]
    chief = team_world["clients"]["chief"]
    page = reverse("director:adjustments", args=[event.pk])
    seen = _token(chief.get(page))
    services.adjustment_delete(team_world["adjustment"][1], by_user=team_world["users"]["director"])
    form = {
        "round": play.round_id,
        "table": play.table.number,
        "deal": "",
        "score": "A",
        "reason": "стол не сыграл",
        "expected": seen,
    }
    refused = chief.post(reverse("director:adjustments_table", args=[event.pk]), form)
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "Изменено за это время" in text and "стол не сыграл" in text
    assert not Adjustment.objects.filter(play=play).exists()
    form["expected"] = _token(refused)
    done = chief.post(reverse("director:adjustments_table", args=[event.pk]), form)
    assert done.status_code == 302
    assert Adjustment.objects.filter(play=play, kind="artificial").exists()


# --- the API ------------------------------------------------------------------------------


def _api(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def test_the_api_refuses_an_outdated_expected_with_409_and_works_without_it(team_world):
    event, play = team_world["event"], team_world["play"][1]
    chief, deputy = _api(team_world["users"]["chief"]), _api(team_world["users"]["director"])
    url = f"/api/v1/events/{event.pk}/adjustments/"
    seen = [team_world["adjustment"][1].pk]
    body = {
        "play": play.pk,
        "entry": entry_at(play, "N").pk,
        "kind": "penalty",
        "penalty": "1",
        "reason": "x",
    }
    made = deputy.post(url, body | {"expected": seen}, format="json")
    assert made.status_code == 201, made.json()
    stale = chief.post(
        url,
        body | {"entry": entry_at(play, "S").pk, "expected": seen},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert stale.status_code == 409
    assert "Changed meanwhile" in stale.json()["detail"] and "deputy" in stale.json()["detail"]
    assert Adjustment.objects.filter(play=play).count() == 2
    fresh = sorted([*seen, made.json()["id"]])
    assert (
        chief.post(
            url, body | {"entry": entry_at(play, "S").pk, "expected": fresh}, format="json"
        ).status_code
        == 201
    )
    # Without «expected»: as before, not compared.
    assert (
        chief.post(url, body | {"entry": entry_at(play, "W").pk}, format="json").status_code == 201
    )
    # Whole-table scores and a deletion the same.
    table = chief.post(
        f"{url}table/",
        {"play": play.pk, "score": "A", "reason": "x", "expected": seen},
        format="json",
    )
    assert table.status_code == 409 and "detail" in table.json()
    gone = chief.delete(f"{url}{made.json()['id']}/?expected={seen[0]}")
    assert gone.status_code == 409
    assert Adjustment.objects.filter(pk=made.json()["id"]).exists()
    token = adjustment_tokens.play_token(play)
    assert chief.delete(f"{url}{made.json()['id']}/?expected={token}").status_code == 204
    bad = chief.delete(f"{url}{seen[0]}/?expected=abc")
    assert bad.status_code == 400 and "expected" in bad.json()
