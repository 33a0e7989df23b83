"""A whole event as one file (issue 35, docs/event-archive.md): exported, imported under
another director (here, and from one backend into the other), identical on every public
page; and every hostile or broken archive refused with nothing written."""

from __future__ import annotations

import hashlib
import io
import json
import os
import struct
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command

from tests.events.archive_scenario import build, normalized_pages

ROOT = Path(__file__).resolve().parents[2]


# --- the archive carries every model of an event ------------------------------------------


def _linked_to_event() -> set:
    """Every model with a chain of foreign keys to Event (accounts left aside)."""
    from django.contrib.auth import get_user_model

    from events.models import Event

    linked, grew = {Event}, True
    while grew:
        grew = False
        for model in apps.get_models():
            if model in linked:
                continue
            for f in model._meta.concrete_fields:
                target = f.related_model if f.is_relation else None
                if target in linked and target is not get_user_model():
                    linked.add(model)
                    grew = True
                    break
    return linked


def test_every_model_linked_to_an_event_is_in_the_archive_or_left_out_with_a_reason():
    from scoring.archive import spec

    carried = {part.model for part in spec.PARTS}
    missing = {m._meta.label for m in _linked_to_event() - carried - set(spec.LEFT_OUT)}
    assert not missing, f"give these an archive part or a reason in LEFT_OUT: {missing}"
    assert all(spec.LEFT_OUT.values())
    # Every reference of a part points at another part or an account.
    for part in spec.PARTS:
        for f in part.fields():
            if f.is_relation:
                spec.target(f)


# --- an event through its archive ---------------------------------------------------------


@pytest.fixture
def played(director):
    return build(director)


def _first_difference(expected: dict, found: dict) -> str:
    """Where two sets of answers first differ, with the text around it."""
    if set(expected) != set(found):
        return f"addresses differ: {sorted(set(expected) ^ set(found))[:5]}"
    for url, answer in expected.items():
        if found[url] != answer:
            a, b = str(answer), str(found[url])
            at = next(
                (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                min(len(a), len(b)),
            )
            return f"{url}:\n  {a[max(0, at - 150) : at + 80]}\n  {b[max(0, at - 150) : at + 80]}"
    return ""


def _archive(event) -> bytes:
    from scoring.archive import event_archive

    out = io.BytesIO()
    event_archive(event, out)
    return out.getvalue()


def _counts(event) -> dict[str, int]:
    from scoring.archive import spec

    return {part.label: part.rows(event).count() for part in spec.PARTS}


@pytest.mark.django_db
def test_an_imported_event_shows_every_public_page_as_the_original(played, other_director):
    from scoring.archive import archive_import

    done = archive_import(io.BytesIO(_archive(played)), other_director, new_keys=True)
    copy = done.event
    assert copy.pk != played.pk and copy.slug != played.slug
    assert copy.owner == other_director
    assert _counts(copy) == _counts(played)
    original, imported = normalized_pages(played.pk), normalized_pages(copy.pk)
    assert len(original) > 100
    assert all(status == 200 for status, _, _ in original.values())
    assert imported == original, _first_difference(original, imported)


@pytest.mark.django_db
def test_it_keeps_sheets_versions_times_and_the_deals_seed(played, other_director):
    from scoring.archive import archive_import
    from scoring.models import ScoreSheetVersion

    copy = archive_import(io.BytesIO(_archive(played)), other_director, new_keys=True).event

    def sheets(event):
        return list(
            ScoreSheetVersion.objects.filter(sheet__play__round__room__session__event=event)
            .order_by("pk")
            .values_list("number", "data", "result", "note", "created_at", "sheet__status")
        )

    assert sheets(copy) == sheets(played)
    assert max(n for n, *_ in sheets(copy)) == 2  # the correction kept beside the first entry
    first, again = (e.sessions.get(number=1) for e in (played, copy))
    assert (again.deal_seed, again.deal_seed_hash) == (first.deal_seed, first.deal_seed_hash)
    assert again.created_at == first.created_at


@pytest.mark.django_db
def test_the_keys_are_kept_by_default_and_a_kept_key_taken_here_is_refused(played, other_director):
    from events.models import Event
    from scoring.archive import ArchiveError, archive_import

    data = _archive(played)
    before = Event.objects.count()
    with pytest.raises(ArchiveError, match="уже есть на этом сервере"):
        archive_import(io.BytesIO(data), other_director)
    assert Event.objects.count() == before
    # Once the original is gone, the same file takes its address and links back.
    keys = sorted(played.entries.values_list("key", flat=True))
    slug = played.slug
    from events.models import Seat
    from scoring.models import ScoreSheet

    # (No page deletes an event: its seats and sheets' versions are protected.)
    ScoreSheet.objects.filter(play__round__room__session__event=played).update(current=None)
    Seat.objects.filter(round__room__session__event=played).delete()
    played.delete()
    copy = archive_import(io.BytesIO(data), other_director).event
    assert copy.slug == slug
    assert sorted(copy.entries.values_list("key", flat=True)) == keys


@pytest.mark.django_db
def test_the_players_persons_are_found_in_the_importers_register_or_added(
    played, director, other_director
):
    from events.models import Person
    from scoring.archive import archive_import

    data = _archive(played)
    archive_import(io.BytesIO(data), other_director, new_keys=True)
    archive_import(io.BytesIO(data), other_director, new_keys=True)
    mine = Person.objects.filter(owner=other_director)
    assert mine.count() == 1  # added by the first import, found by the second
    assert mine.get().entries.count() == 2


# --- the commands --------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_commands_export_to_a_file_or_stdout_and_import_printing_the_new_event(
    played, other_director, tmp_path, capsys
):
    from events.models import Event

    path = tmp_path / "event.zip"
    call_command("event_export", str(played.pk), "-o", str(path))
    stdout = io.BytesIO()

    class Out:
        buffer = stdout

    real = sys.stdout
    sys.stdout = Out()
    try:
        call_command("event_export", str(played.pk))
    finally:
        sys.stdout = real
    assert zipfile.ZipFile(stdout).namelist() == zipfile.ZipFile(path).namelist()
    capsys.readouterr()
    call_command("event_import", str(path), "--owner", other_director.username, "--new-keys")
    said = json.loads(capsys.readouterr().out)
    copy = Event.objects.get(pk=said["event"])
    assert copy.slug == said["slug"] and copy.owner == other_director


