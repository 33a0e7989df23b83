"""The worker's backups (events.backups): after a round ends, and the beat's sweep every
minute (a backup every 10 minutes while a round runs). Imported by EventsConfig.ready,
which registers the tasks and the receiver of a round's end."""

import logging

from celery import shared_task

from events import backups
from events.signals import round_ended

logger = logging.getLogger("events.backups")


@shared_task(name="events.backup_after_round", ignore_result=True)
def backup_after_round(session_id: int) -> str:
    made = backups.backup_after_round(session_id)
    if made is not None:
        logger.info("backup after a round of session %s: %s", session_id, made.path.name)
    return str(made.path) if made else ""


@shared_task(name="events.backup_sweep", ignore_result=True, expires=50)
def backup_sweep() -> str:
    made = backups.backup_sweep()
    if made is not None:
        logger.info("backup while a round runs: %s", made.path.name)
    return str(made.path) if made else ""


round_ended.connect(backups.queue_after_round, dispatch_uid="events.backups.after_round")
