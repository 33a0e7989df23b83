"""The API answers a request without credentials 401 with «WWW-Authenticate: Token», as the
docs/api.md and the schema say (issue 21, finding 14); credentials that may not are 403 (no CSRF
token) or 404 (not his event)."""

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


def test_the_api_answers_no_credentials_with_401_and_how_to_give_them(client, event):
    for url in (
        "/api/v1/events/",
        f"/api/v1/events/{event.pk}/",
        f"/api/v1/events/{event.pk}/entries/",
    ):
        answer = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert answer.status_code == 401, url
        assert answer["WWW-Authenticate"] == "Token"
        assert answer.json() == {"detail": "Authentication credentials were not provided."}
    wrong = client.get("/api/v1/events/", HTTP_AUTHORIZATION="Token not-a-token")
    assert wrong.status_code == 401 and wrong["WWW-Authenticate"] == "Token"


def test_credentials_that_may_not_are_403_or_404_and_good_ones_pass(
    director, other_director, event
):
    mine = Token.objects.create(user=director)
    theirs = Token.objects.create(user=other_director)
    url = f"/api/v1/events/{event.pk}/"
    assert Client().get(url, HTTP_AUTHORIZATION=f"Token {mine.key}").status_code == 200
    assert Client().get(url, HTTP_AUTHORIZATION=f"Token {theirs.key}").status_code == 404
    session = Client(enforce_csrf_checks=True)
    session.force_login(director)
    assert session.get(url).status_code == 200
    refused = session.patch(url, {"name": "x"}, content_type="application/json")
    assert refused.status_code == 403  # a session without its CSRF token
    assert "CSRF" in refused.json()["detail"]