@pytest.mark.django_db
def test_the_import_command_refuses_a_bad_file_or_owner_with_a_message(played, tmp_path):
    from events.models import Event

    bad = tmp_path / "bad.zip"
    bad.write_bytes(_archive(played)[:-200])
    before = Event.objects.count()
    with pytest.raises(CommandError, match="zip"):
        call_command("event_import", str(bad))
    with pytest.raises(CommandError, match="nobody"):
        call_command("event_import", str(bad), "--owner", "nobody")
    with pytest.raises(CommandError, match="No event with id"):
        call_command("event_export", "999999")
    assert Event.objects.count() == before


# --- the director's buttons ----------------------------------------------------------------


@pytest.mark.django_db
def test_the_director_downloads_his_event_whole_and_nobody_else_does(
    played, director, client, other_client
):
    client.force_login(director)
    page = client.get(f"/director/events/{played.pk}/").content.decode()
    assert "Скачать турнир целиком" in page
    url = f"/director/events/{played.pk}/archive.zip"
    answer = client.get(url)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/zip"
    assert f"{played.slug}.zip" in answer["Content-Disposition"]
    assert "manifest.json" in zipfile.ZipFile(io.BytesIO(answer.content)).namelist()
    assert other_client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the login page


@pytest.mark.django_db
def test_a_director_loads_an_event_from_its_file_under_his_own_name(
    played, other_director, other_client
):
    from events.models import Event

    assert "Загрузить турнир" in other_client.get("/director/").content.decode()
    upload = io.BytesIO(_archive(played))
    upload.name = "event.zip"
    answer = other_client.post("/director/events/load/", {"archive": upload, "new_keys": "on"})
    copy = Event.objects.filter(owner=other_director).get()
    assert answer.status_code == 302 and answer["Location"] == f"/director/events/{copy.pk}/"
    assert copy.name == played.name and copy.slug != played.slug


@pytest.mark.django_db
def test_the_load_form_refuses_a_bad_file_in_russian_and_saves_nothing(
    played, other_director, other_client
):
    from events.models import Event

    before = Event.objects.count()
    upload = io.BytesIO(_archive(played)[:1000])
    upload.name = "event.zip"
    answer = other_client.post("/director/events/load/", {"archive": upload})
    assert answer.status_code == 400
    assert "Файл — не zip-архив или он обрезан" in answer.content.decode()
    kept = io.BytesIO(_archive(played))
    kept.name = "event.zip"
    answer = other_client.post("/director/events/load/", {"archive": kept})
    assert answer.status_code == 400
    assert "уже есть на этом сервере" in answer.content.decode()
    assert Event.objects.count() == before


