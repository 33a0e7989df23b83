"""A passed-out deal's settlement says that nobody plays it and everyone scores 0, not «На
кону A = 0» (issue 21, finding 14)."""

import pytest
from django.urls import reverse

from tests.factories import play_of

pytestmark = pytest.mark.django_db


def test_a_passed_out_deal_says_nobody_plays_it(director_client, session15):
    play = play_of(session15, 1, 1)
    url = reverse("director:sheet_form", args=[session15.event.pk, play.pk, 2])
    passed = director_client.post(url, {"contract": "passed", "check": "1"}).content.decode()
    assert 'id="settlement"' in passed
    assert "Все спасовали: сдача не разыгрывается, у всех по 0." in passed
    assert "На кону" not in passed
    english = director_client.post(
        url, {"contract": "passed", "check": "1"}, HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "All passed: the deal is not played, every player scores 0." in english
    played = director_client.post(
        url, {"declarer": "N", "contract": "three", "trump": "diamonds", "defence_E": "whist",
              "defence_S": "pass", "tricks_N": "7", "tricks_E": "3", "check": "1"},
    ).content.decode()  # fmt: skip
    assert "На кону A = 100." in played and "Все спасовали" not in played
