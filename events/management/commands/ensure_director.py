"""Make sure a director can log in on a fresh install, and say how."""

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Create the first director account (superuser) if there is none and print how to log in."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="director")
        parser.add_argument(
            "--password",
            default=None,
            help="Password for a newly created account (default: DIRECTOR_PASSWORD or a random one).",
        )

    def handle(self, *args, username, password, **options):
        import os

        User = get_user_model()
        note = settings.VAR_DIR / "first-login.txt"
        if User.objects.filter(is_superuser=True).exists():
            existing = User.objects.filter(is_superuser=True).order_by("pk").first()
            hint = f" (first password in {note})" if note.exists() else ""
            self.stdout.write(f"Director account: {existing.get_username()}{hint}.")
            return
        password = password or os.environ.get("DIRECTOR_PASSWORD") or secrets.token_urlsafe(9)
        if len(password) < 8:
            raise CommandError("The director's password must be at least 8 characters long.")
        User.objects.create_superuser(username=username, email="", password=password)
        note.write_text(f"username: {username}\npassword: {password}\n")
        note.chmod(0o600)
        self.stdout.write(
            self.style.SUCCESS(
                f"Created the director account.\n  Log in at /director/login/ as «{username}» "
                f"with password «{password}»\n  (kept in {note}; change it with "
                f"`python manage.py changepassword {username}`)."
            )
        )