# --- refusals: nothing written -------------------------------------------------------------


def _rebuild(data: bytes, *, change=None, drop=(), add=None, manifest=None) -> bytes:
    """The archive with members changed (their checksums made right again), dropped or added;
    ``manifest(dict)`` edits the manifest last."""
    source = zipfile.ZipFile(io.BytesIO(data))
    bodies = {n: source.read(n) for n in source.namelist() if n != "manifest.json"}
    described = json.loads(source.read("manifest.json"))
    for name, body in (change or {}).items():
        bodies[name] = body
        described["members"][name]["sha256"] = hashlib.sha256(body).hexdigest()
    for name in drop:
        bodies.pop(name)
    if manifest:
        manifest(described)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, body in {**bodies, **(add or {})}.items():
            z.writestr(name, body)
        z.writestr("manifest.json", json.dumps(described))
    return out.getvalue()


def _rows(data: bytes, member: str) -> list:
    return json.loads(zipfile.ZipFile(io.BytesIO(data)).read(member))


def _refused(data: bytes, owner, match: str) -> None:
    from events.models import Entry, Event
    from scoring.archive import ArchiveError, archive_import
    from scoring.models import ScoreSheet

    before = Event.objects.count(), Entry.objects.count(), ScoreSheet.objects.count()
    with pytest.raises(ArchiveError, match=match):
        archive_import(io.BytesIO(data), owner, new_keys=True)
    assert (Event.objects.count(), Entry.objects.count(), ScoreSheet.objects.count()) == before


@pytest.fixture
def archive(played):
    return _archive(played)


