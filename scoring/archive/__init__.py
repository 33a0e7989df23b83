"""A whole event as one file (issue 35; docs/event-archive.md): a zip of JSON, one member
per table of rows, with a manifest of checksums. ``export.event_archive`` writes it,
``importing.archive_import`` recreates the event from it under another director, on another
server — or refuses it, naming why, with nothing written."""

from scoring.archive.errors import ArchiveError
from scoring.archive.export import event_archive
from scoring.archive.importing import ImportedEvent, archive_import

__all__ = ["ArchiveError", "ImportedEvent", "archive_import", "event_archive"]
