"""Every spreadsheet a director opens, as XLSX beside its CSV (issue 21, finding 6): the
standings (event and session), the score cards, the travellers (one deal and all of a
session) and the session's grid, table cards and participant cards.

Read back with openpyxl: numbers are number cells (figures with the format ``0.00``), a
deal's label «1.2» and a player's number with his name are text cells, nothing is a formula,
the header is bold and frozen and in the page's language, and so is the sheet's name. The
XLSX carries the very rows of its CSV; a Russian CSV writes figures with a decimal comma, an
English one with a point. The XLSX follow their CSV's access rules: 403 before publishing,
403 for a deal not played out yet, the director's files his own."""

import csv
import io
import re
import zipfile

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from events import services as event_services
from events.spreadsheet import Fixed, csv_text, sheet_title, xlsx_bytes
from scoring.models import TablePlay
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of, play_out, sheet

db = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
DOWN = sheet(declarer="N", tricks={"N": 4, "E": 6})  # one down: negative points
RU_COMMA = re.compile(r"-?\d+,\d\d")
EN_POINT = re.compile(r"-?\d+\.\d\d")


# --- the writer itself --------------------------------------------------------------------------


def _book(data: bytes):
    return load_workbook(io.BytesIO(data)).active


def _formulas(data: bytes) -> list[str]:
    """Every <f> element of every worksheet: openpyxl reads a formula back as text, so the
    file itself is looked at too."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        sheets = [n for n in archive.namelist() if n.startswith("xl/worksheets/")]
        return [n for n in sheets if re.search(rb"<f[ >]", archive.read(n))]


def test_the_xlsx_writer_types_each_cell_by_its_value():
    rows = [
        ["Сдача", "Игрок", "Тур", "Очки", "Результат", "Пусто"],
        ["1.1", "7 Иванов Игорь", 3, -250, Fixed(77.5), ""],
        ["11.3", '=HYPERLINK("http://evil.example/","x")', 12, 0, Fixed(-1.5), None],
        ["2.10", "@SUM(A1)", 1, 40, Fixed(12.345, 1), "bell\x07 here"],
    ]
    data = xlsx_bytes(rows, "Таблица: [1/2]?")
    ws = _book(data)
    assert ws.title == "Таблица 1 2"  # Excel forbids []:*?/\ in a sheet's name
    assert ws.freeze_panes == "A2"
    assert all(cell.font.b for cell in ws[1]) and not any(cell.font.b for cell in ws[2])
    assert [c.value for c in ws["A"]] == ["Сдача", "1.1", "11.3", "2.10"]
    for cell in ws["A"][1:] + ws["B"][1:]:
        assert cell.data_type == "s" and isinstance(cell.value, str), cell.coordinate
        assert cell.number_format == "@"  # stays text when edited in Excel
    assert ws["B3"].value == rows[2][1]  # the text as it is, no «'» in front …
    assert ws["B3"].quotePrefix and ws["B4"].quotePrefix and not ws["B2"].quotePrefix
    assert [c.value for c in ws["C"][1:]] == [3, 12, 1] and ws["D2"].value == -250
    assert all(c.data_type == "n" for c in ws["C"][1:] + ws["D"][1:] + ws["E"][1:])
    assert [c.value for c in ws["E"][1:]] == [77.5, -1.5, 12.345]
    assert [c.number_format for c in ws["E"][1:]] == ["0.00", "0.00", "0.0"]
    assert ws["F2"].value is None and ws["F3"].value is None
    assert ws["F4"].value == "bell here"  # a character XML cannot carry is dropped
    assert all(cell.data_type != "f" for row in ws.iter_rows() for cell in row)
    assert _formulas(data) == []  # … and never a formula
    widths = {k: d.width for k, d in ws.column_dimensions.items()}
    assert widths["B"] > widths["C"] >= 4 and widths["B"] <= 60


def test_the_csv_writer_uses_the_decimal_separator_of_the_language():
    rows = [["Сдача", "Результат", "Очки"], ["1.1", Fixed(77.5), -250], ["11.3", Fixed(-1.5), 3]]
    with translation.override("ru"):
        russian = csv_text(rows)
    with translation.override("en"):
        english = csv_text(rows)
    assert russian == "\ufeffСдача;Результат;Очки\r\n1.1;77,50;-250\r\n11.3;-1,50;3\r\n"
    assert english == "\ufeffСдача;Результат;Очки\r\n1.1;77.50;-250\r\n11.3;-1.50;3\r\n"


@pytest.mark.parametrize(
    ("title", "name"),
    [("Протоколы, сессия 12", "Протоколы, сессия 12"), ("x" * 40, "x" * 31), ("[]", "Sheet")],
)
def test_a_sheet_name_is_one_excel_accepts(title, name):
    assert sheet_title(title) == name


# --- every file of an event ---------------------------------------------------------------------


def _write(play, director, *sheets):
    for number, data in enumerate(sheets, start=1):
        services.sheet_record(play, deal_of(play, number), data, by_user=director)


@pytest.fixture
def played(session15, director):
    """15 players; set 1 written by two tables (table 1 of round 1 one down on deal 2, the
    other on deal 3), the session played out and the results published."""
    play = play_of(session15, 1, 1)
    _write(play, director, THREE_DIAMONDS, DOWN, THREE_DIAMONDS)
    other = TablePlay.objects.filter(board_set=play.board_set).exclude(pk=play.pk).first()
    _write(other, director, sheet(declarer="N", tricks={"N": 8, "E": 2}), THREE_DIAMONDS, DOWN)
    play_out(session15)
    event_services.event_set_results_public(session15.event, True)
    return session15.event, session15, play


def _public(event, play, kind: str) -> dict[str, str]:
    slug, deal, entry = event.slug, deal_of(play, 2), entry_at(play, "N")
    return {
        "event": reverse(f"public:event_{kind}", args=[slug]),
        "session": reverse(f"public:session_{kind}", args=[slug, 1]),
        "travellers": reverse(f"public:session_travellers_{kind}", args=[slug, 1]),
        "traveller": reverse(f"public:traveller_{kind}", args=[slug, deal.pk]),
        "card": reverse(f"public:card_{kind}", args=[slug, entry.number]),
    }


def _director(event, session, kind: str) -> dict[str, str]:
    return {
        name: reverse(f"director:{name}_{kind}", args=[event.pk, session.number])
        for name in ("grid", "table", "participant")
    }


def _xlsx(response):
    assert response.status_code == 200
    assert response["Content-Type"] == XLSX
    assert re.fullmatch(r'attachment; filename="[\w.-]+\.xlsx"', response["Content-Disposition"])
    assert _formulas(response.content) == []
    ws = _book(response.content)
    assert ws.freeze_panes == "A2" and all(cell.font.b for cell in ws[1])
    assert all(cell.data_type != "f" for row in ws.iter_rows() for cell in row)
    return ws


def _column(ws, header: str) -> list:
    """The cells (not values) under ``header``."""
    index = [c.value for c in ws[1]].index(header)
    return [row[index] for row in ws.iter_rows(min_row=2)]


def _numbers(cells, fmt: str | None = None) -> list:
    """The filled cells of a column, each checked to be a number (with ``fmt``)."""
    filled = [c for c in cells if c.value is not None]
    assert filled
    for cell in filled:
        assert cell.data_type == "n" and isinstance(cell.value, int | float), cell.coordinate
        if fmt:
            assert cell.number_format == fmt, cell.coordinate
    return [c.value for c in filled]


def _texts(cells) -> list[str]:
    filled = [c for c in cells if c.value is not None]
    assert filled
    for cell in filled:
        assert cell.data_type == "s" and isinstance(cell.value, str), cell.coordinate
    return [c.value for c in filled]


@db
def test_the_standings_as_xlsx(client, played):
    event, session, play = played
    urls = _public(event, play, "xlsx")
    for name, title in (("event", "Таблица"), ("session", "Таблица, сессия 1")):
        ws = _xlsx(client.get(urls[name], **RU))
        assert ws.title == title
        head = [c.value for c in ws[1]]
        assert head[:7] == ["Место", "№", "Игрок", "Клуб", "Итог", "Сдачи", "Штраф"], name
        assert ws.max_row == 1 + 15
        totals = _numbers(_column(ws, "Итог"), "0.00")
        assert len(totals) == 6 and any(v != int(v) for v in totals)  # 33.33 …
        assert sorted(_numbers(_column(ws, "№"))) == list(range(1, 16))
        assert set(_numbers(_column(ws, "Сдачи"))) == {0, 3}
        places = [c for c in _column(ws, "Место") if c.value is not None]
        assert len(places) == 6 and places[0].value == "1–2"
        for cell in places:  # a place is a number, a shared one («1–2») text
            assert (cell.data_type, type(cell.value)) in (("n", int), ("s", str)), cell.value
        assert len(_texts(_column(ws, "Игрок"))) == 15
    english = _xlsx(client.get(urls["event"], **EN))
    assert english.title == "Standings" and english["A1"].value == "Place"


@db
def test_the_travellers_as_xlsx(client, played):
    event, session, play = played
    urls = _public(event, play, "xlsx")
    north = entry_at(play, "N")

    ws = _xlsx(client.get(urls["traveller"], **RU))
    assert ws.title == "Сдача 1.2"
    assert [c.value for c in ws[1]][:3] == ["Тур", "Комната", "Стол"]
    assert ws.max_row == 1 + 5  # the set is played by five tables
    assert set(_numbers(_column(ws, "Тур"))) == {1, 2, 3, 4, 5}
    assert f"{north.number} {north.full_name}" in _texts(_column(ws, "N"))
    points = _numbers(_column(ws, "Очки N"))
    assert any(v < 0 for v in points)  # one down
    _numbers(_column(ws, "Результат N"), "0.00")
    assert set(_numbers(_column(ws, "Версия"))) == {1}

    ws = _xlsx(client.get(urls["travellers"], **RU))
    assert ws.title == "Протоколы, сессия 1"
    assert ws["A1"].value == "Сдача"
    labels = _texts(_column(ws, "Сдача"))
    assert {"1.1", "1.2", "1.3", "5.3"} <= set(labels)  # labels, not numbers or dates
    assert [c.value for c in ws[1]].count("Сдача") == 1  # one header for every deal


@db
def test_the_score_card_as_xlsx(client, played):
    event, session, play = played
    ws = _xlsx(client.get(_public(event, play, "xlsx")["card"], **RU))
    assert ws.title == "Личная карточка"
    assert [c.value for c in ws[1]][:5] == ["Сессия", "Тур", "Стол", "Позиция", "Сдача"]
    deals = _texts(_column(ws, "Сдача"))
    assert deals[:3] == ["1.1", "1.2", "1.3"]
    points = _numbers(_column(ws, "Очки"))
    assert 70 in points and any(v < 0 for v in points)
    _numbers(_column(ws, "Результат"), "0.00")
    assert set(_numbers(_column(ws, "Сессия"))) == {1}
    _numbers(_column(ws, "Версия"))


@db
def test_the_movement_files_as_xlsx(director_client, played):
    event, session, play = played
    urls = _director(event, session, "xlsx")

    ws = _xlsx(director_client.get(urls["grid"], **RU))
    assert ws.title == "Вся сетка"
    assert [c.value for c in ws[1]][:6] == ["Комната", "Тур", "Стол", "Комплект", "N №", "N"]
    assert ws.max_row == 1 + 5 * 5
    assert set(_numbers(_column(ws, "Тур"))) == {1, 2, 3, 4, 5}
    seated = [n for seat in "NES" for n in _numbers(_column(ws, f"{seat} №"))]
    assert sorted(set(seated)) == list(range(1, 16))
    assert len(_texts(_column(ws, "N"))) == 25
    assert set(_texts(_column(ws, "Комплект"))) == {"1", "2", "3", "4", "5"}  # labels

    ws = _xlsx(director_client.get(urls["table"], **RU))
    assert ws.title == "Карточки столов" and ws.cell(1, ws.max_column).value == "Куда идёт комплект"
    assert set(_numbers(_column(ws, "Стол"))) == {1, 2, 3, 4, 5}

    ws = _xlsx(director_client.get(urls["participant"], **RU))
    assert ws.title == "Карточки участников"
    assert [c.value for c in ws[1]][:3] == ["Участник", "Игрок", "Тур"]
    assert sorted(set(_numbers(_column(ws, "Участник")))) == list(range(1, 16))


def _csv(response) -> list[list[str]]:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:], newline=""), delimiter=";"))


def _as_csv(cell) -> str:
    """How the CSV writes the value of an XLSX cell (in English)."""
    if cell.value is None:
        return ""
    if isinstance(cell.value, int | float) and cell.number_format == "0.00":
        return f"{cell.value:.2f}"
    return str(cell.value)


@db
def test_each_xlsx_carries_the_rows_of_its_csv(client, director, played):
    """One set of rows, two writers: cell by cell, the XLSX reads as its CSV."""
    event, session, play = played
    xlsx, csvs = _public(event, play, "xlsx"), _public(event, play, "csv")
    pairs = [(name, url, csvs[name]) for name, url in xlsx.items()]
    client.force_login(director)
    xlsx, csvs = _director(event, session, "xlsx"), _director(event, session, "csv")
    pairs += [(name, url, csvs[name]) for name, url in xlsx.items()]
    assert len(pairs) == 8
    for name, xlsx_url, csv_url in pairs:
        ws = _xlsx(client.get(xlsx_url, **EN))
        rows = [[_as_csv(c) for c in row] for row in ws.iter_rows()]
        want = _csv(client.get(csv_url, **EN))
        width = max(len(r) for r in want)
        assert [r + [""] * (width - len(r)) for r in rows] == want, name


@db
def test_a_russian_csv_writes_a_decimal_comma_an_english_one_a_point(client, played):
    event, session, play = played
    urls = _public(event, play, "csv")
    for name, column in (("event", 4), ("session", 4), ("card", 10), ("traveller", 13)):
        russian, english = _csv(client.get(urls[name], **RU)), _csv(client.get(urls[name], **EN))
        ru = [row[column] for row in russian[1:] if row[column]]
        en = [row[column] for row in english[1:] if row[column]]
        assert ru and all(RU_COMMA.fullmatch(v) for v in ru), (name, ru)
        assert en and all(EN_POINT.fullmatch(v) for v in en), (name, en)
        assert [v.replace(",", ".") for v in ru] == en
    # Deal labels stay what they are in either language (the XLSX is for typed cells).
    card = _csv(client.get(urls["card"], **RU))
    assert [row[4] for row in card[1:4]] == ["1.1", "1.2", "1.3"]
    assert russian[0][column] == "Результат N"  # the page's language, the header's too


# --- who may download them ----------------------------------------------------------------------


@pytest.fixture
def mid_session(session15, director):
    """Table 1 of round 1 has written deals 1–3; the other tables have still to play them."""
    play = play_of(session15, 1, 1)
    _write(play, director, THREE_DIAMONDS, DOWN, THREE_DIAMONDS)
    return session15.event, session15, play


@db
def test_the_xlsx_are_hidden_until_published_as_their_csv(client, director, mid_session):
    event, session, play = mid_session
    for kind in ("xlsx", "csv"):
        for name, url in _public(event, play, kind).items():
            response = client.get(url)
            assert response.status_code == 403, (kind, name)
            assert 'id="results-hidden"' in response.content.decode(), (kind, name)
    client.force_login(director)  # the director's preview: what the public will see…
    for name, url in _public(event, play, "xlsx").items():
        # … the deal still in play at other tables refused, as to the public
        assert client.get(url).status_code == (403 if name == "traveller" else 200), name
        # … and everything on his own view.
        own = client.get(f"{url}?view=director")
        assert own.status_code == 200 and "no-store" in own["Cache-Control"], name


@db
def test_a_deal_not_played_out_is_no_xlsx_either(client, mid_session):
    event, session, play = mid_session
    event_services.event_set_results_public(event, True)
    for kind in ("xlsx", "csv"):
        urls = _public(event, play, kind)
        response = client.get(urls["traveller"])
        assert response.status_code == 403, kind
        assert 'id="deal-in-play"' in response.content.decode(), kind
        for name in ("event", "session", "travellers", "card"):
            assert client.get(urls[name]).status_code == 200, (kind, name)
    # All the session's travellers: none of a deal still in play, in either file (the
    # header alone).
    urls = _public(event, play, "xlsx")
    travellers = _xlsx(client.get(urls["travellers"], **RU))
    assert travellers.max_row == 1 and travellers["A1"].value == "Сдача"
    assert len(_csv(client.get(_public(event, play, "csv")["travellers"]))) == 1
    # The card keeps a deal still in play without its result (scoring.standings.disclosure.card_hide).
    card = _xlsx(client.get(urls["card"], **RU))
    assert set(_texts(_column(card, "Контракт"))) == {"ещё играется"}
    assert all(c.value is None for c in _column(card, "Очки") + _column(card, "Результат"))
    play_out(session)
    assert client.get(urls["traveller"]).status_code == 200


@db
def test_the_movement_xlsx_are_the_directors_own(client, other_client, director, played):
    event, session, play = played
    for name, url in _director(event, session, "xlsx").items():
        assert other_client.get(url).status_code == 404, name
        response = client.get(url)
        assert response.status_code == 302 and "/director/login/" in response["Location"], name
    client.force_login(director)
    missing = reverse("director:grid_xlsx", args=[event.pk, 2])
    assert client.get(missing).status_code == 404


# --- the links beside each other ----------------------------------------------------------------


@db
def test_every_page_links_the_xlsx_beside_the_csv(client, director, played):
    event, session, play = played
    slug, deal, entry = event.slug, deal_of(play, 2), entry_at(play, "N")
    pages = {
        reverse("public:event", args=[slug]): ["event"],
        reverse("public:session", args=[slug, 1]): ["session", "travellers"],
        reverse("public:traveller", args=[slug, deal.pk]): ["traveller"],
        reverse("public:card", args=[slug, entry.number]): ["card"],
    }
    csv_urls, xlsx_urls = _public(event, play, "csv"), _public(event, play, "xlsx")
    for page, names in pages.items():
        body = client.get(page, **RU).content.decode()
        for name in names:
            pair = f'<a href="{xlsx_urls[name]}" download>XLSX</a> · '
            pair += f'<a href="{csv_urls[name]}" download>CSV</a>'
            assert pair in body, (page, name)
    client.force_login(director)
    body = client.get(reverse("director:session", args=[event.pk, 1]), **RU).content.decode()
    csv_urls, xlsx_urls = _director(event, session, "csv"), _director(event, session, "xlsx")
    for label, name in (
        ("Вся сетка", "grid"),
        ("Карточки столов", "table"),
        ("Карточки участников", "participant"),
    ):
        pair = f'{label}: <a href="{xlsx_urls[name]}" download>XLSX</a> · '
        pair += f'<a href="{csv_urls[name]}" download>CSV</a>'
        assert pair in body, name
    for page, name in (("table_cards", "table"), ("participant_cards", "participant")):
        body = client.get(reverse(f"director:{page}", args=[event.pk, 1])).content.decode()
        assert f'href="{xlsx_urls[name]}" download>XLSX</a>' in body, page
        assert f'href="{csv_urls[name]}" download>CSV</a>' in body, page
