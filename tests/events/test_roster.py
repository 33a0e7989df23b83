"""Reading pasted lists and CSV files of players."""

import pytest
from django.utils import translation

from events import roster

pytestmark = pytest.mark.usefixtures("en")

HEADER = "Фамилия;Имя;Клуб\n"


def test_it_reads_a_pasted_line_as_last_name_first_name_and_club():
    rows = roster.parse_paste("Иванов Иван Петрович; Шахматный клуб\n\nПетров Пётр\n")
    assert [(r.line, r.last_name, r.first_name, r.club) for r in rows] == [
        (1, "Иванов", "Иван Петрович", "Шахматный клуб"),
        (3, "Петров", "Пётр", ""),
    ]
    assert all(r.ok for r in rows)


def test_it_marks_a_pasted_line_without_first_name():
    (row,) = roster.parse_paste("Иванов; Клуб")
    assert "first name is empty" in row.problems


def test_it_marks_a_name_longer_than_the_limit():
    (row,) = roster.parse_paste("Я" * 101 + " Иван")
    assert any("longer than 100" in p for p in row.problems)


def test_it_decodes_utf8_with_bom_and_windows_1251():
    text = HEADER + "Иванов;Иван;Клуб\n"
    assert roster.decode_csv(b"\xef\xbb\xbf" + text.encode()) == (text, "UTF-8")
    assert roster.decode_csv(text.encode("cp1251")) == (text, "Windows-1251")


def test_it_refuses_a_binary_file():
    with pytest.raises(roster.RosterError, match="neither UTF-8 nor Windows-1251"):
        roster.decode_csv(b"\x00\x01\x02\xff\xfe binary")


def test_it_refuses_an_empty_file():
    with pytest.raises(roster.RosterError, match="empty"):
        roster.decode_csv(b"   \n")


def test_it_reads_comma_separated_csv_with_numbers():
    rows = roster.parse_csv("last_name,first_name,club,number\nSmith,John,Oxford,7\n")
    assert (rows[0].last_name, rows[0].first_name, rows[0].club, rows[0].number) == (
        "Smith",
        "John",
        "Oxford",
        7,
    )


def test_it_reads_a_single_full_name_column():
    rows = roster.parse_csv("ФИО;Клуб\nСидоров Сидор;ЦДШ\n")
    assert (rows[0].last_name, rows[0].first_name) == ("Сидоров", "Сидор")


def test_it_refuses_unknown_columns_and_names_them():
    with pytest.raises(roster.RosterError) as caught:
        roster.parse_csv("Фамилия;Имя;Рейтинг\nИванов;Иван;1500\n")
    assert "«Рейтинг»" in str(caught.value)
    assert "«Last name», «First name»" in str(caught.value)  # English headers work too
    with translation.override("ru"), pytest.raises(roster.RosterError) as russian:
        roster.parse_csv("Фамилия;Имя;Рейтинг\nИванов;Иван;1500\n")
    assert "«Фамилия», «Имя»" in str(russian.value)


def test_it_refuses_a_header_without_name_columns():
    with pytest.raises(roster.RosterError, match="no name columns"):
        roster.parse_csv("Клуб;Номер\nЦДШ;1\n")


def test_it_refuses_a_repeated_column():
    with pytest.raises(roster.RosterError, match="twice"):
        roster.parse_csv("Фамилия;Имя;Фамилия\na;b;c\n")


def test_it_refuses_a_header_with_no_rows():
    with pytest.raises(roster.RosterError, match="no players"):
        roster.parse_csv(HEADER)


def test_it_marks_a_number_that_is_not_a_whole_number():
    rows = roster.parse_csv("Фамилия;Имя;Номер\nИванов;Иван;пять\nПетров;Пётр;0\n")
    assert all(any("not a whole number" in p for p in r.problems) for r in rows)


def test_it_marks_a_row_with_more_values_than_columns():
    rows = roster.parse_csv(HEADER + "Иванов;Иван;Клуб;лишнее\n")
    assert any("4 values" in p for p in rows[0].problems)


def test_it_marks_numbers_taken_or_repeated_and_people_entered_twice():
    rows = roster.parse_csv(
        "Фамилия;Имя;Клуб;Номер\nИванов;Иван;А;1\nПетров;Пётр;Б;2\nСидоров;Сидор;В;2\n"
        "Петров;Пётр;Б;\n"
    )
    roster.check_against_event(rows, {1: "Кузнецов Кузьма"}, set())
    assert any("already taken by Кузнецов Кузьма" in p for p in rows[0].problems)
    assert rows[1].ok
    assert any("repeats line 3" in p for p in rows[2].problems)
    assert any("same player as on line 3" in p for p in rows[3].problems)
