"""``manage.py event_import FILE [--owner LOGIN] [--new-keys]``: recreate an event from its
archive; prints ``{"event": id, "slug": …}``. A refused file: exit 1, its reason, nothing
written."""

import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from scoring.archive import ArchiveError, archive_import


def default_owner():
    """The first director: the oldest superuser (``ensure_director`` makes him), else the one
    account there is."""
    users = get_user_model().objects.filter(is_active=True).order_by("pk")
    first = users.filter(is_superuser=True).first()
    if first is not None:
        return first
    if users.count() == 1:
        return users.get()
    raise CommandError(
        "Say whose event it will be: --owner LOGIN (укажите директора: --owner ЛОГИН)."
    )


class Command(BaseCommand):
    help = (
        "Recreate an event from its archive under a director (default: the first superuser); "
        'keys kept unless --new-keys. Prints {"event": id, "slug": …}.'
    )

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--owner", metavar="LOGIN", help="default: the first director")
        parser.add_argument(
            "--new-keys",
            action="store_true",
            help="new public address and private links (the kept ones are taken here)",
        )

    def handle(self, *args, file, owner, new_keys, **options):
        if owner:
            user = get_user_model().objects.filter(username=owner, is_active=True).first()
            if user is None:
                raise CommandError(f"No director «{owner}» (нет директора «{owner}»).")
        else:
            user = default_owner()
            self.stderr.write(f"Imported under the first director: {user.get_username()}")
        try:
            with open(file, "rb") as archive:
                done = archive_import(archive, user, new_keys=new_keys)
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror or error}") from None
        except ArchiveError as error:
            raise CommandError(f"{file}: {error}") from None
        self.stdout.write(json.dumps({"event": done.event.pk, "slug": done.event.slug}))
