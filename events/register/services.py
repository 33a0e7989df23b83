"""Linking an event's players to the persons of the register, with the director's word
(issue 24; docs/register.md).

A list (the CSV import, «Вставить список») or the add form is first *proposed*
(:func:`propose_rows`): every row gets what the register says of it («новый», «найден»,
«несколько похожих») and the choices the director has. The page shows them; what he sends
back (:func:`read_choices`) is checked against the proposals made again at that moment, and
:func:`import_linked` saves the players linked to the persons chosen, creating the new ones,
keeping each new spelling as an alias and each number given. Nothing is linked otherwise.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from events import roster, services, signals
from events.models import Entry, Event, Person, PersonAlias, PersonIdentifier
from events.names import clean_name
from events.register import matching

#: The value of «новый человек» in a row's choice.
NEW = "new"
#: No choice: a row of «несколько похожих» sent through the API with no choice joins the
#: event unlinked; the director links him later on his edit page (:func:`entry_link`).
LATER = ""
#: The CSV columns of a row's numbers → the identifier's kind.
ROW_IDENTIFIERS = {
    "club_card": PersonIdentifier.Kind.CLUB_CARD,
    "federation": PersonIdentifier.Kind.FEDERATION,
}


@dataclass
class RowMatch:
    """What the register proposes for one row, and the director's choices."""

    index: int
    row: object
    proposal: matching.Proposal
    #: person id → Person, of the persons the row may be linked to.
    persons: dict[int, Person] = field(default_factory=dict)
    #: The choice preselected: the person found, «new», or "" (he must choose).
    initial: str = ""
    #: What he chose (after :func:`read_choices`), else the preselected one.
    chosen: str = ""
    #: What is wrong with the choice sent (after :func:`read_choices`), shown by its select.
    problem: str = ""
    #: The row's numbers some person already holds: (kind, value) → that person.
    holders: dict[tuple[str, str], Person] = field(default_factory=dict)

    @property
    def field_name(self) -> str:
        return f"person_{self.index}"

    @property
    def state(self) -> str:
        return self.proposal.state

    @property
    def found(self) -> Person | None:
        person = self.proposal.person
        return self.persons.get(person.id) if person else None

    @property
    def found_label(self) -> str:
        """«Фамилия Имя (клуб)» of the person found."""
        c = self.proposal.person
        if c is None:
            return ""
        name = " ".join(p for p in (c.last_name, c.first_name, c.patronymic) if p)
        return f"{name} ({c.club})" if c.club else name

    @property
    def label(self) -> str:
        """«новый», «найден: Фамилия Имя (клуб)» or «несколько похожих», in his language."""
        if self.state == matching.NEW:
            return pgettext("register", "new")
        if self.state == matching.FOUND:
            return _("found: %(person)s") % {"person": self.found_label}
        return _("several similar")

    @property
    def options(self) -> list[tuple[str, str]]:
        """(value, label) of the row's select: each person, then «новый человек»."""
        return [(str(pk), person_label(p)) for pk, p in self.persons.items()] + [
            (NEW, _("new person"))
        ]


def person_label(person: Person) -> str:
    return f"{person.full_name} ({person.club})" if person.club else person.full_name


def _candidate(person: Person) -> matching.Candidate:
    return matching.Candidate(
        id=person.pk,
        last_name=person.last_name,
        first_name=person.first_name,
        patronymic=person.patronymic,
        club=person.club,
        identifiers=frozenset((i.kind, i.value) for i in person.identifiers.all()),
    )


def row_identifiers(row) -> frozenset[tuple[str, str]]:
    """The (kind, value) numbers a row carries (its «Клубная карта», «Номер ФСПР»)."""
    found = set()
    for attr, kind in ROW_IDENTIFIERS.items():
        value = matching.norm_identifier(getattr(row, attr, ""))
        if value:
            found.add((kind.value, value))
    return frozenset(found)


def _patronymic(row) -> str:
    """A row's «Отчество» (the CSV's optional column; the entry itself has none)."""
    return getattr(row, "patronymic", "") or ""


def _register(owner) -> dict[int, Person]:
    """The owner's persons matching proposes; a person merged into another is no longer one
    of them (his events are the kept person's now)."""
    return {
        p.pk: p
        for p in Person.objects.filter(owner=owner, merged_into=None).prefetch_related(
            "identifiers"
        )
    }


