"""``manage.py event_staff EVENT_ID LOGIN --role ROLE [--rooms 1,2] [--password P] [--remove]``:
set up an event's team from the server's command line (issue 34), through the same service
as the event's «Судейская бригада» page; prints the team afterwards."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, no_translations

from events.models import Event, EventStaff
from events.staff import staff_add, staff_list, staff_remove


def _rooms(text: str) -> list[int]:
    numbers = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or int(part) < 1:
            raise CommandError(
                f"--rooms takes room numbers separated by commas (e.g. 1,2), not {text!r}."
            )
        numbers.append(int(part))
    return numbers


class Command(BaseCommand):
    help = (
        "Add a staff member to an event (an existing account, or a new one with --password), "
        "change his role, or take him off with --remove. Prints the event's team."
    )

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int, metavar="EVENT_ID")
        parser.add_argument("login", metavar="LOGIN")
        parser.add_argument(
            "--role", choices=EventStaff.Role.values, help="required unless --remove"
        )
        parser.add_argument("--rooms", default="", help="the room director's rooms, e.g. 1,2")
        parser.add_argument(
            "--password", default=None, help="creates the account LOGIN if there is none"
        )
        parser.add_argument(
            "--remove", action="store_true", help="take LOGIN off the event's staff"
        )

    # In English, as the other commands and argparse's own messages speak.
    @no_translations
    def handle(self, *args, event_id, login, role, rooms, password, remove, **options):
        event = Event.objects.filter(pk=event_id).select_related("owner").first()
        if event is None:
            raise CommandError(f"No event has the id {event_id}.")
        try:
            if remove:
                if role or rooms or password:
                    raise CommandError("--remove takes no --role, --rooms or --password.")
                staff_remove(event, login, by_user=None)
            else:
                if not role:
                    raise CommandError("Give the staff member's --role (or --remove).")
                numbers = _rooms(rooms) if rooms else []
                if numbers and role != EventStaff.Role.ROOM:
                    raise CommandError(
                        f"--rooms is for the role {EventStaff.Role.ROOM.value!r} only."
                    )
                if role == EventStaff.Role.ROOM and not numbers:
                    raise CommandError(
                        f"The role {EventStaff.Role.ROOM.value!r} needs --rooms (e.g. --rooms 1,2)."
                    )
                staff_add(event, login, role, numbers, password, by_user=None)
        except ValidationError as error:
            raise CommandError(
                "; ".join(
                    f"{field}: {' '.join(messages)}"
                    for field, messages in error.message_dict.items()
                )
            ) from None
        for member in staff_list(event):
            rooms = ",".join(str(n) for n in member["rooms"])
            self.stdout.write(f"{member['login']}\t{member['role']}\t{rooms}".rstrip())
