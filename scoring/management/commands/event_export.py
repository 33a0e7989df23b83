"""``manage.py event_export ID [-o FILE]``: the whole event as one archive (docs/event-archive.md)."""

import sys

from django.core.management.base import BaseCommand, CommandError

from events.models import Event
from scoring.archive import event_archive


class Command(BaseCommand):
    help = "Write an event's whole archive (zip of JSON, docs/event-archive.md) to FILE or stdout."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int, metavar="ID", help="the event's id")
        parser.add_argument("-o", "--output", metavar="FILE", help="default: standard output")

    def handle(self, *args, event_id, output, **options):
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"No event with id {event_id} (нет турнира с номером {event_id}).")
        if output:
            with open(output, "wb") as out:
                manifest = event_archive(event, out)
            rows = sum(m["rows"] for m in manifest["members"].values())
            self.stderr.write(f"Event {event_id} «{event.name}»: {rows} rows → {output}")
        else:
            event_archive(event, sys.stdout.buffer)
            sys.stdout.buffer.flush()