def propose_rows(event: Event, rows: list) -> list[RowMatch]:
    """The register's proposal for every row; a row whose only proposal is a person already
    playing in this event gets that problem (two players of one event are never one
    person), and such persons are no choice for any row."""
    register = _register(event.owner)
    held = {(i.kind, i.value): p for p in register.values() for i in p.identifiers.all()}
    # Each row is matched against the persons sharing a key or a number with it only (the
    # rules compare nothing else), not the whole register: a 2,000-row list stays quick.
    by_key: dict[str, list[matching.Candidate]] = {}
    for person in register.values():
        candidate = _candidate(person)
        for key in matching.lookup_keys(person.last_name, person.first_name, person.patronymic):
            by_key.setdefault(key, []).append(candidate)
        for number in candidate.identifiers:
            by_key.setdefault(number, []).append(candidate)
    in_event = {
        e.person_id: e for e in event.entries.exclude(person__isnull=True).only("person", "number")
    }
    matches = []
    for index, row in enumerate(rows):
        numbers = row_identifiers(row)
        near = {
            c.id: c
            for key in (
                *matching.lookup_keys(row.last_name, row.first_name, _patronymic(row)),
                *numbers,
            )
            for c in by_key.get(key, ())
        }
        proposal = matching.propose(
            matching.Row(
                row.last_name,
                row.first_name,
                _patronymic(row),
                club=row.club,
                identifiers=numbers,
            ),
            near.values(),
        )
        persons = {c.id: register[c.id] for c in proposal.persons if c.id not in in_event}
        match = RowMatch(index=index, row=row, proposal=proposal, persons=persons)
        match.holders = {n: held[n] for n in row_identifiers(row) if n in held}
        taken = [c for c in proposal.persons if c.id in in_event]
        if proposal.state == matching.FOUND and taken:
            row.problems.append(
                _("%(person)s is already playing in this event")
                % {"person": person_label(register[taken[0].id])}
            )
        if proposal.state == matching.NEW:
            match.initial = NEW
        elif proposal.state == matching.FOUND and persons:
            match.initial = str(proposal.person.id)
        elif not persons:
            # Every similar person is already in the event: this one can only be new.
            match.initial = NEW
        match.chosen = match.initial
        row.register = match
        matches.append(match)
    return matches


def needs_choice(matches: list[RowMatch]) -> bool:
    """Whether any row has a person to confirm or to choose."""
    return any(m.persons for m in matches)


def read_choices(matches: list[RowMatch], data) -> None:
    """Take the director's choice of every row from ``data`` (the form sent). A row with
    persons to choose from and no valid choice gets its ``problem``, shown by its select."""
    for match in matches:
        value = (data.get(match.field_name) or "").strip()
        match.problem = ""
        if not match.persons:
            match.chosen = NEW
        elif value == NEW or (value.isdigit() and int(value) in match.persons):
            match.chosen = value
        else:
            match.chosen = ""
            match.problem = (
                _("the person chosen is no longer one of the proposals: choose again")
                if value
                else _("choose the person: one of the similar ones or «new person»")
            )
        if match.chosen:
            _check_numbers(match)
    chosen: dict[str, int] = {}
    for match in matches:
        if match.chosen and match.chosen != NEW:
            if match.chosen in chosen and not match.problem:
                match.problem = _(
                    "the same person as on line %(line)d: two players of one event are "
                    "never one person"
                ) % {"line": chosen[match.chosen]}
            chosen.setdefault(match.chosen, match.row.line)


def choice_problems(matches: list[RowMatch]) -> int:
    """How many rows' choices :func:`read_choices` refused."""
    return sum(1 for m in matches if m.problem)


def _check_numbers(match: RowMatch) -> None:
    """A number of the row held by another person than the one chosen: a problem."""
    for (kind, value), holder in sorted(match.holders.items()):
        if str(holder.pk) != match.chosen and not match.problem:
            match.problem = _number_taken(kind, value, holder)


def _number_taken(kind: str, value: str, holder: Person) -> str:
    return _("%(kind)s %(value)s belongs to %(person)s: choose that person or correct the list") % {
        "kind": PersonIdentifier.Kind(kind).label,
        "value": value,
        "person": person_label(holder),
    }


