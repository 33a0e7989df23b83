"""Reading lists of players: pasted lines and CSV files (UTF-8 or Windows-1251).

Parsing never saves: it returns every row with its problems so that the director sees
the whole list before anything is written (all or nothing).
"""

import csv
import io
import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from events.models import NAME_MAX, NUMBER_MAX
from events.names import clean_name

MAX_ROWS = 2000
MAX_BYTES = 1_000_000

# Header names accepted for each column, compared case-insensitively.
COLUMN_ALIASES = {
    "last_name": {"фамилия", "last name", "last_name", "lastname", "surname"},
    "first_name": {"имя", "first name", "first_name", "firstname", "given name"},
    # Optional: matched against the register and kept on the person (docs/register.md); the
    # event's player keeps his last and first name only.
    "patronymic": {"отчество", "patronymic", "middle name", "middle_name"},
    "name": {"фио", "игрок", "name", "player", "фамилия имя"},
    "club": {"клуб", "club", "город", "city", "команда", "team"},
    "number": {"номер", "№", "no", "number", "participant number"},
    # The register's numbers of the player (issue 24, docs/register.md).
    "club_card": {"клубная карта", "карта", "club card", "club_card"},
    "federation": {"номер фспр", "фспр", "federation number", "federation"},
}
#: The longest club card or federation number read.
IDENTIFIER_MAX = 40


class RosterError(Exception):
    """The whole input is unusable (wrong encoding, wrong columns…)."""


@dataclass
class RosterRow:
    line: int
    last_name: str = ""
    first_name: str = ""
    club: str = ""
    #: Read from an «Отчество» column (the register's matching); not an entry's field.
    patronymic: str = ""
    number: int | None = None
    club_card: str = ""
    federation: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def split_name(text: str) -> tuple[str, str]:
    """«Фамилия Имя [Отчество]» → (last name, the rest)."""
    parts = text.split()
    if not parts:
        return "", ""
    return parts[0], " ".join(parts[1:])


def parse_paste(text: str) -> list[RosterRow]:
    """One player per line: «Фамилия Имя; клуб» (the club may be left out). Each line is
    cleaned as every name is (events.names): checked as it will be stored."""
    rows = []
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = clean_name(raw)
        if not line:
            continue
        name_part, _sep, club = line.partition(";")
        last, first = split_name(name_part)
        row = RosterRow(line=line_no, last_name=last, first_name=first, club=club.strip())
        if ";" in club:
            row.problems.append(_("only one «;» is allowed: «Фамилия Имя; клуб»"))
        rows.append(row)
    if len(rows) > MAX_ROWS:
        raise RosterError(_("At most %(max)d players at once.") % {"max": MAX_ROWS})
    _check_names(rows)
    return rows


def decode_csv(data: bytes) -> tuple[str, str]:
    """Return (text, encoding name). UTF-8 (with or without BOM) first, then Windows-1251."""
    if len(data) > MAX_BYTES:
        raise RosterError(_("The file is larger than 1 MB."))
    if not data.strip():
        raise RosterError(_("The file is empty."))
    try:
        return data.decode("utf-8-sig"), "UTF-8"
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1251")
    except UnicodeDecodeError:
        raise RosterError(_("The file is neither UTF-8 nor Windows-1251 text.")) from None
    # cp1251 maps almost every byte, so binary junk decodes too; refuse control characters.
    if re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", text):
        raise RosterError(_("The file is neither UTF-8 nor Windows-1251 text.")) from None
    return text, "Windows-1251"


def column_for(header: str, aliases_of: dict = COLUMN_ALIASES) -> str | None:
    """The column a CSV header names (case, spaces and underscores aside), by ``aliases_of``
    (column → the headers naming it); None for a header it does not know."""
    key = " ".join(header.strip().lower().replace("_", " ").split())
    for column, aliases in aliases_of.items():
        if key in aliases or key.replace(" ", "_") in aliases:
            return column
    return None


def _expected_columns() -> str:
    return _(
        "«Фамилия», «Имя», «Клуб» (optional), «Номер» (optional) — or «ФИО» instead of the first two"
    )


def parse_csv(text: str) -> list[RosterRow]:
    """A CSV with a header row; `;`, `,` or tab separated."""
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise RosterError(
            _("Line %(line)d holds a NUL character: this is not a text file.") % {"line": line}
        )
    return _parse_csv(text)


def _csv_rows(reader):
    """The reader's rows; a row the csv module cannot read (a field far longer than any name,
    broken quoting) is an error of the file naming its line, not a crash."""
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            if "field larger than field limit" in str(error):
                why = _("a field is longer than %(max)d characters") % {
                    "max": csv.field_size_limit()
                }
            else:
                why = _("broken quoting")
            raise RosterError(
                _("The file cannot be read as CSV at line %(line)d: %(why)s.")
                % {"line": reader.line_num, "why": why}
            ) from None


def csv_reader(text: str):
    """(the csv reader, its rows) of a CSV whose delimiter — `;`, `,` or tab — is guessed
    from its start; iterating the rows raises :class:`RosterError` naming the line the csv
    module cannot read. Shared with the register's import (events.register.io)."""
    sample = text[:4096]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=";,\t")
    except csv.Error:
        # A subclass: setting the delimiter on csv.excel itself changed every later reader.
        class dialect(csv.excel):
            delimiter = ";" if sample.count(";") >= sample.count(",") else ","

    reader = csv.reader(io.StringIO(text), dialect)
    return reader, _csv_rows(reader)


