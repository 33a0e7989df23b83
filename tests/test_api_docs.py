"""The API's schema says how to get a token and speaks one language (issue 33): drawn in
the reader's language, it mixed Russian titles (the models' names) with English
descriptions (the code's own); it is English whatever the reader's language."""

import json

import pytest

pytestmark = pytest.mark.django_db


def _schema(client, language: str) -> dict:
    answer = client.get("/api/schema/", {"format": "json"}, HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    return json.loads(answer.content)


def test_the_schema_says_how_to_get_a_token(client):
    description = _schema(client, "ru")["info"]["description"]
    assert "drf_create_token" in description and "Authorization: Token" in description


def test_the_schema_is_one_language_whatever_the_readers(client):
    russian, english = _schema(client, "ru"), _schema(client, "en")
    assert russian == english
    text = json.dumps(russian, ensure_ascii=False)
    for title in ("Фамилия", "фамилия", "Дата", "Название"):
        assert title not in text
