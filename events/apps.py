from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events")

    def ready(self):
        # Its receivers: a round's clock change reaches the clock documents; a round's end
        # queues the evening's backup (events/backup_tasks.py). (Failed logins are axes' to
        # count: events/throttle.py.)
        from events import backup_tasks, clockdoc  # noqa: F401
