"""The import's button counts the players in Russian (issue 21, finding 14): «Добавить в
турнир: 33 игрока», not «Добавить 33 игроков»."""

import io

import pytest
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("count", "words"),
    [
        (1, "1 игрок"),
        (2, "2 игрока"),
        (4, "4 игрока"),
        (5, "5 игроков"),
        (11, "11 игроков"),
        (12, "12 игроков"),
        (21, "21 игрок"),
        (22, "22 игрока"),
        (33, "33 игрока"),
        (111, "111 игроков"),
    ],
)
def test_the_import_button_counts_players_in_russian(count, words):
    """«Добавить кого» would want «двух игроков» but «двадцать два игрока»: the count stands
    after a colon, in the nominative every plural form gets right."""
    with translation.override("ru"):
        text = translation.ngettext("Add %(counter)s player", "Add %(counter)s players", count)
    assert text % {"counter": count} == f"Добавить в турнир: {words}"


def test_the_preview_of_33_players_offers_to_add_33_players(director_client, event):
    rows = "\n".join(f"Игроков{n};Иван;Клуб" for n in range(1, 34))
    upload = io.BytesIO(f"Фамилия;Имя;Клуб\n{rows}\n".encode())
    upload.name = "players.csv"
    url = reverse("director:entries_import", args=[event.pk])
    ru = director_client.post(url, {"file": upload}).content.decode()
    assert "Добавить в турнир: 33 игрока" in ru and "33 игроков" not in ru
    upload.seek(0)
    en = director_client.post(url, {"file": upload}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Add 33 players" in en
