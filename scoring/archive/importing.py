"""Recreating an event from its archive under the importing director, in one transaction:
every row is checked field by field as the form of its model would (type, choices, length,
range), every reference must name a row of the archive, and the first fault refuses the
whole file with nothing written."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import IO

from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.utils.translation import gettext as _

from events.actionlog import log_action
from events.models import Draw, Event, Person, PersonAlias, PersonIdentifier
from events.register.matching import club_key, name_key
from scoring.archive import spec
from scoring.archive.errors import ArchiveError
from scoring.archive.reading import read_archive

#: Rows written per INSERT (SQLite takes at most 999 parameters a statement in Django).
BATCH = 500
#: Keys looked up per query when checking that the kept ones are free.
LOOKUP = 500


@dataclass(frozen=True)
class ImportedEvent:
    event: Event
    renewed: bool
    rows: int


def _update_by_pk(model: type[models.Model], objects: list, attnames: list[str]) -> None:
    """Write ``attnames`` of ``objects`` (rows already inserted) back, one UPDATE … CASE per
    batch. Not ``bulk_update``: it builds one ORM expression per row and value, two thirds of
    a big event's import (30,000 rows); this is the same statement, in SQL both backends
    run, each value prepared by its field for this database."""
    qn = connection.ops.quote_name
    pk = qn(model._meta.pk.column)
    fields = [model._meta.get_field(name.removesuffix("_id")) for name in attnames]
    for start in range(0, len(objects), BATCH):
        batch = objects[start : start + BATCH]
        sets, params = [], []
        for f in fields:
            sets.append(f"{qn(f.column)} = CASE {pk}" + " WHEN %s THEN %s" * len(batch) + " END")
            for obj in batch:
                params += [obj.pk, f.get_db_prep_save(getattr(obj, f.attname), connection)]
        where = ", ".join(["%s"] * len(batch))
        params += [obj.pk for obj in batch]
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {qn(model._meta.db_table)} SET {', '.join(sets)} WHERE {pk} IN ({where})",
                params,
            )


def _clean(f: models.Field, value):
    """The value as the field stores it, checked as the model checks it (type, null, choices,
    length, range) — but for «blank», a form's rule: a session's plan may be ``{}``."""
    value = f.to_python(value)
    if value is None:
        if not f.null:
            raise ValidationError(f.error_messages["null"], code="null")
        return None
    if value not in f.empty_values:
        f.validate(value, None)
        f.run_validators(value)
    return value


def _where(part: spec.Part, record) -> str:
    rid = record.get("id") if isinstance(record, dict) else None
    return f"{part.member} (id {rid})"


class _Writer:
    def __init__(self, data: dict[str, list], owner, new_keys: bool):
        self.data, self.owner, self.new_keys = data, owner, new_keys
        self.ids: dict[str, dict[int, int]] = defaultdict(dict)
        self.deferred: list[tuple[spec.Part, models.Model, str, int]] = []
        self.rows = 0

    # --- one row --------------------------------------------------------------------

    def values(self, part: spec.Part, record) -> dict:
        """The row's fields as the model takes them (``attname: value``), references mapped
        to the rows written; an :class:`ArchiveError` naming the member, row and field."""
        if not isinstance(record, dict):
            raise ArchiveError(
                _("%(member)s holds a row that is not an object.") % {"member": part.member}
            )
        fields = part.fields()
        expected = {"id", *(f.attname for f in fields)}
        if set(record) != expected:
            # A field added to the model since the archive was written takes its default; a
            # field this code does not know, or one without a default, refuses the row.
            odd = sorted(
                (set(record) - expected)
                | {
                    f.attname
                    for f in fields
                    if f.attname not in record and not (f.has_default() or f.null)
                }
                | ({"id"} - set(record))
            )
            if odd:
                raise ArchiveError(
                    _("%(where)s: the field «%(field)s» is missing or unknown.")
                    % {"where": _where(part, record), "field": odd[0]}
                )
            record = {
                f.attname: f.get_default() for f in fields if f.attname not in record
            } | record
        if type(record["id"]) is not int:
            raise ArchiveError(
                _("%(where)s: the id is not a number.") % {"where": _where(part, record)}
            )
        values = {}
        for f in fields:
            value = record[f.attname]
            if f.is_relation:
                values[f.attname] = self.reference(part, record, f, value)
            elif self.new_keys and f.name in part.renew:
                values[f.attname] = part.renew[f.name]()
            else:
                try:
                    values[f.attname] = _clean(f, value)
                except ValidationError as error:
                    raise ArchiveError(
                        _("%(where)s, field «%(field)s»: %(error)s")
                        % {
                            "where": _where(part, record),
                            "field": f.name,
                            "error": " ".join(error.messages),
                        }
                    ) from None
        return values

    def reference(self, part: spec.Part, record: dict, f, value):
        if value is None:
            if not f.null:
                raise ArchiveError(
                    _("%(where)s, field «%(field)s»: cannot be empty.")
                    % {"where": _where(part, record), "field": f.name}
                )
            return None
        there = spec.target(f)
        if there == spec.USER:
            return self.owner.pk
        if type(value) is not int:
            raise ArchiveError(
                _("%(where)s, field «%(field)s»: not an id.")
                % {"where": _where(part, record), "field": f.name}
            )
        if spec.is_deferred(part, f):
            return None  # written once its part is (see finish)
        new = self.ids[there].get(value)
        if new is None:
            raise ArchiveError(
                _(
                    "%(where)s, field «%(field)s»: refers to row %(id)s of %(other)s, which the archive does not hold."
                )
                % {
                    "where": _where(part, record),
                    "field": f.name,
                    "id": value,
                    "other": there,
                }
            )
        return new

    # --- one part ---------------------------------------------------------------------

    def records(self, part: spec.Part) -> list:
        records = self.data[part.member]
        ids = [r.get("id") for r in records if isinstance(r, dict)]
        if len(set(ids)) != len(ids):
            raise ArchiveError(_("%(member)s holds a row twice.") % {"member": part.member})
        return records

    def write(self, part: spec.Part, extra: dict | None = None) -> list[models.Model]:
        records = self.records(part)
        fields = part.fields()
        stamped = [
            f.attname
            for f in fields
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]
        deferred = [f for f in fields if f.is_relation and spec.is_deferred(part, f)]
        objects, olds, stamps = [], [], []
        for record in records:
            values = self.values(part, record)
            if part.model is Draw:
                values["numbers"] = self.draw_numbers(part, record, values["numbers"])
            objects.append(part.model(**values, **(extra or {})))
            olds.append(record["id"])
            stamps.append({name: values[name] for name in stamped})
            for f in deferred:
                if record.get(f.attname) is not None:
                    self.deferred.append((part, objects[-1], f.attname, record[f.attname]))
        part.model.objects.bulk_create(objects, batch_size=BATCH)
        # auto_now(_add) stamped the rows with this moment: they keep the archive's.
        if stamped and objects:
            for obj, values in zip(objects, stamps, strict=True):
                for name, value in values.items():
                    setattr(obj, name, value)
            _update_by_pk(part.model, objects, stamped)
        mapping = self.ids[part.label]
        for old, obj in zip(olds, objects, strict=True):
            mapping[old] = obj.pk
        self.rows += len(objects)
        return objects

    def draw_numbers(self, part: spec.Part, record: dict, numbers) -> dict:
        """A draw's ``{entry id: number}`` names the players by their ids: the new ones."""
        if not isinstance(numbers, dict):
            raise ArchiveError(
                _("%(where)s: the numbers drawn are not a table.") % {"where": _where(part, record)}
            )
        entries = self.ids["events.entry"]
        mapped = {}
        for old, number in numbers.items():
            new = entries.get(int(old)) if str(old).isdigit() else None
            if new is None:
                raise ArchiveError(
                    _("%(where)s: the draw names player %(id)s, whom the archive does not hold.")
                    % {"where": _where(part, record), "id": old}
                )
            mapped[str(new)] = number
        return mapped

    # --- the register's persons -----------------------------------------------------

    def persons(self) -> None:
        """The players' persons, found in the importing director's register (by a number
        they carry, else by name and club when one person alone has them) or added to it
        with their spellings and numbers."""
        person_part = spec.BY_MODEL[Person]
        alias_part = spec.BY_MODEL[PersonAlias]
        ident_part = spec.BY_MODEL[PersonIdentifier]
        persons = self.records(person_part)
        known = {r["id"] for r in persons if isinstance(r, dict)}
        aliases, idents = defaultdict(list), defaultdict(list)
        for part, into in ((alias_part, aliases), (ident_part, idents)):
            for record in self.records(part):
                if not isinstance(record, dict) or record.get("person_id") not in known:
                    raise ArchiveError(
                        _("%(where)s: refers to a person the archive does not hold.")
                        % {"where": _where(part, record)}
                    )
                values = {
                    f.attname: _clean(f, record.get(f.attname)) if not f.is_relation else None
                    for f in part.fields()
                }
                values.pop("person_id", None)
                into[record["person_id"]].append(values)
        mine = Person.objects.filter(owner=self.owner, merged_into__isnull=True)
        for record in persons:
            values = self.values(person_part, record)
            found = None
            for ident in idents[record["id"]]:
                found = mine.filter(
                    identifiers__kind=ident["kind"], identifiers__value=ident["value"]
                ).first()
                if found:
                    break
            if found is None:
                same = list(
                    mine.filter(
                        key=name_key(
                            values["last_name"], values["first_name"], values["patronymic"]
                        ),
                        club_key=club_key(values["club"]),
                    )[:2]
                )
                found = same[0] if len(same) == 1 else None
            if found is None:
                found = Person(owner=self.owner, **values)
                found.save()
                PersonAlias.objects.bulk_create(
                    PersonAlias(person=found, **a) for a in aliases[record["id"]]
                )
                taken = PersonIdentifier.objects.filter(owner=self.owner)
                for ident in idents[record["id"]]:
                    if not taken.filter(kind=ident["kind"], value=ident["value"]).exists():
                        PersonIdentifier(person=found, **ident).save()
                self.rows += 1
            self.ids[person_part.label][record["id"]] = found.pk

    # --- the whole -----------------------------------------------------------------

    def check_keys_free(self) -> None:
        """Kept keys must not be some other event's on this server."""
        for part in spec.PARTS:
            for name in part.renew:
                values = [r.get(name) for r in self.data[part.member] if isinstance(r, dict)]
                for start in range(0, len(values), LOOKUP):
                    chunk = values[start : start + LOOKUP]
                    if part.model.objects.filter(**{f"{name}__in": chunk}).exists():
                        raise ArchiveError(
                            _(
                                "This event (or one of its links) is already on this server: "
                                "import it with new keys, or delete the copy here first."
                            )
                        )

    def run(self) -> Event:
        event_part = spec.PARTS[0]
        if len(self.data[event_part.member]) != 1:
            raise ArchiveError(_("The archive must hold exactly one event."))
        if not self.new_keys:
            self.check_keys_free()
        for part in spec.PARTS:
            if part.model is Event:
                self.write(part, {"owner": self.owner})
            elif part.model is Person:
                self.persons()
            elif part.model in (PersonAlias, PersonIdentifier):
                continue  # with their persons
            else:
                self.write(part)
        self.finish()
        return Event.objects.get(pk=next(iter(self.ids[event_part.label].values())))

    def finish(self) -> None:
        """The references to later parts (a sheet's current version)."""
        by_part = defaultdict(list)
        for part, obj, attname, old in self.deferred:
            there = spec.target(part.model._meta.get_field(attname))
            new = self.ids[there].get(old)
            if new is None:
                raise ArchiveError(
                    _(
                        "%(member)s refers to row %(id)s of %(other)s, which the archive does not hold."
                    )
                    % {"member": part.member, "id": old, "other": there}
                )
            setattr(obj, attname, new)
            by_part[(part.model, attname)].append(obj)
        for (model, attname), objects in by_part.items():
            _update_by_pk(model, objects, [attname])


def archive_import(file: IO[bytes], owner, *, new_keys: bool = False) -> ImportedEvent:
    """Recreate the event of ``file`` under ``owner``; keys kept unless ``new_keys``.
    :class:`ArchiveError` (nothing written) when the file is refused."""
    _manifest, data = read_archive(file)
    writer = _Writer(data, owner, new_keys)
    try:
        with transaction.atomic():
            event = writer.run()
            log_action(event, owner, "event.create", after={"name": event.name, "archive": True})
    except ValidationError as error:
        raise ArchiveError(" ".join(error.messages)) from None
    except IntegrityError as error:
        raise ArchiveError(
            _("The archive's rows contradict each other or this server's: %(error)s")
            % {"error": str(error).splitlines()[0] if str(error) else error.__class__.__name__}
        ) from None
    except DatabaseError as error:
        raise ArchiveError(
            _("The archive holds a value this database refuses: %(error)s")
            % {"error": str(error).splitlines()[0] if str(error) else error.__class__.__name__}
        ) from None
    return ImportedEvent(event=event, renewed=new_keys, rows=writer.rows)
