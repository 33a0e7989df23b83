"""Names cannot spoof the pages (issue 32, «fair by design»): the bidi controls and the
invisible characters are taken out of every name whatever door it comes by — the director's
forms, the paste, the CSV import, the API, the register — a name of nothing else is refused
on its field, and a name stored some other way is shown isolated, in ``<bdi>``."""

import importlib

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.template import Context, Template
from django.urls import reverse
from rest_framework.test import APIClient

from events import names, services
from events.models import Entry, Event, Person, PersonAlias
from events.register.matching import name_key
from scoring.sheets import services as scoring_services
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of, play_out

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("en")]

migration = importlib.import_module("events.migrations.0013_names_cleaned")

RLO, LRI, PDI, RLI = "\u202e", "\u2066", "\u2069", "\u2067"
#: A last name as a spoofer types it: reversed from the middle, an isolate left open.
SPOOFED_LAST = f"Ива{RLO}нов{LRI}"
SPOOFED_FIRST = f"{RLI}Иван\u200b{PDI}"
SPOOFED_CLUB = f" \ufeffЦДШ{RLO} "
#: Nothing but controls: empty once cleaned.
INVISIBLE_ONLY = f"{RLO}{LRI}\u200b"

CLEAN = ("Иванов", "Иван", "ЦДШ")


@pytest.fixture
def api(director):
    client = APIClient()
    client.force_authenticate(director)
    return client


def _raw_update(model, pk, **fields):
    """Past every door, the ORM's too (a name field cleans what the ORM writes): as an old
    row, another program or a hand in the database could have left it."""
    table = connection.ops.quote_name(model._meta.db_table)
    sets = ", ".join(f"{connection.ops.quote_name(name)} = %s" for name in fields)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET {sets} WHERE id = %s", [*fields.values(), pk])


def _stored(event) -> tuple[str, str, str]:
    entry = event.entries.get()
    return entry.last_name, entry.first_name, entry.club


# --- the one function --------------------------------------------------------------------


@pytest.mark.parametrize(
    "char",
    [
        *map(chr, range(0x202A, 0x202F)),
        *map(chr, range(0x2066, 0x206A)),
        "\u200e",
        "\u200f",
        "\u061c",
        *map(chr, range(0x200B, 0x200E)),
        "\u2060",
        "\ufeff",
    ],
)
def test_it_takes_out_each_bidi_control_and_invisible_character(char):
    assert names.clean_name(f" {char}Иванов{char} Иван{char} ") == "Иванов Иван"


def test_it_keeps_letters_of_every_script_and_trims():
    assert names.clean_name("  Коэн כהן  ") == "Коэн כהן"
    assert names.clean_name(None) == "" and names.clean_name(INVISIBLE_ONLY) == ""


# --- every door stores the name without them ------------------------------------------------


def test_the_directors_add_and_edit_forms_store_the_name_without_them(director_client, event):
    data = {"last_name": SPOOFED_LAST, "first_name": SPOOFED_FIRST, "club": SPOOFED_CLUB}
    response = director_client.post(reverse("director:entry_add", args=[event.pk]), data)
    assert response.status_code == 302, response.context["form"].errors
    assert _stored(event) == CLEAN
    entry = event.entries.get()
    data["last_name"] = f"Петров{RLO}"
    url = reverse("director:entry_edit", args=[event.pk, entry.pk])
    assert director_client.post(url, data).status_code == 302
    assert _stored(event) == ("Петров", "Иван", "ЦДШ")


def test_the_paste_stores_the_names_without_them(director_client, event):
    text = f"{SPOOFED_LAST} {SPOOFED_FIRST}; {SPOOFED_CLUB}\n"
    response = director_client.post(
        reverse("director:entries_paste", args=[event.pk]), {"text": text}
    )
    assert response.status_code == 302
    assert _stored(event) == CLEAN


def test_the_csv_import_stores_the_names_without_them(director_client, event):
    data = f"Фамилия;Имя;Клуб\n{SPOOFED_LAST};{SPOOFED_FIRST};{SPOOFED_CLUB}\n".encode()
    url = reverse("director:entries_import", args=[event.pk])
    response = director_client.post(url, {"file": SimpleUploadedFile("p.csv", data)})
    assert response.status_code == 200 and response.context["check"].ok
    # The preview shows the rows as they will be stored (the file itself travels back raw).
    assert 'dir="auto">Иванов</td>' in response.content.decode()
    confirm = response.context["confirm"]
    response = director_client.post(
        reverse("director:entries_import_confirm", args=[event.pk]),
        {"text": confirm.initial["text"], "source": "csv"},
    )
    assert response.status_code == 302
    assert _stored(event) == CLEAN