@pytest.mark.django_db
@pytest.mark.usefixtures("en")
class TestRefusals:
    def test_an_unknown_format_version(self, archive, other_director):
        data = _rebuild(archive, manifest=lambda m: m.update(version=2))
        _refused(data, other_director, "format version is 2; this server reads version 1")

    def test_a_file_that_is_not_an_event_archive(self, archive, other_director):
        data = _rebuild(archive, manifest=lambda m: m.update(format="something else"))
        _refused(data, other_director, "does not describe an event archive")

    def test_a_broken_checksum(self, archive, other_director):
        member = "data/events.entry.json"
        described = json.loads(zipfile.ZipFile(io.BytesIO(archive)).read("manifest.json"))
        kept = described["members"][member]["sha256"]
        data = _rebuild(
            archive,
            change={member: b"[]"},
            manifest=lambda m: m["members"][member].update(sha256=kept),
        )
        _refused(data, other_director, "does not match its checksum")

    def test_a_truncated_archive(self, archive, other_director):
        _refused(archive[: len(archive) // 2], other_director, "cut short")
        _refused(b"", other_director, "not a zip archive")

    def test_a_member_packed_by_a_method_this_server_cannot_read(self, archive, other_director):
        # zipfile raises NotImplementedError for a compression method it does not know (99:
        # AES): a damaged archive to the importer, not a crash.
        data = bytearray(archive)
        at = data.find(b"PK\x01\x02")
        while at != -1:
            name_length = struct.unpack_from("<H", data, at + 28)[0]
            if bytes(data[at + 46 : at + 46 + name_length]) != b"manifest.json":
                struct.pack_into("<H", data, at + 10, 99)
                break
            at = data.find(b"PK\x01\x02", at + 1)
        _refused(bytes(data), other_director, "cannot be read")

    def test_a_missing_member(self, archive, other_director):
        data = _rebuild(archive, drop=["data/scoring.scoresheet.json"])
        _refused(data, other_director, "lacks data/scoring.scoresheet.json")

    @pytest.mark.parametrize("name", ["../evil.json", "/etc/evil.json", "data/../../x.json"])
    def test_a_path_trick(self, archive, other_director, name):
        _refused(_rebuild(archive, add={name: b"[]"}), other_director, "unsafe path")

    def test_an_unexpected_member(self, archive, other_director):
        data = _rebuild(archive, add={"data/auth.user.json": b"[]"})
        _refused(data, other_director, "format does not have: «data/auth.user.json»")

    def test_a_zip_bomb_by_its_ratio(self, archive, other_director):
        bomb = b"[" + b" " * (8 * 1024 * 1024) + b"]"
        data = _rebuild(archive, change={"data/events.draw.json": bomb})
        _refused(data, other_director, "unpacks .* times its packed size")

    def test_a_zip_bomb_by_its_declared_size(self, archive, other_director):
        # The central directory claims 300 MB for a member: refused before inflating it.
        data = bytearray(archive)
        at = data.find(b"PK\x01\x02")
        struct.pack_into("<I", data, at + 24, 300 * 1024 * 1024)
        _refused(bytes(data), other_director, "300 MB unpacked")

    def test_a_member_larger_than_it_declares(self, archive, other_director):
        data = bytearray(archive)
        at = data.find(b"PK\x01\x02")
        (size,) = struct.unpack_from("<I", data, at + 24)
        struct.pack_into("<I", data, at + 24, max(size - 5, 0))
        _refused(bytes(data), other_director, "damaged")

    def test_a_hundred_megabytes_of_json(self, archive, other_director):
        big = b'["' + b"x" * (100 * 1024 * 1024) + b'"]'
        data = _rebuild(archive, change={"data/events.draw.json": big})
        _refused(data, other_director, "at most 64 MB")

    def test_json_nested_too_deep(self, archive, other_director):
        deep = b"[" * 40 + b"]" * 40
        data = _rebuild(archive, change={"data/events.draw.json": deep})
        _refused(data, other_director, "nested 40 levels deep")

    def test_a_reference_to_a_row_not_in_the_archive(self, archive, other_director):
        member = "data/events.seat.json"
        rows = _rows(archive, member)
        rows[-1]["entry_id"] = 987654
        data = _rebuild(archive, change={member: json.dumps(rows).encode()})
        _refused(data, other_director, "refers to row 987654 of events.entry")

    def test_a_draw_naming_a_player_not_in_the_archive(self, archive, other_director):
        member = "data/events.draw.json"
        rows = _rows(archive, member)
        rows[0]["numbers"] = {"987654": 1}
        data = _rebuild(archive, change={member: json.dumps(rows).encode()})
        _refused(data, other_director, "names player 987654")

    def test_a_value_the_field_does_not_take(self, archive, other_director):
        member = "data/events.round.json"
        rows = _rows(archive, member)
        rows[-1]["state"] = "exploded"
        data = _rebuild(archive, change={member: json.dumps(rows).encode()})
        _refused(data, other_director, "field «state»")

    def test_an_unknown_field(self, archive, other_director):
        member = "data/events.entry.json"
        rows = _rows(archive, member)
        rows[0]["is_superuser"] = True
        data = _rebuild(archive, change={member: json.dumps(rows).encode()})
        _refused(data, other_director, "«is_superuser» is missing or unknown")

    def test_a_late_fault_leaves_nothing_of_the_rows_before_it(self, archive, other_director):
        member = "data/scoring.talonrefusal.json"  # the last parts: everything else written
        data = _rebuild(archive, change={member: json.dumps([{"id": 1}]).encode()})
        _refused(data, other_director, "missing or unknown")


@pytest.mark.django_db
def test_an_archive_older_than_a_field_gives_the_field_its_default(archive, other_director):
    """An archive written before a field was added (here: a table-round's «late») imports,
    the field taking its default; an empty document (a session's plan ``{}``) is a value."""
    from scoring.archive import archive_import

    member = "data/events.tableplay.json"
    rows = _rows(archive, member)
    for row in rows:
        del row["late"]
    sessions = _rows(archive, "data/events.session.json")
    sessions[0]["plan"] = {}
    data = _rebuild(
        archive,
        change={
            member: json.dumps(rows).encode(),
            "data/events.session.json": json.dumps(sessions).encode(),
        },
    )
    copy = archive_import(io.BytesIO(data), other_director, new_keys=True).event
    from scoring.models import TablePlay

    plays = TablePlay.objects.filter(round__room__session__event=copy)
    assert plays.count() == len(rows) and not plays.filter(late=True).exists()
    assert copy.sessions.get(number=1).plan == {}


# --- from one backend into the other -------------------------------------------------------


def _pg_server() -> str | None:
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else None


def _run(env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _shell(env: dict, code: str) -> None:
    _run(env, "shell", "-c", code)


@pytest.fixture
def two_servers(tmp_path):
    """An embedded server (SQLite, own var/) and a PostgreSQL one (own database, own var/),
    both migrated, each with its director."""
    import psycopg2

    server = _pg_server()
    parsed = urlparse(server)
    name = f"{parsed.path.lstrip('/') or 'preference'}_archive_{uuid.uuid4().hex[:6]}"
    admin = psycopg2.connect(
        host=parsed.hostname or "127.0.0.1",
        port=parsed.port or 5432,
        user=parsed.username or "postgres",
        password=parsed.password or None,
        dbname="postgres",
    )
    admin.autocommit = True
    with admin.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{name}"')
    base = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    sqlite = {**base, "VAR_DIR": str(tmp_path / "sqlite")}
    postgres = {
        **base,
        "VAR_DIR": str(tmp_path / "postgres"),
        "DATABASE_URL": parsed._replace(path=f"/{name}").geturl(),
        "REDIS_URL": os.environ["REDIS_URL"],
    }
    make = "from django.contrib.auth import get_user_model; "
    for env, login in ((sqlite, "left"), (postgres, "right")):
        Path(env["VAR_DIR"]).mkdir()
        _run(env, "migrate", "--noinput", "-v0")
        _shell(env, make + f"get_user_model().objects.create_superuser('{login}', password='x')")
    try:
        yield sqlite, postgres
    finally:
        with admin.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                [name],
            )
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.close()


def _event_through(source: dict, target: dict, tmp_path: Path, tag: str) -> None:
    """Play an event on ``source``, carry it to ``target`` by its archive, and compare
    every public page and API answer of the two."""
    # An event of another director first, so that the two servers' ids differ.
    _shell(
        source,
        "from django.contrib.auth import get_user_model; "
        "from tests.events.archive_scenario import build; "
        "build(get_user_model().objects.create_user('other', password='x'))",
    )
    ids = tmp_path / f"{tag}-id.json"
    _shell(
        source,
        "import json; from django.contrib.auth import get_user_model; "
        "from tests.events.archive_scenario import build; "
        f"open({str(ids)!r}, 'w').write(json.dumps(build("
        "get_user_model().objects.filter(is_superuser=True).get()).pk))",
    )
    event_id = json.loads(ids.read_text())
    archive = tmp_path / f"{tag}.zip"
    _run(source, "event_export", str(event_id), "-o", str(archive))
    said = json.loads(_run(target, "event_import", str(archive)))
    pages = {}
    for env, pk, side in ((source, event_id, "source"), (target, said["event"], "target")):
        path = tmp_path / f"{tag}-{side}.json"
        _shell(
            env,
            "from tests.events.archive_scenario import dump_normalized; "
            f"dump_normalized({pk}, {str(path)!r})",
        )
        pages[side] = json.loads(path.read_text())
    assert len(pages["source"]) > 100
    assert all(status == 200 for status, _, _ in pages["source"].values())
    assert pages["target"] == pages["source"], _first_difference(pages["source"], pages["target"])


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.skipif(not _pg_server(), reason="needs the PostgreSQL server of the suite's half")
def test_an_event_played_on_sqlite_imported_into_postgresql_shows_the_same_pages(
    two_servers, tmp_path
):
    sqlite, postgres = two_servers
    _event_through(sqlite, postgres, tmp_path, "to-postgres")


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.skipif(not _pg_server(), reason="needs the PostgreSQL server of the suite's half")
def test_an_event_played_on_postgresql_imported_into_sqlite_shows_the_same_pages(
    two_servers, tmp_path
):
    sqlite, postgres = two_servers
    _event_through(postgres, sqlite, tmp_path, "to-sqlite")


@pytest.mark.django_db
def test_the_import_writes_back_many_batches_of_rows_whole_on_either_backend(event):
    """The import's hand-written UPDATE … CASE (scoring.archive.importing): rows over several
    batches, two columns at once (a datetime prepared by its field, a text), every row
    written and no other touched — on the suite's backend, PostgreSQL or SQLite."""
    from datetime import UTC, datetime, timedelta

    from events.models import Entry
    from scoring.archive import importing

    count = importing.BATCH * 2 + 7
    Entry.objects.bulk_create(
        Entry(event=event, number=n, last_name=f"Игроков{n}", first_name="Игорь")
        for n in range(1, count + 1)
    )
    rows = list(Entry.objects.filter(event=event).order_by("number"))
    start = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    for row in rows:
        row.created_at = start + timedelta(seconds=row.number)
        row.club = f"Клуб {row.number % 7}"
    importing._update_by_pk(Entry, rows[:-1], ["created_at", "club"])
    found = {e.number: (e.created_at, e.club) for e in Entry.objects.filter(event=event)}
    for n in range(1, count):
        assert found[n] == (start + timedelta(seconds=n), f"Клуб {n % 7}")
    assert found[count][0] != start + timedelta(seconds=count) and found[count][1] == ""
