from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events")

    def ready(self):
        # Their receivers: failed logins are counted; a round's clock change reaches the
        # clock documents.
        from events import clockdoc, throttle  # noqa: F401
