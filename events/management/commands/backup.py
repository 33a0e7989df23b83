"""``manage.py backup [--to DIR]``: a backup of the database now; prints its path."""

from django.core.management.base import BaseCommand, CommandError

from events.backups import BackupError, backup_make


class Command(BaseCommand):
    help = (
        "Back the database up now: SQLite's online backup into var/backups/ (rotated), or "
        "pg_dump on PostgreSQL. Prints the file's path."
    )

    def add_arguments(self, parser):
        parser.add_argument("--to", metavar="DIR", help="default: var/backups/ (rotated there)")

    def handle(self, *args, to, **options):
        try:
            made = backup_make(to)
        except (BackupError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(str(made.path))
