"""The register's CSV export and import (issue 24; docs/register.md, «Импорт и экспорт
реестра»).

The export writes one row per person: «ID» (his pk, so that a re-import updates him instead
of making a second one), «Фамилия», «Имя», «Отчество», «Клуб», «Клубная карта», «Номер
ФСПР» (a person's numbers of one kind comma-separated) and «Скрыт» («да» / «нет»), in UTF-8
with a BOM (as the app's other CSV files) or Windows-1251, «;» between columns, every cell
formula-safe (events.csvsafe).

The import reads such a file (UTF-8 or Windows-1251, the delimiter guessed, the players'
import's size limits: events.roster). Parsing (:func:`parse`) and checking against the
register (:func:`check`) save nothing: every row gets its problems (the column and the rule)
and, when it has no ID, the register's proposal (events.register.matching, the candidates
built as for the players' import). The director's choices are read (:func:`read_choices`)
and only then :func:`import_rows` writes everything in one transaction, or nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from events import roster, spreadsheet
from events.csvsafe import FORMULA_STARTS
from events.models import NAME_MAX, Person, PersonAlias, PersonIdentifier
from events.names import clean_name
from events.register import matching, services

CLUB_CARD = PersonIdentifier.Kind.CLUB_CARD.value
FEDERATION = PersonIdentifier.Kind.FEDERATION.value

#: The file's columns in order: (field, header). The headers are the page language's
#: (Russian: «ID», «Фамилия», «Имя», «Отчество», «Клуб», «Клубная карта», «Номер ФСПР»,
#: «Скрыт»); the import reads either language's.
COLUMNS = [
    ("id", pgettext_lazy("register CSV column", "ID")),
    ("last_name", pgettext_lazy("register CSV column", "Last name")),
    ("first_name", pgettext_lazy("register CSV column", "First name")),
    ("patronymic", pgettext_lazy("register CSV column", "Patronymic")),
    ("club", pgettext_lazy("register CSV column", "Club")),
    (CLUB_CARD, pgettext_lazy("register CSV column", "Club card")),
    (FEDERATION, pgettext_lazy("register CSV column", "Federation number")),
    ("hidden", pgettext_lazy("register CSV column", "Hidden")),
]
LABELS = dict(COLUMNS)
#: Header names read for each column, compared case-insensitively (the players' import's
#: where the columns are the same).
HEADERS = {
    "id": {"id", "ид", "код"},
    "last_name": roster.COLUMN_ALIASES["last_name"],
    "first_name": roster.COLUMN_ALIASES["first_name"],
    "patronymic": roster.COLUMN_ALIASES["patronymic"],
    "club": roster.COLUMN_ALIASES["club"],
    CLUB_CARD: roster.COLUMN_ALIASES["club_card"],
    FEDERATION: roster.COLUMN_ALIASES["federation"],
    "hidden": {"скрыт", "скрыть", "hidden"},
}
YES = {"да", "д", "yes", "y", "1", "true", "+"}
NO = {"нет", "н", "no", "n", "0", "false", "-"}
ENCODINGS = {"utf-8": "UTF-8", "cp1251": "Windows-1251"}
#: The most persons one file holds: the players' import's limit.
MAX_ROWS = roster.MAX_ROWS
RowError = roster.RosterError


# --- export ---------------------------------------------------------------------------------


def export_rows(persons) -> list[list]:
    """The header and one row per person (``persons`` with their identifiers prefetched)."""
    rows: list[list] = [[str(label) for _name, label in COLUMNS]]
    for person in persons:
        numbers = {CLUB_CARD: [], FEDERATION: []}
        for identifier in person.identifiers.all():
            numbers.setdefault(identifier.kind, []).append(identifier.value)
        rows.append(
            [
                person.pk,
                person.last_name,
                person.first_name,
                person.patronymic,
                person.club,
                ", ".join(sorted(numbers[CLUB_CARD])),
                ", ".join(sorted(numbers[FEDERATION])),
                _yes_no(person.hidden),
            ]
        )
    return rows


def _yes_no(value: bool) -> str:
    return (
        pgettext("register CSV hidden", "yes") if value else pgettext("register CSV hidden", "no")
    )


class ExportError(Exception):
    """The register cannot be written in the encoding asked for."""


def export_bytes(persons, encoding: str) -> bytes:
    """The file: UTF-8 with a BOM, or Windows-1251 (no BOM). A name Windows-1251 has no
    letters for refuses that encoding, naming the persons, rather than writing «?»."""
    rows = export_rows(persons)
    text = spreadsheet.csv_text(rows)
    if encoding == "utf-8":
        return text.encode("utf-8")
    try:
        return text.removeprefix(spreadsheet.BOM).encode("cp1251")
    except UnicodeEncodeError:
        bad = []
        for row in rows[1:]:
            try:
                "".join(str(v) for v in row).encode("cp1251")
            except UnicodeEncodeError:
                bad.append(f"{row[1]} {row[2]} (ID {row[0]})")
        raise ExportError(
            _(
                "Windows-1251 has no letters for some names: %(names)s. Export in UTF-8, "
                "or correct those names."
            )
            % {"names": ", ".join(bad[:10]) + (" …" if len(bad) > 10 else "")}
        ) from None


# --- parsing --------------------------------------------------------------------------------


@dataclass
class RegisterRow:
    """One line of the file as read, its problems, and what the import will do with it."""

    line: int
    pk: int | None = None
    last_name: str = ""
    first_name: str = ""
    patronymic: str = ""
    club: str = ""
    #: kind → the numbers of that kind in the row (each once, in the file's order).
    numbers: dict[str, list[str]] = field(default_factory=dict)
    #: True / False as written, None when the column is missing or the cell blank.
    hidden: bool | None = None
    #: The columns the file has (a missing column leaves the person's value as it is).
    columns: frozenset[str] = frozenset()
    #: «Column»: rule, in the page's language.
    problems: list[str] = field(default_factory=list)
    #: The person an ID row updates.
    person: Person | None = None
    #: (column, before, after) of the ID row's person, for the preview.
    changes: list[tuple[str, str, str]] = field(default_factory=list)
    #: The register's proposal of a row without ID (services.RowMatch).
    register: services.RowMatch | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def identifiers(self) -> frozenset[tuple[str, str]]:
        return frozenset((kind, v) for kind, values in self.numbers.items() for v in values)

    @property
    def numbers_shown(self) -> str:
        return "; ".join(
            f"{LABELS[kind]}: {', '.join(values)}"
            for kind, values in self.numbers.items()
            if values
        )

    def problem(self, column: str, rule: str) -> None:
        label = LABELS.get(column, column)
        self.problems.append(_("«%(column)s»: %(rule)s") % {"column": label, "rule": rule})


def _expected() -> str:
    return ", ".join(f"«{label}»" for _name, label in COLUMNS)


def _unquote(value: str) -> str:
    """A cell as the export wrote it back to its text: the «'» the export puts before a
    formula-like cell (events.csvsafe) is not part of the name. Cleaned as every name is
    (events.names): a row is checked and matched as it will be stored."""
    value = clean_name(value)
    if len(value) > 1 and value[0] == "'" and value[1] in FORMULA_STARTS:
        return value[1:]
    return value


def parse_bytes(data: bytes) -> tuple[list[RegisterRow], str]:
    """(the rows, the encoding's name) of an uploaded file; :class:`RowError` when the
    whole file is unusable (too big, not text, wrong columns)."""
    text, encoding = roster.decode_csv(data)
    return parse(text), encoding


def parse(text: str) -> list[RegisterRow]:
    """The rows of a CSV with a header row (`;`, `,` or tab separated), each with the
    problems it has on its own and with the other rows."""
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise RowError(
            _("Line %(line)d holds a NUL character: this is not a text file.") % {"line": line}
        )
    reader, rows_of = roster.csv_reader(text)
    try:
        header = next(rows_of)
    except StopIteration:
        raise RowError(_("The file is empty.")) from None
    columns = [roster.column_for(h, HEADERS) for h in header]
    unknown = [h for h, c in zip(header, columns, strict=True) if c is None and h.strip()]
    if unknown:
        raise RowError(
            _("Unknown columns: %(cols)s. Expected columns: %(expected)s.")
            % {"cols": ", ".join(f"«{h.strip()}»" for h in unknown), "expected": _expected()}
        )
    present = frozenset(filter(None, columns))
    if len([c for c in columns if c]) != len(present):
        raise RowError(_("A column appears twice in the header row."))
    if not {"last_name", "first_name"} <= present:
        raise RowError(
            _(
                "The header row needs the columns «%(last)s» and «%(first)s». Expected columns: %(expected)s."
            )
            % {"last": LABELS["last_name"], "first": LABELS["first_name"], "expected": _expected()}
        )
    rows = []
    for values in rows_of:
        if not any(clean_name(v) for v in values):
            continue
        row = RegisterRow(line=reader.line_num, columns=present)
        if len(values) > len(columns):
            row.problems.append(
                _("%(got)d values but the header has %(want)d columns")
                % {"got": len(values), "want": len(columns)}
            )
        data = {c: _unquote(v) for c, v in zip(columns, values, strict=False) if c}
        _read_row(row, data)
        rows.append(row)
        if len(rows) > MAX_ROWS:
            raise RowError(_("At most %(max)d persons at once.") % {"max": MAX_ROWS})
    if not rows:
        raise RowError(_("The file has a header row but no persons."))
    _check_together(rows)
    return rows


def _read_row(row: RegisterRow, data: dict[str, str]) -> None:
    raw_id = data.get("id", "")
    if raw_id:
        if raw_id.isascii() and raw_id.isdigit() and 0 < int(raw_id) < 2**31:
            row.pk = int(raw_id)
        else:
            row.problem(
                "id", _("«%(value)s» is not a whole positive number") % {"value": raw_id[:20]}
            )
    for name in ("last_name", "first_name", "patronymic", "club"):
        value = data.get(name, "")
        if "\x00" in value:
            row.problem(name, _("a NUL character is not allowed"))
        elif len(value) > NAME_MAX:
            row.problem(name, _("longer than %(max)d characters") % {"max": NAME_MAX})
        else:
            setattr(row, name, value)
    for name in ("last_name", "first_name"):
        if not data.get(name):
            row.problem(name, _("empty: this column is required"))
    for kind in (CLUB_CARD, FEDERATION):
        if kind not in row.columns:
            continue
        values: list[str] = []
        for part in data.get(kind, "").split(","):
            value = matching.norm_identifier(part)
            if not value:
                continue
            if len(value) > roster.IDENTIFIER_MAX:
                row.problem(
                    kind,
                    _("%(value)s… is longer than %(max)d characters")
                    % {"value": value[:12], "max": roster.IDENTIFIER_MAX},
                )
            elif value not in values:
                values.append(value)
        row.numbers[kind] = values
    hidden = data.get("hidden", "").casefold()
    if hidden in YES:
        row.hidden = True
    elif hidden in NO:
        row.hidden = False
    elif hidden:
        row.problem(
            "hidden",
            _("«%(value)s» is neither «%(yes)s» nor «%(no)s»")
            % {"value": data["hidden"][:20], "yes": _yes_no(True), "no": _yes_no(False)},
        )


def _check_together(rows: list[RegisterRow]) -> None:
    """Problems of rows with each other: an ID twice, a number twice, a new person twice."""
    ids: dict[int, int] = {}
    numbers: dict[tuple[str, str], int] = {}
    names: dict[tuple[str, str], RegisterRow] = {}
    for row in rows:
        if row.pk is not None:
            if row.pk in ids:
                row.problem(
                    "id", _("ID %(id)d repeats line %(line)d") % {"id": row.pk, "line": ids[row.pk]}
                )
            else:
                ids[row.pk] = row.line
        for kind, value in sorted(row.identifiers):
            if (kind, value) in numbers:
                row.problem(
                    kind,
                    _("%(value)s repeats line %(line)d")
                    % {"value": value, "line": numbers[(kind, value)]},
                )
            else:
                numbers[(kind, value)] = row.line
        if row.pk is None and row.last_name and row.first_name:
            key = (
                matching.name_key(row.last_name, row.first_name, row.patronymic),
                matching.club_key(row.club),
            )
            same = names.get(key)
            if same is not None and not (same.identifiers and row.identifiers):
                row.problem(
                    "last_name",
                    _(
                        "the same name and club as line %(line)d: one row per person (tell "
                        "two namesakes apart by a patronymic or a number)"
                    )
                    % {"line": same.line},
                )
            else:
                names.setdefault(key, row)


# --- against the register -------------------------------------------------------------------


def _numbers_of(person: Person) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {CLUB_CARD: [], FEDERATION: []}
    for identifier in person.identifiers.all():
        found.setdefault(identifier.kind, []).append(identifier.value)
    return {kind: sorted(values) for kind, values in found.items()}


def _released(row: RegisterRow) -> set[tuple[str, str]]:
    """The numbers an ID row takes away from its person (a column present, the number not
    in it any more): free for another row of the file."""
    gone = set()
    for kind, values in _numbers_of(row.person).items():
        if kind in row.columns:
            gone |= {(kind, v) for v in values if v not in row.numbers.get(kind, [])}
    return gone


def _changes(row: RegisterRow) -> list[tuple[str, str, str]]:
    person = row.person
    changes = []
    for name in ("last_name", "first_name", "patronymic", "club"):
        if name in row.columns and getattr(row, name) != getattr(person, name):
            changes.append((str(LABELS[name]), getattr(person, name), getattr(row, name)))
    have = _numbers_of(person)
    for kind in (CLUB_CARD, FEDERATION):
        if kind in row.columns and sorted(row.numbers[kind]) != have.get(kind, []):
            changes.append(
                (str(LABELS[kind]), ", ".join(have.get(kind, [])), ", ".join(row.numbers[kind]))
            )
    if row.hidden is not None and row.hidden != person.hidden:
        changes.append((str(LABELS["hidden"]), _yes_no(person.hidden), _yes_no(row.hidden)))
    return changes


def check(owner, rows: list[RegisterRow]) -> list[services.RowMatch]:
    """Check the rows against ``owner``'s register as it is now: an ID must be one of his
    persons (it then updates him, its changes listed); a number must be nobody else's; a
    row without ID gets the register's proposal, as in the players' import. Returns the
    proposals of the rows without ID (each also on its ``row.register``)."""
    register = services._register(owner)
    asked = {row.pk for row in rows if row.pk is not None and row.pk not in register}
    merged_into = {
        p.pk: p.merged_into
        for p in Person.objects.filter(
            owner=owner, pk__in=asked, merged_into__isnull=False
        ).select_related("merged_into")
    }
    for row in rows:
        if row.pk is not None:
            row.person = register.get(row.pk)
            merged = merged_into.get(row.pk)
            if merged is not None:
                row.problem(
                    "id",
                    _("ID %(id)d was merged into %(person)s: use that ID")
                    % {"id": row.pk, "person": _labelled(merged)},
                )
            elif row.person is None:
                row.problem("id", _("no person with ID %(id)d in your register") % {"id": row.pk})
            else:
                row.changes = _changes(row)
    released = set()
    for row in rows:
        if row.person is not None:
            released |= _released(row)
    held = {
        (i.kind, i.value): p
        for p in register.values()
        for i in p.identifiers.all()
        if (i.kind, i.value) not in released
    }
    for row in rows:
        if row.person is None:
            continue
        for kind, value in sorted(row.identifiers):
            holder = held.get((kind, value))
            if holder is not None and holder.pk != row.person.pk:
                row.problem(
                    kind,
                    _("%(value)s belongs to %(person)s")
                    % {"value": value, "person": _labelled(holder)},
                )

    # The rows without ID: proposed as the players' import's rows are, against the persons
    # sharing a key or a number with them (the numbers released above no longer count).
    by_key: dict = {}
    for person in register.values():
        candidate = services._candidate(person)
        if released:
            candidate = replace(candidate, identifiers=candidate.identifiers - released)
        for key in matching.lookup_keys(person.last_name, person.first_name, person.patronymic):
            by_key.setdefault(key, []).append(candidate)
        for number in candidate.identifiers:
            by_key.setdefault(number, []).append(candidate)
    matches = []
    for index, row in enumerate(rows):
        if row.pk is not None:
            continue
        numbers = row.identifiers
        near = {
            c.id: c
            for key in (
                *matching.lookup_keys(row.last_name, row.first_name, row.patronymic),
                *numbers,
            )
            for c in by_key.get(key, ())
        }
        proposal = matching.propose(
            matching.Row(row.last_name, row.first_name, row.patronymic, row.club, numbers),
            near.values(),
        )
        match = services.RowMatch(
            index=index,
            row=row,
            proposal=proposal,
            persons={c.id: register[c.id] for c in proposal.persons},
        )
        match.holders = {n: held[n] for n in numbers if n in held}
        if proposal.state == matching.NEW:
            match.initial = services.NEW
        elif proposal.state == matching.FOUND:
            match.initial = str(proposal.person.id)
        match.chosen = match.initial
        row.register = match
        matches.append(match)
    return matches


def _labelled(person: Person) -> str:
    return f"{services.person_label(person)} (ID {person.pk})"


def read_choices(rows: list[RegisterRow], matches: list[services.RowMatch], data) -> None:
    """Take the director's choice of every row without ID from ``data`` (the preview's form).
    A row with no valid choice, a number held by another person than the one chosen, or a
    person another row already is, gets its ``problem`` (shown by its select)."""
    for match in matches:
        value = (data.get(match.field_name) or "").strip()
        match.problem = ""
        if not match.persons:
            match.chosen = services.NEW
        elif value == services.NEW or (value.isdigit() and int(value) in match.persons):
            match.chosen = value
        else:
            match.chosen = ""
            match.problem = (
                _("the person chosen is no longer one of the proposals: choose again")
                if value
                else _("choose the person: one of the similar ones or «new person»")
            )
        for (kind, number), holder in sorted(match.holders.items()):
            if match.chosen and str(holder.pk) != match.chosen and not match.problem:
                match.problem = _(
                    "%(kind)s %(value)s belongs to %(person)s: choose that person or correct the list"
                ) % {
                    "kind": PersonIdentifier.Kind(kind).label,
                    "value": number,
                    "person": services.person_label(holder),
                }
    taken = {str(row.person.pk): row.line for row in rows if row.person is not None}
    for match in matches:
        if match.chosen and match.chosen != services.NEW:
            if match.chosen in taken and not match.problem:
                match.problem = _("the same person as on line %(line)d: one row per person") % {
                    "line": taken[match.chosen]
                }
            taken.setdefault(match.chosen, match.row.line)


def refusals(rows: list[RegisterRow], matches: list[services.RowMatch]) -> list[int]:
    """The lines that stop the import: a row's problem or its choice's."""
    bad = {row.line for row in rows if row.problems}
    bad |= {m.row.line for m in matches if m.problem}
    return sorted(bad)


# --- writing --------------------------------------------------------------------------------


@dataclass
class Imported:
    created: int = 0
    updated: int = 0
    linked: int = 0


def import_rows(owner, rows: list[RegisterRow], matches: list[services.RowMatch]) -> Imported:
    """Write every row, in one transaction, or none (a ValidationError): an ID row updates
    its person (the columns the file has), a row without ID creates the new person or joins
    the one chosen (his names kept, «Скрыт: да» honoured); every spelling becomes an alias,
    every number is recorded. New persons, spellings and numbers are written in bulk: a few
    queries in all, plus one per person an ID row changes."""
    if refusals(rows, matches):
        raise ValidationError(_("Some rows have problems; nothing was saved."))
    chosen = {m.row.line: m.chosen for m in matches}
    wanted = {row.person.pk for row in rows if row.person is not None}
    wanted |= {int(c) for c in chosen.values() if c and c != services.NEW}
    done = Imported()
    try:
        with transaction.atomic():
            persons = {
                p.pk: p
                for p in Person.objects.select_for_update().filter(
                    owner=owner, merged_into__isnull=True, pk__in=wanted
                )
            }
            # The numbers the file takes away go first: another row may hold them now.
            gone = [
                identifier.pk
                for row in rows
                if row.person is not None
                for released in [_released(row)]
                for identifier in row.person.identifiers.all()
                if (identifier.kind, identifier.value) in released
            ]
            for start in range(0, len(gone), 500):
                PersonIdentifier.objects.filter(pk__in=gone[start : start + 500]).delete()
            targets = [
                _person_of(owner, row, chosen.get(row.line, ""), persons, done) for row in rows
            ]
            created = [p for p in targets if p.pk is None]
            for person in created:
                # bulk_create does not call save(): the keys it keeps are set here.
                person.key = matching.name_key(
                    person.last_name, person.first_name, person.patronymic
                )
                person.club_key = matching.club_key(person.club)
            Person.objects.bulk_create(created, batch_size=500)
            ids = [p.pk for p in targets]
            spellings = set(
                PersonAlias.objects.filter(person_id__in=ids).values_list(
                    "person_id", "last_name", "first_name", "patronymic", "club"
                )
            )
            numbers = set(
                PersonIdentifier.objects.filter(person_id__in=ids).values_list(
                    "person_id", "kind", "value"
                )
            )
            aliases, identifiers = [], []
            for row, person in zip(rows, targets, strict=True):
                spelling = (person.pk, row.last_name, row.first_name, row.patronymic, row.club)
                if spelling not in spellings:
                    spellings.add(spelling)
                    aliases.append(
                        PersonAlias(
                            person=person,
                            last_name=row.last_name,
                            first_name=row.first_name,
                            patronymic=row.patronymic,
                            club=row.club,
                        )
                    )
                for kind, value in sorted(row.identifiers):
                    if (person.pk, kind, value) not in numbers:
                        numbers.add((person.pk, kind, value))
                        identifiers.append(
                            PersonIdentifier(
                                person=person, owner_id=owner.pk, kind=kind, value=value
                            )
                        )
            PersonAlias.objects.bulk_create(aliases, batch_size=500)
            PersonIdentifier.objects.bulk_create(identifiers, batch_size=500)
    except IntegrityError:
        raise ValidationError(
            _(
                "The register changed while the file was checked; nothing was saved. Check the file again."
            )
        ) from None
    return done


_SPELLING = ("last_name", "first_name", "patronymic", "club")


def _person_of(
    owner, row: RegisterRow, chosen: str, persons: dict[int, Person], done: Imported
) -> Person:
    """The person the row writes to: his, updated (saved here), the one chosen, or a new
    one (not saved yet: created in bulk)."""
    if row.person is not None:
        person = persons.get(row.person.pk)
        if person is None:
            raise ValidationError(
                _("Line %(line)d: the person chosen is no longer in the register.")
                % {"line": row.line}
            )
        if row.changes:
            for name in _SPELLING:
                if name in row.columns:
                    setattr(person, name, getattr(row, name))
            if row.hidden is not None:
                person.hidden = row.hidden
            person.save()
            done.updated += 1
        return person
    if chosen == services.NEW:
        done.created += 1
        return Person(
            owner=owner,
            last_name=row.last_name,
            first_name=row.first_name,
            patronymic=row.patronymic,
            club=row.club,
            hidden=bool(row.hidden),
        )
    person = persons.get(int(chosen)) if chosen.isdigit() else None
    if person is None:
        raise ValidationError(
            _("Line %(line)d: the person chosen is no longer in the register.") % {"line": row.line}
        )
    if row.hidden and not person.hidden:
        person.hidden = True
        person.save(update_fields=["hidden"])
    done.linked += 1
    return person
