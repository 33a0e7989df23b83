"""The director's pages for three actors: the owner, another director, an anonymous phone."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events import services
from events.models import Entry, Event

pytestmark = pytest.mark.django_db

CSV_1251 = (
    "Фамилия;Имя;Клуб\n" + "".join(f"Игроков{i};Игорь;Клуб {i % 3}\n" for i in range(30))
).encode("cp1251")


def _pages(event, entry):
    return [
        reverse("director:event_detail", args=[event.pk]),
        reverse("director:event_edit", args=[event.pk]),
        reverse("director:entry_add", args=[event.pk]),
        reverse("director:entries_paste", args=[event.pk]),
        reverse("director:entries_import", args=[event.pk]),
        reverse("director:entry_edit", args=[event.pk, entry.pk]),
        reverse("director:draw_list", args=[event.pk]),
        reverse("director:room_list", args=[event.pk]),
    ]


def _posts(event, entry):
    return [
        (reverse("director:event_edit", args=[event.pk]), {"name": "Взлом"}),
        (reverse("director:entry_add", args=[event.pk]), {"last_name": "X", "first_name": "Y"}),
        (reverse("director:entries_paste", args=[event.pk]), {"text": "Хакер Хак"}),
        (reverse("director:entry_withdraw", args=[event.pk, entry.pk]), {}),
        (reverse("director:entry_reinstate", args=[event.pk, entry.pk]), {}),
        (
            reverse("director:entry_edit", args=[event.pk, entry.pk]),
            {"last_name": "Z", "first_name": "Z"},
        ),
        (reverse("director:draw", args=[event.pk]), {"seed": "x"}),
        (
            reverse("director:entries_import_confirm", args=[event.pk]),
            {"text": "Фамилия;Имя\nА;Б\n", "source": "csv"},
        ),
    ]


@pytest.fixture
def entry(event):
    return services.entry_create(event, last_name="Иванов", first_name="Иван", number=1)


def test_the_owner_opens_every_page_of_his_event(director_client, event, entry):
    for url in _pages(event, entry) + [
        reverse("director:event_list"),
        reverse("director:event_create"),
    ]:
        response = director_client.get(url)
        assert response.status_code == 200, url
        assert b'name="viewport"' in response.content


def test_another_director_gets_404_for_every_page_and_changes_nothing(other_client, event, entry):
    for url in _pages(event, entry):
        assert other_client.get(url).status_code == 404, url
    for url, data in _posts(event, entry):
        assert other_client.post(url, data).status_code == 404, url
    event.refresh_from_db()
    entry.refresh_from_db()
    assert event.name == "Кубок Москвы"
    assert (entry.last_name, entry.status, entry.number) == ("Иванов", "active", 1)
    assert event.entries.count() == 1 and not event.draws.exists()


def test_an_anonymous_visitor_is_sent_to_the_login_page(client, event, entry):
    for url in _pages(event, entry) + [reverse("director:event_list")]:
        response = client.get(url)
        assert response.status_code == 302 and "/director/login/" in response["Location"], url
    for url, data in _posts(event, entry):
        response = client.post(url, data)
        assert response.status_code == 302 and "/director/login/" in response["Location"], url
    assert event.entries.count() == 1


def test_the_event_list_shows_only_the_directors_own_events(director_client, event, other_event):
    body = director_client.get(reverse("director:event_list")).content.decode()
    assert "Кубок Москвы" in body and "Чужой турнир" not in body


def test_a_director_logs_in_and_out(client, director):
    response = client.post(
        reverse("director:login"), {"username": "judge", "password": "s3cret-pass-1"}
    )
    assert response.status_code == 302
    assert client.get(reverse("director:event_list")).status_code == 200
    client.post(reverse("director:logout"))
    assert client.get(reverse("director:event_list")).status_code == 302


def test_a_wrong_password_is_refused_in_russian(client, director):
    response = client.post(reverse("director:login"), {"username": "judge", "password": "nope"})
    assert response.status_code == 200
    assert "Пожалуйста, введите правильные имя пользователя и пароль" in response.content.decode()


def test_creating_an_event_through_the_form(director_client, director):
    response = director_client.post(
        reverse("director:event_create"),
        {
            "name": "Осенний кубок",
            "date": "2026-12-12",
            "venue": "Клуб",
            "minutes_per_deal": 6,
            "scoring_method": "matchpoints",
            "pot_rule": "fixed",
            "stake": 100,
            "suit_order": "spades-clubs-diamonds-hearts",
            "average_plus": 60,
            "average": 50,
            "average_minus": 40,
        },
    )
    event = Event.objects.get(name="Осенний кубок")
    assert response.status_code == 302 and response["Location"] == event.get_absolute_url()
    assert (event.owner, event.minutes_per_deal) == (director, 6)


def test_a_bad_event_form_keeps_what_was_typed_and_names_the_fields(director_client):
    response = director_client.post(
        reverse("director:event_create"),
        {
            "name": "   ",
            "date": "31.02.2026",
            "venue": "Где-то далеко",
            "minutes_per_deal": 0,
            "scoring_method": "matchpoints",
            "pot_rule": "fixed",
            "stake": 100,
            "suit_order": "spades-clubs-diamonds-hearts",
            "average_plus": 60,
            "average": 50,
            "average_minus": 40,
        },
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert set(form.errors) >= {"name", "date", "minutes_per_deal"}
    body = response.content.decode()
    assert "Где-то далеко" in body and "31.02.2026" in body
    assert "Введите правильную дату" in body
    assert not Event.objects.exists()


def test_an_over_long_name_is_refused(director_client, event):
    url = reverse("director:entry_add", args=[event.pk])
    response = director_client.post(url, {"last_name": "Я" * 101, "first_name": "Иван"})
    assert response.status_code == 400
    assert "last_name" in response.context["form"].errors
    assert not event.entries.exists()


def test_a_duplicate_number_is_refused_and_the_form_keeps_the_input(director_client, event, entry):
    url = reverse("director:entry_add", args=[event.pk])
    response = director_client.post(url, {"last_name": "Петров", "first_name": "Пётр", "number": 1})
    assert response.status_code == 400
    assert response.context["form"].errors["number"]
    assert "Петров" in response.content.decode()
    assert event.entries.count() == 1


def test_paste_adds_all_lines_or_shows_every_problem(director_client, event, entry):
    url = reverse("director:entries_paste", args=[event.pk])
    bad = "Петров Пётр; ЦДШ\nСидоров\n"
    response = director_client.post(url, {"text": bad})
    assert response.status_code == 400
    assert event.entries.count() == 1
    assert response.context["check"].problem_count == 1
    assert "Сидоров" in response.content.decode()
    response = director_client.post(url, {"text": "Петров Пётр; ЦДШ\nСидоров Сидор\n"})
    assert response.status_code == 302
    assert event.entries.count() == 3


def test_csv_import_in_windows_1251_previews_then_saves_all(director_client, event):
    url = reverse("director:entries_import", args=[event.pk])
    response = director_client.post(url, {"file": SimpleUploadedFile("игроки.csv", CSV_1251)})
    assert response.status_code == 200
    assert response.context["check"].ok and len(response.context["check"].rows) == 30
    assert response.context["encoding"] == "Windows-1251"
    assert not event.entries.exists()
    confirm = response.context["confirm"]
    response = director_client.post(
        reverse("director:entries_import_confirm", args=[event.pk]),
        {"text": confirm.initial["text"], "source": "csv"},
    )
    assert response.status_code == 302
    assert event.entries.count() == 30
    assert event.entries.filter(last_name="Игроков7", club="Клуб 1").exists()


def test_csv_import_in_utf8_with_a_bad_row_saves_nothing(director_client, event):
    data = "Фамилия;Имя;Номер\nИванов;Иван;1\n;Пётр;2\n".encode()
    url = reverse("director:entries_import", args=[event.pk])
    response = director_client.post(url, {"file": SimpleUploadedFile("p.csv", data)})
    assert response.status_code == 400  # nothing of it can be saved
    check = response.context["check"]
    assert not check.ok and check.rows[1].problems
    assert "фамилия пустая" in response.content.decode()
    assert not event.entries.exists()


def test_csv_with_wrong_columns_is_refused_on_the_upload_form(director_client, event):
    data = b"Name;Rating\nx;1\n"
    response = director_client.post(
        reverse("director:entries_import", args=[event.pk]),
        {"file": SimpleUploadedFile("p.csv", data)},
    )
    assert response.status_code == 400
    assert "file" in response.context["form"].errors
    assert not event.entries.exists()


def test_confirming_an_import_whose_numbers_were_taken_meanwhile_saves_nothing(
    director_client, event
):
    text = "Фамилия;Имя;Номер\nИванов;Иван;5\nПетров;Пётр;6\n"
    services.entry_create(event, last_name="Быстров", first_name="Борис", number=6)
    response = director_client.post(
        reverse("director:entries_import_confirm", args=[event.pk]), {"text": text, "source": "csv"}
    )
    assert response.status_code == 400
    assert event.entries.count() == 1
    assert not response.context["check"].ok


def test_withdraw_reinstate_and_draw_from_the_event_page(director_client, event, entry):
    director_client.post(reverse("director:entry_withdraw", args=[event.pk, entry.pk]))
    assert Entry.objects.get(pk=entry.pk).status == "withdrawn"
    director_client.post(reverse("director:entry_reinstate", args=[event.pk, entry.pk]))
    assert Entry.objects.get(pk=entry.pk).status == "active"
    services.entry_create(event, last_name="Петров", first_name="Пётр")
    director_client.post(reverse("director:draw", args=[event.pk]), {"seed": "лето"})
    assert sorted(event.entries.values_list("number", flat=True)) == [1, 2]
    body = director_client.get(reverse("director:draw_list", args=[event.pk])).content.decode()
    assert "лето" in body


def test_a_superuser_may_open_any_event(client, superuser, other_event):
    client.force_login(superuser)
    assert client.get(reverse("director:event_detail", args=[other_event.pk])).status_code == 200


def test_an_unknown_event_is_a_404_page_in_russian(director_client):
    response = director_client.get(reverse("director:event_detail", args=[999999]))
    assert response.status_code == 404


def test_a_refused_csv_answers_400_with_the_form_naming_the_file_and_the_rule(
    director_client, event
):
    url = reverse("director:entries_import", args=[event.pk])
    response = director_client.post(
        url,
        {"file": SimpleUploadedFile("игроки.csv", "Фамилия;Имя;Рейтинг\nИванов;Иван;1\n".encode())},
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert 'type="file"' in body and 'name="file"' in body  # the form, to choose again
    (error,) = response.context["form"].errors["file"]
    assert error.startswith("«игроки.csv»: Неизвестные столбцы: «Рейтинг». Ожидаются столбцы:")
    assert error in body and "Файл CSV" in body  # under the field's label
    empty = director_client.post(url, {})
    assert empty.status_code == 400 and empty.context["form"].errors["file"]
    assert not event.entries.exists()


def test_a_refused_paste_answers_400_with_what_was_typed(director_client, event):
    url = reverse("director:entries_paste", args=[event.pk])
    typed = "Петров Пётр; ЦДШ\nСидоров\n"
    response = director_client.post(url, {"text": typed})
    assert response.status_code == 400
    assert response.context["form"]["text"].value() == typed
    assert "Петров Пётр; ЦДШ\nСидоров" in response.content.decode()
    assert response.context["form"].errors["text"]
    empty = director_client.post(url, {"text": ""})
    assert empty.status_code == 400 and empty.context["form"].errors["text"]
    assert not event.entries.exists()
