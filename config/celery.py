import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("preference")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.setup_logging.connect
def _use_django_logging(**kwargs):
    """The worker and its beat log through settings.LOGGING, the same quiet rules as the web
    server, instead of Celery's own set-up (which logs every task twice)."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)
