"""``{% last_backup as backup %}``: the newest backup of the evening (events/backups.py) as
``backup.latest`` (None before the first), and ``backup.automatic``: whether the worker
makes them here (the embedded default)."""

from dataclasses import dataclass

from django import template

from events import backups

register = template.Library()


@dataclass(frozen=True)
class BackupState:
    latest: backups.Backup | None
    automatic: bool


@register.simple_tag
def last_backup():
    return BackupState(backups.backup_latest(), backups.embedded())