def import_linked(
    event: Event, rows: list, matches: list[RowMatch], *, by_user=None
) -> list[Entry]:
    """Save every row linked to its chosen person, or none (a ValidationError); ``by_user``:
    the director, for the event's log."""
    try:
        with transaction.atomic():
            entries = services.entries_import(event, rows, by_user=by_user)
            register = _register(event.owner)
            held = {
                (i.kind, i.value): i.person_id
                for i in PersonIdentifier.objects.filter(owner=event.owner)
            }
            for entry, row, match in zip(entries, rows, matches, strict=True):
                if match.chosen != LATER:
                    entry.person = _person_for(event, row, match, register, held)
            Entry.objects.bulk_update(entries, ["person"])
    except IntegrityError:
        raise ValidationError(
            _(
                "A person chosen has just been entered in this event; nothing was saved. Check the list again."
            )
        ) from None
    return entries


def _person_for(event, row, match: RowMatch, register: dict[int, Person], held) -> Person:
    if match.chosen == NEW:
        person = Person.objects.create(
            owner=event.owner,
            last_name=row.last_name,
            first_name=row.first_name,
            patronymic=_patronymic(row),
            club=row.club,
        )
    else:
        person = register.get(int(match.chosen))
        if person is None:
            raise ValidationError(
                _("Line %(line)d: the person chosen is no longer in the register.")
                % {"line": row.line}
            )
    PersonAlias.objects.get_or_create(
        person=person,
        last_name=row.last_name,
        first_name=row.first_name,
        patronymic=_patronymic(row),
        club=row.club,
    )
    for kind, value in sorted(row_identifiers(row)):
        holder = held.get((kind, value))
        if holder is None:
            PersonIdentifier.objects.create(person=person, kind=kind, value=value)
            held[(kind, value)] = person.pk
        elif holder != person.pk:
            raise ValidationError(
                _("Line %(line)d: %(why)s.")
                % {
                    "line": row.line,
                    "why": _number_taken(kind, value, Person.objects.get(pk=holder)),
                }
            )
    return person


def create_linked(event: Event, match: RowMatch, **fields) -> Entry:
    """The add form's player (``services.entry_create``'s fields) linked to his chosen
    person, in one transaction."""
    try:
        with transaction.atomic():
            entry = services.entry_create(event, **fields)
            held = {
                (i.kind, i.value): i.person_id
                for i in PersonIdentifier.objects.filter(owner=event.owner)
            }
            if match.chosen != LATER:
                entry.person = _person_for(event, match.row, match, _register(event.owner), held)
                entry.save(update_fields=["person"])
    except IntegrityError:
        raise ValidationError(
            _("The person chosen has just been entered in this event; nothing was saved.")
        ) from None
    return entry


def shown_token(*texts: str) -> str:
    """What a page of proposals carries back: a digest of what was proposed for, so that
    choices made for another text are never read as this one's."""
    return hashlib.sha256("\x1f".join(texts).encode()).hexdigest()[:32]


def register_search(owner, query: str):
    """The owner's persons whose name key holds the query's key (ё = е, case, spaces and
    hyphens ignored), whose club does, or who hold the number typed; nobody merged into
    another person."""
    persons = Person.objects.filter(owner=owner, merged_into=None)
    query = (query or "").strip()
    if not query:
        return persons
    key = matching.name_key(query, "")
    number = matching.norm_identifier(query)
    found = Q(identifiers__value=number)
    if key:
        found |= Q(key__contains=key) | Q(club_key__contains=key)
    return persons.filter(found).distinct()


def person_update(person: Person, *, numbers: dict[str, list[str]], **fields) -> Person:
    """Save a person's names, club, «hidden» and his numbers (kind → the values he holds).
    A number another person of the register holds is refused on its field, naming him.
    His events' players keep their names and clubs as published."""
    for name in ("last_name", "first_name", "patronymic", "club"):
        if name in fields:
            setattr(person, name, clean_name(fields[name]))
    if "hidden" in fields:
        person.hidden = bool(fields["hidden"])
    person.full_clean(exclude=["owner"])
    errors = {}
    with transaction.atomic():
        for kind, values in numbers.items():
            taken = (
                PersonIdentifier.objects.filter(owner=person.owner, kind=kind, value__in=values)
                .exclude(person=person)
                .select_related("person")
            )
            for other in taken:
                errors.setdefault(kind, []).append(
                    _("%(value)s already belongs to %(person)s.")
                    % {"value": other.value, "person": person_label(other.person)}
                )
        if errors:
            raise ValidationError(errors)
        person.save()
        for kind, values in numbers.items():
            person.identifiers.filter(kind=kind).exclude(value__in=values).delete()
            have = set(person.identifiers.filter(kind=kind).values_list("value", flat=True))
            for value in values:
                if value not in have:
                    PersonIdentifier.objects.create(person=person, kind=kind, value=value)
    return person


