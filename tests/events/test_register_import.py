"""The register in the players' import, «Вставить список» and the add form (issue 24;
docs/register.md): every row says «новый», «найден» or «несколько похожих», the director
confirms, and only then are players linked to persons — new persons created, new spellings
kept, numbers recorded; identifier first; two players of one event never one person."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events import services
from events.models import Entry, Person, PersonAlias, PersonIdentifier

pytestmark = pytest.mark.django_db


def _preview(client, event, csv_text, encoding="utf-8"):
    return client.post(
        reverse("director:entries_import", args=[event.pk]),
        {"file": SimpleUploadedFile("игроки.csv", csv_text.encode(encoding))},
    )


def _confirm(client, event, csv_text, **choices):
    return client.post(
        reverse("director:entries_import_confirm", args=[event.pk]),
        {"text": csv_text, "source": "csv", **choices},
    )


def _person(owner, last, first, club="", **ids):
    person = Person.objects.create(owner=owner, last_name=last, first_name=first, club=club)
    for kind, value in ids.items():
        PersonIdentifier.objects.create(person=person, kind=kind, value=value)
    return person


def test_an_empty_register_makes_every_row_new_and_the_import_creates_them(
    director_client, director, event
):
    text = "Фамилия;Имя;Клуб\nСемёнов;Пётр;ЦДШ\nИванов;Иван;\n"
    response = _preview(director_client, event, text, "cp1251")
    page = response.content.decode()
    assert response.status_code == 200 and page.count("новый") >= 2
    assert 'name="person_0"' not in page  # nothing to choose
    assert not Person.objects.exists()
    assert _confirm(director_client, event, text).status_code == 302
    semenov = Entry.objects.get(event=event, last_name="Семёнов")
    assert (semenov.person.full_name, semenov.person.club) == ("Семёнов Пётр", "ЦДШ")
    assert semenov.person.owner == director
    assert list(semenov.person.aliases.values_list("last_name", "club")) == [("Семёнов", "ЦДШ")]
    assert Person.objects.count() == 2


def test_found_by_name_is_preselected_and_a_new_spelling_becomes_an_alias(
    director_client, director, event
):
    semenov = _person(director, "Семёнов", "Пётр", "ЦДШ")
    text = "Фамилия;Имя;Клуб\nсеменов;петр;цдш\n"
    response = _preview(director_client, event, text)
    page = response.content.decode()
    assert "найден: Семёнов Пётр (ЦДШ)" in page
    assert f'<option value="{semenov.pk}" selected>' in page
    assert not event.entries.exists()  # the preview saves nothing
    response = _confirm(director_client, event, text, person_0=str(semenov.pk))
    assert response.status_code == 302
    entry = event.entries.get()
    assert entry.person == semenov
    assert (entry.last_name, entry.first_name, entry.club) == ("семенов", "петр", "цдш")
    assert PersonAlias.objects.filter(person=semenov, last_name="семенов").exists()
    assert Person.objects.count() == 1
    semenov.refresh_from_db()
    assert semenov.last_name == "Семёнов"  # the person keeps his name


def test_found_is_not_linked_without_the_choice_sent(director_client, director, event):
    _person(director, "Семёнов", "Пётр", "ЦДШ")
    text = "Фамилия;Имя;Клуб\nСеменов;Петр;ЦДШ\n"
    response = _confirm(director_client, event, text)
    assert response.status_code == 400
    assert "Выберите" in response.content.decode() or "выберите" in response.content.decode()
    assert not event.entries.exists()


def test_the_director_may_say_a_found_person_is_someone_new(director_client, director, event):
    semenov = _person(director, "Семёнов", "Пётр", "ЦДШ")
    text = "Фамилия;Имя;Клуб\nСеменов;Петр;ЦДШ\n"
    assert _confirm(director_client, event, text, person_0="new").status_code == 302
    assert event.entries.get().person != semenov
    assert Person.objects.count() == 2


def test_several_similar_are_listed_and_one_must_be_chosen(director_client, director, event):
    moscow = _person(director, "Иванов", "Иван", "ЦДШ")
    piter = _person(director, "Иванов", "Иван", "Питер")
    text = "Фамилия;Имя;Клуб\nИванов;Иван;Сочи\n"
    page = _preview(director_client, event, text).content.decode()
    assert "несколько похожих" in page
    assert "Иванов Иван (ЦДШ)" in page and "Иванов Иван (Питер)" in page
    assert '<option value="" selected>' in page  # nothing preselected
    response = _confirm(director_client, event, text)
    assert not event.entries.exists()
    assert "строки 2" in response.content.decode()
    assert _confirm(director_client, event, text, person_0=str(piter.pk)).status_code == 302
    assert event.entries.get().person == piter
    assert moscow.entries.count() == 0


def test_a_person_of_another_register_cannot_be_chosen(
    director_client, director, other_director, event
):
    _person(director, "Иванов", "Иван", "ЦДШ")
    _person(director, "Иванов", "Иван", "Питер")
    foreign = _person(other_director, "Иванов", "Иван", "Сочи")
    text = "Фамилия;Имя;Клуб\nИванов;Иван;Сочи\n"
    response = _confirm(director_client, event, text, person_0=str(foreign.pk))
    assert response.status_code == 400 and not event.entries.exists()
    assert "выберите снова" in response.content.decode()


def test_identifier_first_whatever_the_name(director_client, director, event):
    card = _person(director, "Кузнецов", "Олег", "ЦДШ", club_card="77")
    _person(director, "Петров", "Пётр", "Сочи")
    text = "Фамилия;Имя;Клуб;Клубная карта\nПетров;Пётр;Сочи;77\n"
    page = _preview(director_client, event, text).content.decode()
    assert "найден: Кузнецов Олег (ЦДШ)" in page
    # Saying «new» while the card is Кузнецов's is refused, naming the card.
    response = _confirm(director_client, event, text, person_0="new")
    assert "клубная карта 77 принадлежит Кузнецов Олег (ЦДШ)" in response.content.decode()
    assert not event.entries.exists()
    assert _confirm(director_client, event, text, person_0=str(card.pk)).status_code == 302
    assert event.entries.get().person == card


def test_numbers_of_the_file_are_kept_for_the_persons(director_client, director, event):
    text = "Фамилия;Имя;Клуб;Клубная карта;Номер ФСПР\nСидоров;Сидор;ЦДШ; 12 ;Ф-9\n"
    assert _confirm(director_client, event, text).status_code == 302
    person = event.entries.get().person
    assert set(person.identifiers.values_list("kind", "value")) == {
        ("club_card", "12"),
        ("federation", "Ф-9"),
    }


def test_a_too_long_number_is_a_row_problem(director_client, event):
    text = "Фамилия;Имя;Клубная карта\nСидоров;Сидор;" + "9" * 41 + "\n"
    response = _preview(director_client, event, text)
    assert "клубная карта длиннее 40 символов" in response.content.decode().lower()
    assert not response.context["check"].ok


def test_a_person_already_in_the_event_is_refused(director_client, director, event):
    semenov = _person(director, "Семёнов", "Пётр", "ЦДШ", club_card="5")
    Entry.objects.create(event=event, last_name="Семёнов", first_name="Пётр", person=semenov)
    text = "Фамилия;Имя;Клуб;Клубная карта\nДругой;Человек;;5\n"
    response = _preview(director_client, event, text)
    assert "Семёнов Пётр (ЦДШ) уже играет в этом турнире" in response.content.decode()
    assert not response.context["check"].ok
    assert _confirm(director_client, event, text, person_0=str(semenov.pk)).status_code == 400
    assert event.entries.count() == 1


def test_two_rows_cannot_be_one_person(director_client, director, event):
    moscow = _person(director, "Иванов", "Иван", "ЦДШ")
    _person(director, "Иванов", "Иван", "Питер")
    text = "Фамилия;Имя;Клуб\nИванов;Иван;Сочи\nИванов;Иван;Тула\n"
    response = _confirm(
        director_client, event, text, person_0=str(moscow.pk), person_1=str(moscow.pk)
    )
    assert response.status_code == 400 and not event.entries.exists()
    assert "тот же человек, что в строке 2" in response.content.decode()


def test_paste_with_a_found_row_asks_first_then_links(director_client, director, event):
    semenov = _person(director, "Семёнов", "Пётр", "ЦДШ")
    url = reverse("director:entries_paste", args=[event.pk])
    text = "Семенов Петр; ЦДШ\nНовиков Нил\n"
    response = director_client.post(url, {"text": text})
    assert response.status_code == 200 and not event.entries.exists()
    page = response.content.decode()
    assert "найден: Семёнов Пётр (ЦДШ)" in page and 'form="paste-form"' in page
    token = response.context["token"]
    response = director_client.post(
        url, {"text": text, "register_shown": token, "person_0": str(semenov.pk)}
    )
    assert response.status_code == 302
    assert event.entries.get(last_name="Семенов").person == semenov
    assert event.entries.get(last_name="Новиков").person.full_name == "Новиков Нил"


def test_paste_of_new_players_only_saves_at_once(director_client, event):
    url = reverse("director:entries_paste", args=[event.pk])
    response = director_client.post(url, {"text": "Новиков Нил; Тула\nОрлов Олег\n"})
    assert response.status_code == 302
    assert Person.objects.filter(entries__event=event).count() == 2


def test_choices_sent_for_another_text_are_not_read(director_client, director, event):
    semenov = _person(director, "Семёнов", "Пётр", "ЦДШ")
    url = reverse("director:entries_paste", args=[event.pk])
    response = director_client.post(url, {"text": "Семенов Петр; ЦДШ"})
    token = response.context["token"]
    response = director_client.post(
        url,
        {
            "text": "Семенов Петр; ЦДШ\nОрлов Олег",
            "register_shown": token,
            "person_0": str(semenov.pk),
        },
    )
    assert response.status_code == 200 and not event.entries.exists()


def test_the_add_form_asks_who_the_player_is(director_client, director, event):
    semenov = _person(director, "Семёнов", "Пётр", "ЦДШ")
    url = reverse("director:entry_add", args=[event.pk])
    data = {"last_name": "Семенов", "first_name": "Пётр", "club": "", "number": ""}
    response = director_client.post(url, data)
    assert response.status_code == 200 and not event.entries.exists()
    page = response.content.decode()
    assert "найден: Семёнов Пётр (ЦДШ)" in page and 'name="person_0"' in page
    data |= {"register_shown": response.context["token"], "person_0": str(semenov.pk)}
    assert director_client.post(url, data).status_code == 302
    assert event.entries.get().person == semenov


def test_the_add_form_of_someone_new_saves_at_once(director_client, event):
    url = reverse("director:entry_add", args=[event.pk])
    data = {"last_name": "Орлов", "first_name": "Олег", "club": "Тула", "number": ""}
    assert director_client.post(url, data).status_code == 302
    assert event.entries.get().person.club == "Тула"


def test_the_add_form_refuses_a_person_already_playing(director_client, director, event):
    semenov = _person(director, "Семёнов", "Пётр", "ЦДШ")
    services.entry_create(event, last_name="Семёнов", first_name="Пётр", club="ЦДШ")
    Entry.objects.filter(event=event).update(person=semenov)
    url = reverse("director:entry_add", args=[event.pk])
    data = {"last_name": "Семенов", "first_name": "Петр", "club": "ЦДШ", "number": ""}
    response = director_client.post(url, data)
    assert response.status_code == 400 and event.entries.count() == 1
    assert "уже играет в этом турнире" in response.content.decode()
