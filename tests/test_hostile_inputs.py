"""Inputs an attacker (or a broken spreadsheet) sends answer 400 naming the rule, never 500:
odd participant numbers and bytes in a CSV import, JSON nested 100,000 levels deep, and two
requests racing for one participant number."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse

from events import jsondepth, services
from events.models import Entry

pytestmark = pytest.mark.django_db


def _import(client, event, data: bytes):
    url = reverse("director:entries_import", args=[event.pk])
    return client.post(url, {"file": SimpleUploadedFile("p.csv", data)})


@pytest.mark.parametrize("number", ["²", "٣", "99999999999", "0", "-3", "10000", "1.5"], ids=repr)
def test_an_impossible_participant_number_in_a_csv_is_a_problem_of_its_row(
    director_client, event, number
):
    data = f"Фамилия;Имя;Номер\nИванов;Иван;{number}\n".encode()
    response = _import(director_client, event, data)
    assert response.status_code == 400
    check = response.context["check"]
    assert not check.ok
    assert "номер участника" in response.content.decode()
    assert "от 1 до 9999" in response.content.decode()
    assert not event.entries.exists()


def test_a_huge_field_or_a_nul_byte_refuses_the_file_naming_the_line(director_client, event):
    huge = "Фамилия;Имя\nИванов;Иван\nПетров;" + "я" * 200_000 + "\n"
    response = _import(director_client, event, huge.encode())
    assert response.status_code == 400
    body = response.content.decode()
    assert "строке 3" in body and "длиннее" in body
    nul = "Фамилия;Имя\nИванов;Иван\nПет\x00ров;Пётр\n".encode()
    response = _import(director_client, event, nul)
    assert response.status_code == 400
    assert "Строка 3" in response.content.decode() and "NUL" in response.content.decode()
    assert not event.entries.exists()


def test_a_nul_byte_in_a_pasted_list_is_a_problem_of_its_line(director_client, event):
    url = reverse("director:entries_paste", args=[event.pk])
    response = director_client.post(url, {"text": "Иванов Иван\nПет\x00ров Пётр\n"})
    assert response.status_code == 400
    assert not event.entries.exists()


def test_a_participant_number_beyond_the_range_is_a_400_in_the_api(director_client, event):
    url = f"/api/v1/events/{event.pk}/entries/"
    for number in (99999999999, 10000):
        data = {"last_name": "Иванов", "first_name": "Иван", "number": number}
        response = director_client.post(url, data, content_type="application/json")
        assert response.status_code == 400, response.content
        assert "number" in response.json()
    assert not event.entries.exists()


def test_json_nested_100000_deep_is_a_400_naming_the_depth(director_client, event):
    deep = "[" * 100_000 + "]" * 100_000
    for url in (f"/api/v1/events/{event.pk}/sheets/", f"/api/v1/events/{event.pk}/entries/"):
        response = director_client.post(url, deep, content_type="application/json")
        assert response.status_code == 400, (url, response.status_code)
        assert "100000" in response.json()["detail"]


def test_a_scheme_nested_50000_deep_is_refused_on_its_form(director_client):
    deep = "{" + '"a":' * 0 + "[" * 50_000 + "]" * 50_000 + "}"
    response = director_client.post(
        reverse("director:scheme_create"), {"name": "Глубокая", "text": deep}
    )
    assert response.status_code in (200, 400)
    assert "50001" in response.content.decode()


def test_the_depth_is_counted_outside_strings():
    assert jsondepth.depth_of('{"a": "[[[[{{{{", "b": [1, [2]]}') == 3
    assert jsondepth.loads('{"a": "\\"[[["}') == {"a": '"[[['}
    with pytest.raises(jsondepth.TooDeep):
        jsondepth.loads("[" * 40 + "]" * 40)


@pytest.mark.django_db(transaction=True)
def test_players_racing_for_one_number_get_one_entry_and_clear_errors(event):
    threads_n = 8 if connection.vendor == "sqlite" else 20  # SQLite queues its writes
    outcomes = []
    barrier = threading.Barrier(threads_n)

    def enter(i):
        from django.db import connections

        try:
            barrier.wait()
            services.entry_create(event, last_name=f"Игроков{i}", first_name="Игорь", number=7)
            outcomes.append("saved")
        except ValidationError as error:
            outcomes.append("refused" if "number" in error.message_dict else repr(error))
        except Exception as error:  # anything else would be a 500
            outcomes.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=enter, args=(i,)) for i in range(threads_n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(set(outcomes)) == ["refused", "saved"], outcomes
    assert outcomes.count("saved") == 1
    assert Entry.objects.filter(event=event, number=7).count() == 1
