"""``manage.py restore FILE``: put a backup in place of the embedded database (the current
one kept as a backup first). Refused, with nothing changed, while ``make run`` serves it or
when FILE is not a database of this app."""

from django.core.management.base import BaseCommand, CommandError

from events.backups import BackupError, restore


class Command(BaseCommand):
    help = (
        "Restore the embedded database from a backup (var/backups/…sqlite3); the current one "
        "is kept as a backup first. Stop the server (make run) before."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE")

    def handle(self, *args, file, **options):
        try:
            kept = restore(file)
        except (BackupError, OSError) as error:
            raise CommandError(str(error)) from None
        if kept is not None:
            self.stdout.write(f"The database before the restore is kept in {kept.path}")
        self.stdout.write(f"Restored from {file}. Start the server again: make run")