def choices_read(matches: list[RowMatch], choices: dict | None) -> list[str]:
    """The API's choices — line → a person's id or «new» — read as the pages read theirs
    (:func:`read_choices`). A line with no choice takes what the page preselects: the person
    found, or a new person; «несколько похожих» with no choice joins unlinked (``LATER``),
    for the director to link on the player's edit page. The problems, each naming its line."""
    given = {str(line).strip(): str(value).strip() for line, value in (choices or {}).items()}
    by_line = {str(m.row.line): m for m in matches}
    problems = [
        _("line %(line)s: there is no such line in the list") % {"line": line}
        for line in given
        if line not in by_line
    ]
    for line, match in by_line.items():
        value = given.get(line)
        if value is None:
            match.chosen, match.problem = match.initial or LATER, ""
            if match.chosen != LATER:
                _check_numbers(match)
        elif not match.persons and value != NEW:
            match.problem = _("nobody in the register can be chosen here: only «new»")
        else:
            read_choices([match], {match.field_name: value})
    chosen: dict[str, int] = {}
    for match in matches:
        if match.chosen not in (NEW, LATER) and not match.problem:
            if match.chosen in chosen:
                match.problem = _(
                    "the same person as on line %(line)d: two players of one event are "
                    "never one person"
                ) % {"line": chosen[match.chosen]}
            chosen.setdefault(match.chosen, match.row.line)
    problems += [
        _("line %(line)d: %(problem)s") % {"line": m.row.line, "problem": m.problem}
        for m in matches
        if m.problem
    ]
    return problems


def entry_row(entry: Entry):
    """A player as a row of a list, to match against the register."""
    return roster.RosterRow(
        line=1, last_name=entry.last_name, first_name=entry.first_name, club=entry.club
    )


def entry_match(entry: Entry) -> RowMatch:
    """What the register proposes for a player of the event, as for the add form's."""
    (match,) = propose_rows(entry.event, [entry_row(entry)])
    return match


def entry_join(event: Event, *, person: str | None = None, **fields) -> tuple[Entry, RowMatch]:
    """One player joins the event (``services.entry_create``'s fields), matched against the
    register as the add form matches him; ``person`` is the choice (a person's id or
    «new»), none: the page's preselection (:func:`choices_read`). A refusal names the field."""
    row = roster.RosterRow(
        line=1,
        last_name=clean_name(fields.get("last_name", "")),
        first_name=clean_name(fields.get("first_name", "")),
        club=clean_name(fields.get("club", "")),
    )
    (match,) = propose_rows(event, [row])
    problems = choices_read([match], None if person in (None, "") else {1: person})
    if row.problems or problems:
        why = "; ".join([*row.problems, *(m.problem for m in [match] if m.problem)])
        raise ValidationError({"person": [why]})
    return create_linked(event, match, **fields), match


def entry_link(entry: Entry, choice: str) -> Entry:
    """Link a player who joined unlinked (through the API before it matched, or left for
    later among «несколько похожих») to one of the persons the register proposes for his
    name and club, or to a new person: as the add form links. The owner's ladder is
    replayed after commit (``register_changed``)."""
    if entry.person_id is not None:
        raise ValidationError(
            {
                "person": _("%(name)s is already linked to %(person)s.")
                % {"name": entry.full_name, "person": person_label(entry.person)}
            }
        )
    match = entry_match(entry)
    value = (choice or "").strip()
    if value != NEW and not (value.isdigit() and int(value) in match.persons):
        raise ValidationError(
            {
                "person": _("the person chosen is no longer one of the proposals: choose again")
                if value
                else _("choose the person: one of the similar ones or «new person»")
            }
        )
    match.chosen = value
    owner_id = entry.event.owner_id
    try:
        with transaction.atomic():
            locked = Entry.objects.select_for_update().get(pk=entry.pk)
            if locked.person_id is not None:
                raise ValidationError({"person": _("This player has just been linked.")})
            locked.person = _person_for(
                entry.event, match.row, match, _register(entry.event.owner), {}
            )
            locked.save(update_fields=["person"])
            transaction.on_commit(
                lambda: signals.register_changed.send(sender=Person, owner_id=owner_id),
                robust=False,
            )
    except IntegrityError:
        raise ValidationError(
            {"person": _("The person chosen is already playing in this event.")}
        ) from None
    return locked