def _parse_csv(text: str) -> list[RosterRow]:
    reader, rows_of = csv_reader(text)
    try:
        header = next(rows_of)
    except StopIteration:
        raise RosterError(_("The file is empty.")) from None
    columns = [column_for(h) for h in header]
    unknown = [h for h, c in zip(header, columns, strict=True) if c is None and h.strip()]
    if unknown:
        raise RosterError(
            _("Unknown columns: %(cols)s. Expected columns: %(expected)s.")
            % {
                "cols": ", ".join(f"«{h.strip()}»" for h in unknown),
                "expected": _expected_columns(),
            }
        )
    present = set(filter(None, columns))
    if len([c for c in columns if c]) != len(present):
        raise RosterError(_("A column appears twice in the header row."))
    if not ({"last_name", "first_name"} <= present or "name" in present):
        raise RosterError(
            _("The header row has no name columns. Expected columns: %(expected)s.")
            % {"expected": _expected_columns()}
        )

    rows = []
    for values in rows_of:
        line_no = reader.line_num
        if not any(clean_name(v) for v in values):
            continue
        row = RosterRow(line=line_no)
        if len(values) > len(columns):
            row.problems.append(
                _("%(got)d values but the header has %(want)d columns")
                % {"got": len(values), "want": len(columns)}
            )
        # Cleaned as every name is (events.names): checked as it will be stored.
        data = {c: clean_name(v) for c, v in zip(columns, values, strict=False) if c}
        if "name" in data:
            row.last_name, row.first_name = split_name(data["name"])
        row.last_name = data.get("last_name", row.last_name)
        row.first_name = data.get("first_name", row.first_name)
        row.club = data.get("club", "")
        row.patronymic = data.get("patronymic", "")
        for column, label in (
            ("club_card", _("club card")),
            ("federation", _("federation number")),
        ):
            value = data.get(column, "")
            if len(value) > IDENTIFIER_MAX:
                row.problems.append(
                    _("%(field)s is longer than %(max)d characters")
                    % {"field": label, "max": IDENTIFIER_MAX}
                )
            else:
                setattr(row, column, value)
        raw_number = data.get("number", "")
        if raw_number:
            # ASCII digits only: «²» or «٣» pass str.isdigit() but are no number here.
            if raw_number.isascii() and raw_number.isdigit() and 1 <= int(raw_number) <= NUMBER_MAX:
                row.number = int(raw_number)
            else:
                row.problems.append(
                    _("participant number «%(value)s» is not a whole number from 1 to %(max)d")
                    % {"value": raw_number[:20], "max": NUMBER_MAX}
                )
        rows.append(row)
        if len(rows) > MAX_ROWS:
            raise RosterError(_("At most %(max)d players at once.") % {"max": MAX_ROWS})
    if not rows:
        raise RosterError(_("The file has a header row but no players."))
    _check_names(rows)
    return rows


def _check_names(rows: list[RosterRow]) -> None:
    for row in rows:
        if any("\x00" in v for v in (row.last_name, row.first_name, row.patronymic, row.club)):
            row.problems.append(_("a NUL character is not allowed in a name or a club"))
        if not row.last_name:
            row.problems.append(_("last name is empty"))
        if not row.first_name:
            row.problems.append(_("first name is empty"))
        for value, label in (
            (row.last_name, _("last name")),
            (row.first_name, _("first name")),
            (row.patronymic, _("patronymic")),
            (row.club, _("club")),
        ):
            if len(value) > NAME_MAX:
                row.problems.append(
                    _("%(field)s is longer than %(max)d characters")
                    % {"field": label, "max": NAME_MAX}
                )


def check_against_event(
    rows: list[RosterRow], taken_numbers: dict[int, str], existing_people: set[tuple[str, str, str]]
) -> None:
    """Add problems that depend on what the event already holds, and on the rows together."""
    seen_numbers: dict[int, int] = {}
    seen_people: dict[tuple[str, str, str, str], int] = {}
    for row in rows:
        if row.number is not None:
            if row.number in taken_numbers:
                row.problems.append(
                    _("participant number %(number)d is already taken by %(name)s")
                    % {"number": row.number, "name": taken_numbers[row.number]}
                )
            elif row.number in seen_numbers:
                row.problems.append(
                    _("participant number %(number)d repeats line %(line)d")
                    % {"number": row.number, "line": seen_numbers[row.number]}
                )
            else:
                seen_numbers[row.number] = row.line
        person = (row.last_name.lower(), row.first_name.lower(), row.club.lower())
        # Two rows of one name and club are one player twice, unless their patronymics
        # differ: «Иванов Иван Иванович» and «Иванов Иван Петрович» are two men.
        seen = (*person, row.patronymic.lower())
        if row.last_name and person in existing_people:
            row.problems.append(_("this player is already entered in the event"))
        elif row.last_name and seen in seen_people:
            row.problems.append(
                _("the same player as on line %(line)d") % {"line": seen_people[seen]}
            )
        else:
            seen_people[seen] = row.line