def test_the_api_entries_endpoint_stores_the_name_without_them(api, event):
    url = f"/api/v1/events/{event.pk}/entries/"
    body = {"last_name": SPOOFED_LAST, "first_name": SPOOFED_FIRST, "club": SPOOFED_CLUB}
    response = api.post(url, body, format="json")
    assert response.status_code == 201, response.content
    assert (response.json()["last_name"], response.json()["club"]) == ("Иванов", "ЦДШ")
    assert _stored(event) == CLEAN
    entry = event.entries.get()
    response = api.patch(f"{url}{entry.pk}/", {"club": f"{LRI}Тула{PDI}"}, format="json")
    assert response.status_code == 200 and Entry.objects.get(pk=entry.pk).club == "Тула"


def test_the_api_paste_stores_the_names_without_them(api, event):
    text = f"{SPOOFED_LAST} {SPOOFED_FIRST}; {SPOOFED_CLUB}\n"
    response = api.post(f"/api/v1/events/{event.pk}/entries/paste/", {"text": text}, format="json")
    assert response.status_code == 201, response.content
    assert _stored(event) == CLEAN


def test_the_api_import_stores_the_names_without_them(api, event):
    data = f"Фамилия;Имя;Клуб\n{SPOOFED_LAST};{SPOOFED_FIRST};{SPOOFED_CLUB}\n".encode()
    response = api.post(
        f"/api/v1/events/{event.pk}/entries/import/",
        {"file": SimpleUploadedFile("p.csv", data)},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    assert _stored(event) == CLEAN


def test_the_register_page_and_api_store_the_names_without_them(director, director_client, api):
    person = Person.objects.create(owner=director, last_name="Семёнов", first_name="Пётр")
    data = {"last_name": SPOOFED_LAST, "first_name": SPOOFED_FIRST, "club": SPOOFED_CLUB}
    response = director_client.post(reverse("director:person_edit", args=[person.pk]), data)
    assert response.status_code == 302
    person.refresh_from_db()
    assert (person.last_name, person.first_name, person.club) == CLEAN
    assert person.key == name_key("Иванов", "Иван")
    body = {"last_name": f"Петров{RLO}", "first_name": f"{LRI}Пётр", "patronymic": "\u200e"}
    response = api.post("/api/v1/register/persons/", body, format="json")
    assert response.status_code == 201, response.content
    made = Person.objects.get(pk=response.json()["id"])
    assert (made.last_name, made.first_name, made.patronymic) == ("Петров", "Пётр", "")
    assert PersonAlias.objects.filter(person=made, last_name="Петров").exists()


def test_the_event_form_and_api_store_its_name_without_them(director_client, director, api):
    data = {
        "name": f"Кубок{RLO} 2026",
        "date": "2026-12-05",
        "venue": f"{LRI}ЦДШ",
        "minutes_per_deal": 5,
        "scoring_method": "matchpoints",
        "pot_rule": "fixed",
        "stake": 100,
        "suit_order": "spades-clubs-diamonds-hearts",
        "average_plus": 60,
        "average": 50,
        "average_minus": 40,
        "game": "austrian",
    }
    response = director_client.post(reverse("director:event_create"), data)
    assert response.status_code == 302, response.context["form"].errors
    assert Event.objects.filter(name="Кубок 2026", venue="ЦДШ").exists()
    body = {"name": f"\u200fЛето{PDI}", "date": "2026-06-01"}
    response = api.post("/api/v1/events/", body, format="json")
    assert response.status_code == 201, response.content
    assert Event.objects.get(pk=response.json()["id"]).name == "Лето"


def test_a_name_saved_by_a_script_is_stored_without_them_too(event):
    """The model's name fields clean what the ORM writes: ``objects.create``,
    ``bulk_create`` and ``update`` included."""
    one = Entry.objects.create(event=event, last_name=SPOOFED_LAST, first_name=SPOOFED_FIRST)
    (two,) = Entry.objects.bulk_create(
        [Entry(event=event, last_name=f"{RLO}Петров", first_name="Пётр", club=f"\ufeffЦДШ{RLO}")]
    )
    stored = Entry.objects.filter(pk__in=[one.pk, two.pk]).order_by("pk")
    assert [(e.last_name, e.club) for e in stored] == [("Иванов", ""), ("Петров", "ЦДШ")]
    Entry.objects.filter(pk=one.pk).update(club=f"{RLO}Тула")
    assert Entry.objects.get(pk=one.pk).club == "Тула"


def test_the_register_matches_a_name_typed_with_them(director):
    assert name_key(SPOOFED_LAST, SPOOFED_FIRST) == name_key("Иванов", "Иван")


# --- a name of nothing else is refused on its field ------------------------------------------


def test_the_form_refuses_a_name_of_controls_only_on_its_field(director_client, event):
    data = {"last_name": INVISIBLE_ONLY, "first_name": "Иван"}
    response = director_client.post(reverse("director:entry_add", args=[event.pk]), data)
    assert response.status_code == 400  # refused on its field, what was typed kept
    assert response.context["form"].errors["last_name"]
    assert not event.entries.exists()


def test_the_api_refuses_a_name_of_controls_only_on_its_field(api, event, director):
    url = f"/api/v1/events/{event.pk}/entries/"
    response = api.post(url, {"last_name": "Иванов", "first_name": INVISIBLE_ONLY}, format="json")
    assert response.status_code == 400 and "first_name" in response.json()
    assert not event.entries.exists()
    response = api.post(
        "/api/v1/register/persons/",
        {"last_name": INVISIBLE_ONLY, "first_name": "Иван"},
        format="json",
    )
    assert response.status_code == 400 and "last_name" in response.json()
    assert not Person.objects.filter(owner=director).exists()
    response = api.post("/api/v1/events/", {"name": INVISIBLE_ONLY, "date": "2026-06-01"})
    assert response.status_code == 400 and "name" in response.json()


def test_the_paste_and_the_import_name_the_empty_field_of_the_row(api, event):
    url = f"/api/v1/events/{event.pk}/entries/paste/"
    response = api.post(url, {"text": f"Иванов Иван\n{RLO}\u200b {INVISIBLE_ONLY}\n"})
    assert response.status_code == 201  # a line of controls only is an empty line
    data = f"Фамилия;Имя\nПетров;{INVISIBLE_ONLY}\n".encode()
    response = api.post(
        f"/api/v1/events/{event.pk}/entries/import/",
        {"file": SimpleUploadedFile("p.csv", data)},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json()["rows"][0]["problems"] == ["first name is empty"]
    assert list(event.entries.values_list("last_name", flat=True)) == ["Иванов"]


def test_the_service_refuses_it_on_its_field_whoever_calls_it(event):
    with pytest.raises(ValidationError) as refused:
        services.entry_create(event, last_name=INVISIBLE_ONLY, first_name="Иван")
    assert "last_name" in refused.value.error_dict
    assert not event.entries.exists()


# --- shown isolated ------------------------------------------------------------------------


def test_a_name_stored_raw_is_shown_isolated_on_the_public_standings(client, session15, director):
    play = play_of(session15, 1, 1)
    for number in (1, 2, 3):
        scoring_services.sheet_record(play, deal_of(play, number), THREE_DIAMONDS, by_user=director)
    play_out(session15)
    north = entry_at(play, "N")
    _raw_update(Entry, north.pk, last_name=f"{RLO}Коэн", first_name="כהן", club=f"{LRI}Х")
    assert Entry.objects.get(pk=north.pk).last_name == f"{RLO}Коэн"
    Event.objects.filter(pk=session15.event_id).update(results_public=True)
    slug = session15.event.slug
    for url in (reverse("public:event", args=[slug]), reverse("public:session", args=[slug, 1])):
        page = client.get(url).content.decode()
        # The link holding the name alone is itself the isolate; so is the clubs' line.
        assert (
            f'<a href="{reverse("public:card", args=[slug, north.number])}" dir="auto">Коэн כהן</a>'
            in page
        ), url
        assert '<small class="club" dir="auto">Х</small>' in page, url
        assert RLO not in page and LRI not in page, url


def test_the_filter_escapes_and_shows_no_empty_isolate():
    template = Template("{% load names %}[{{ a|bdi }}][{{ b|bdi }}][{{ a|clean_name }}]")
    shown = template.render(Context({"a": f"<b>{RLO}Ива&нов</b>", "b": INVISIBLE_ONLY}))
    assert shown == (
        "[<bdi>&lt;b&gt;Ива&amp;нов&lt;/b&gt;</bdi>][][&lt;b&gt;Ива&amp;нов&lt;/b&gt;]"
    )


# --- names stored before -------------------------------------------------------------------


def test_the_migration_cleans_the_names_already_stored(event, director):
    entry = services.entry_create(event, last_name="Иванов", first_name="Иван")
    person = Person.objects.create(owner=director, last_name="Семёнов", first_name="Пётр")
    PersonAlias.objects.create(person=person, last_name="Семёнов", first_name="Пётр")
    twin = PersonAlias.objects.create(person=person, last_name="Семёнов", first_name="Иван")
    _raw_update(
        Entry, entry.pk, last_name=SPOOFED_LAST, first_name=INVISIBLE_ONLY, club=SPOOFED_CLUB
    )
    _raw_update(Event, event.pk, name=f"{RLO}Кубок")
    _raw_update(Person, person.pk, last_name=f"Семёнов{RLO}", key="stale")
    _raw_update(PersonAlias, twin.pk, first_name=f"Пётр{LRI}")
    migration.clean_names(apps, None)
    entry.refresh_from_db()
    assert (entry.last_name, entry.first_name, entry.club) == ("Иванов", "?", "ЦДШ")
    assert Event.objects.get(pk=event.pk).name == "Кубок"
    person.refresh_from_db()
    assert person.last_name == "Семёнов" and person.key == name_key("Семёнов", "Пётр")
    # The spelling that became the same as another is kept once.
    assert list(person.aliases.values_list("last_name", "first_name")) == [("Семёнов", "Пётр")]
