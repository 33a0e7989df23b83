"""The server's backups (events/backups.py) for its directors: when each was made, and — for
the server's own director — the files."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from events import backups


@login_required
def backup_list(request):
    """The backups, newest first; ``?download=<name>`` takes one. A backup holds the whole
    server's database, every director's events: only the server's own director (a
    superuser, as ``make run`` makes him) takes the files; the others see when they were
    made."""
    found = list(reversed(backups.backups_list()))
    wanted = request.GET.get("download")
    if wanted is not None:
        if not request.user.is_superuser:
            raise PermissionDenied(_("Only the server's director may download its backups."))
        backup = next((b for b in found if b.path.name == wanted), None)
        if backup is None:
            raise Http404(_("No such backup."))
        response = FileResponse(open(backup.path, "rb"), as_attachment=True, filename=wanted)  # noqa: SIM115
        response["Cache-Control"] = "private, no-store"
        return response
    return render(
        request,
        "director/backups.html",
        {"backups": found, "automatic": backups.embedded(), "keep": backups.KEEP},
    )
