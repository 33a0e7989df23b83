"""Writing an event's archive: every part's rows as JSON, and the manifest of their sizes and
SHA-256 sums."""

from __future__ import annotations

import datetime
import decimal
import hashlib
import json
import zipfile
from typing import IO

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.duration import duration_iso_string

from events.models import Event
from scoring.archive import spec


def _encode(value):
    """A value as JSON writes it and the field's ``to_python`` reads it back exactly."""
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return duration_iso_string(value)
    if isinstance(value, decimal.Decimal):
        return str(value)
    return value


def part_records(part: spec.Part, event: Event, logins: dict[int, str]) -> list[dict]:
    """The part's rows of ``event``: ``{"id": …, field: value, fk_id: old id …}``."""
    fields = part.fields()
    names = ["pk", *(f.attname for f in fields)]
    users = {f.attname for f in fields if f.is_relation and spec.target(f) == spec.USER}
    rows = list(part.rows(event).order_by("pk").values_list(*names))
    wanted = {row[i + 1] for row in rows for i, f in enumerate(fields) if f.attname in users}
    missing = wanted - logins.keys() - {None}
    if missing:
        logins.update(get_user_model().objects.filter(pk__in=missing).values_list("pk", "username"))
    records = []
    for row in rows:
        record = {"id": row[0]}
        for f, value in zip(fields, row[1:], strict=True):
            if f.attname in users:
                record[f.attname] = None if value is None else logins.get(value, "")
            else:
                record[f.attname] = _encode(value)
        records.append(record)
    return records


def _dump(records: list[dict]) -> bytes:
    return json.dumps(records, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def event_archive(event: Event, out: IO[bytes]) -> dict:
    """Write ``event``'s archive to ``out`` (a binary file); return its manifest. Every part
    is read from one snapshot of the database, so an archive taken while sheets are saved is
    one moment of the evening (SQLite's transaction is one; PostgreSQL's is asked for)."""
    logins: dict[int, str] = {}
    members: dict[str, dict] = {}
    outermost = not transaction.get_connection().in_atomic_block
    with (
        transaction.atomic(),
        zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive,
    ):
        connection = transaction.get_connection()
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        for part in spec.PARTS:
            records = part_records(part, event, logins)
            body = _dump(records)
            members[part.member] = {
                "sha256": hashlib.sha256(body).hexdigest(),
                "size": len(body),
                "rows": len(records),
            }
            archive.writestr(part.member, body)
        manifest = {
            "format": spec.FORMAT,
            "version": spec.VERSION,
            "exported_at": timezone.now().isoformat(),
            "event": {"id": event.pk, "slug": event.slug, "name": event.name},
            "members": members,
        }
        archive.writestr(spec.MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))
    return manifest


def archive_name(event: Event) -> str:
    """The file's name: the event's date and public address (ASCII, safe in any header)."""
    return f"event-{event.date:%Y-%m-%d}-{event.slug}.zip"
