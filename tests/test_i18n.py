"""Russian by default, English on request; every Russian string translated and compiled."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"

pytestmark = pytest.mark.django_db


def test_pages_are_russian_by_default(director_client):
    body = director_client.get(reverse("director:event_list")).content.decode()
    assert '<html lang="ru">' in body
    assert "Мои турниры" in body and "Новый турнир" in body


def test_the_user_switches_to_english_and_back(director_client):
    response = director_client.post("/i18n/setlang/", {"language": "en", "next": "/director/"})
    assert response.status_code == 302
    body = director_client.get(reverse("director:event_list")).content.decode()
    assert '<html lang="en">' in body and "My events" in body and "Мои турниры" not in body
    director_client.post("/i18n/setlang/", {"language": "ru", "next": "/director/"})
    assert "Мои турниры" in director_client.get(reverse("director:event_list")).content.decode()


def test_errors_come_in_the_users_language(director_client, event):
    url = reverse("director:entry_add", args=[event.pk])
    ru = director_client.post(url, {"last_name": "  ", "first_name": "Иван"}).content.decode()
    assert "Обязательное поле." in ru and 'id="id_last_name"' in ru
    director_client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    en = director_client.post(url, {"last_name": "  ", "first_name": "Иван"}).content.decode()
    assert "This field is required." in en


def test_the_api_answers_in_the_language_asked_for(director_client, event):
    url = f"/api/v1/events/{event.pk}/entries/"
    data = {"last_name": "Иванов", "first_name": "x", "number": 0}
    ru = director_client.post(url, data, content_type="application/json")
    en = director_client.post(url, data, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert ru.status_code == en.status_code == 400
    assert ru.json()["number"] == ["Убедитесь, что это значение больше либо равно 1."]
    assert en.json()["number"] == ["Ensure this value is greater than or equal to 1."]


def _entries(po_text: str):
    for block in po_text.split("\n\n"):
        if "msgid " not in block or 'msgid ""\nmsgstr ""\n"Project' in block:
            continue
        yield block


def test_every_russian_message_is_translated_and_not_fuzzy():
    text = PO.read_text()
    problems = []
    for block in _entries(text):
        if block.startswith("#~"):
            continue
        msgid = re.search(r'^msgid (".*"(?:\n".*")*)', block, re.M).group(1)
        if msgid == '""':
            continue
        if "#, fuzzy" in block or re.search(r'^msgstr(\[\d\])? ""$(?!\n")', block, re.M):
            problems.append(msgid)
    assert problems == []


def test_the_compiled_catalogue_matches_the_po_file(tmp_path):
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "gettext's msgfmt is needed (apt-get install gettext); .ci/run installs it"
    out = tmp_path / "django.mo"
    subprocess.run([msgfmt, "--check-format", "-o", str(out), str(PO)], check=True)
    assert out.read_bytes() == PO.with_suffix(".mo").read_bytes(), "run `make messages`"
