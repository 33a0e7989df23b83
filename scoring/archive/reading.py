"""Reading an archive someone hands the server, trusting nothing in it: the zip's names and
sizes are checked before a byte is inflated, each member is inflated no further than it
declares, its SHA-256 must be the manifest's, and its JSON is bounded in size and depth."""

from __future__ import annotations

import hashlib
import zipfile
import zlib
from typing import IO

from django.utils.translation import gettext as _

from events import jsondepth
from scoring.archive import spec
from scoring.archive.errors import ArchiveError

MB = 1024 * 1024
#: The most an archive may inflate to in all: an event of 100 tables and 3 sessions of 8
#: rounds is 9 MB of JSON, 0.6 MB packed (bench/bench_archive.py).
MAX_TOTAL = 200 * MB
#: The most one member may inflate to.
MAX_MEMBER = 64 * MB
#: The most a member may inflate per compressed byte (the big event's members compress up to
#: 26 : 1; a zip bomb, 1000 : 1), checked on members above :data:`RATIO_FROM`.
MAX_RATIO = 100
RATIO_FROM = 1 * MB
#: Deepest JSON of a member: a list of rows, their fields, a field's document (a sheet: 3).
MAX_DEPTH = 12


def _unsafe(name: str) -> bool:
    parts = name.replace("\\", "/").split("/")
    return (
        name.startswith(("/", "\\"))
        or "\\" in name
        or ":" in name
        or any(p in ("..", ".", "") for p in parts)
    )


def _inflate(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    try:
        with archive.open(info) as member:
            body = member.read(info.file_size + 1)
    # zipfile's NotImplementedError: a member packed by a method it cannot read (e.g. AES).
    except (zipfile.BadZipFile, EOFError, zlib.error, OSError, NotImplementedError) as error:
        raise ArchiveError(
            _("The archive is damaged or cut short: %(member)s cannot be read (%(error)s).")
            % {"member": info.filename, "error": error}
        ) from None
    if len(body) != info.file_size:
        raise ArchiveError(
            _("The archive is damaged: %(member)s is not the size it declares.")
            % {"member": info.filename}
        )
    return body


def _check_sizes(infos: list[zipfile.ZipInfo]) -> None:
    total = sum(i.file_size for i in infos)
    if total > MAX_TOTAL:
        raise ArchiveError(
            _("The archive would take %(size)s MB unpacked; at most %(most)s MB is accepted.")
            % {"size": total // MB, "most": MAX_TOTAL // MB}
        )
    for info in infos:
        if info.file_size > MAX_MEMBER:
            raise ArchiveError(
                _("%(member)s would take %(size)s MB unpacked; at most %(most)s MB is accepted.")
                % {"member": info.filename, "size": info.file_size // MB, "most": MAX_MEMBER // MB}
            )
        if info.file_size > RATIO_FROM and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise ArchiveError(
                _(
                    "%(member)s unpacks %(ratio)s times its packed size (at most %(most)s): "
                    "this is not an archive of this app."
                )
                % {
                    "member": info.filename,
                    "ratio": info.file_size // max(info.compress_size, 1),
                    "most": MAX_RATIO,
                }
            )


def _check_names(infos: list[zipfile.ZipInfo]) -> None:
    names = [i.filename for i in infos]
    for name in names:
        if _unsafe(name):
            raise ArchiveError(
                _("The archive holds a file with an unsafe path: «%(name)s».") % {"name": name}
            )
    if len(set(names)) != len(names):
        raise ArchiveError(_("The archive holds a file twice."))
    unexpected = sorted(set(names) - spec.MEMBERS)
    if unexpected:
        raise ArchiveError(
            _("The archive holds a file this format does not have: «%(name)s».")
            % {"name": unexpected[0]}
        )
    if spec.MANIFEST not in names:
        raise ArchiveError(_("The archive has no manifest.json: it is not an event archive."))


def _json(body: bytes, member: str):
    try:
        return jsondepth.loads(body, most=MAX_DEPTH)
    except jsondepth.TooDeep as error:
        raise ArchiveError(
            _("%(member)s is JSON nested %(depth)s levels deep (at most %(most)s).")
            % {"member": member, "depth": error.depth, "most": error.most}
        ) from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ArchiveError(
            _("%(member)s is not valid JSON (%(error)s).") % {"member": member, "error": error}
        ) from None


def _check_manifest(manifest, present: set[str]) -> dict:
    if not isinstance(manifest, dict) or manifest.get("format") != spec.FORMAT:
        raise ArchiveError(_("manifest.json does not describe an event archive of this app."))
    version = manifest.get("version")
    if version != spec.VERSION:
        raise ArchiveError(
            _(
                "The archive's format version is %(version)s; this server reads version "
                "%(ours)s only."
            )
            % {"version": version, "ours": spec.VERSION}
        )
    members = manifest.get("members")
    expected = spec.MEMBERS - {spec.MANIFEST}
    if not isinstance(members, dict) or set(members) != expected or present != expected:
        missing = sorted(expected - present) or sorted(expected - set(members or {}))
        raise ArchiveError(
            _("The archive lacks %(member)s.") % {"member": missing[0] if missing else "?"}
        )
    return members


def read_archive(file: IO[bytes]) -> tuple[dict, dict[str, list]]:
    """The manifest and each member's rows; :class:`ArchiveError` when anything is off."""
    try:
        archive = zipfile.ZipFile(file)
        infos = archive.infolist()
    except (zipfile.BadZipFile, EOFError, OSError, ValueError):
        raise ArchiveError(
            _("The file is not a zip archive, or it is cut short (an incomplete download?).")
        ) from None
    with archive:
        _check_names(infos)
        _check_sizes(infos)
        by_name = {i.filename: i for i in infos}
        manifest = _json(_inflate(archive, by_name[spec.MANIFEST]), spec.MANIFEST)
        members = _check_manifest(manifest, set(by_name) - {spec.MANIFEST})
        data = {}
        for name, described in members.items():
            body = _inflate(archive, by_name[name])
            wanted = described.get("sha256") if isinstance(described, dict) else None
            if hashlib.sha256(body).hexdigest() != wanted:
                raise ArchiveError(
                    _("%(member)s does not match its checksum in the manifest.") % {"member": name}
                )
            rows = _json(body, name)
            if not isinstance(rows, list):
                raise ArchiveError(_("%(member)s is not a list of rows.") % {"member": name})
            data[name] = rows
    return manifest, data
