"""The last backup of the evening on the director's event page (events/backups.py)."""

from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404
from django.utils.translation import gettext as _

from events import backups
from events.access import director_event


@director_event
def backup_latest_download(request, event):
    """The newest backup file. It holds the whole server's database, every director's
    events: only the server's own director (a superuser, as ``make run`` makes him) takes it."""
    if not request.user.is_superuser:
        raise PermissionDenied(_("Only the server's director may download its backups."))
    latest = backups.backup_latest()
    if latest is None:
        raise Http404(_("No backup has been made yet."))
    response = FileResponse(open(latest.path, "rb"), as_attachment=True, filename=latest.path.name)  # noqa: SIM115
    response["Cache-Control"] = "private, no-store"
    return response
