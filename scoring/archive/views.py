"""The director's whole-event archive (docs/event-archive.md): «Скачать турнир целиком» on
his event's page, «Загрузить турнир» on his events list."""

from __future__ import annotations

import io

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from events.access import director_event
from scoring.archive import ArchiveError, archive_import, event_archive
from scoring.archive.export import archive_name
from scoring.archive.reading import MAX_TOTAL

#: The largest file the form takes (the archive packed; unpacked it is checked again).
MAX_UPLOAD = MAX_TOTAL // 2


class ArchiveUploadForm(forms.Form):
    archive = forms.FileField(
        label=gettext_lazy("Event archive (.zip)"),
        help_text=gettext_lazy("A file made by «Download the whole event» on any server."),
    )
    new_keys = forms.BooleanField(
        label=gettext_lazy("New address and new links"),
        required=False,
        help_text=gettext_lazy(
            "Leave unticked to keep the public address and the players' and tables' links "
            "(when this server takes the old one's place); tick it for a copy beside the "
            "original."
        ),
    )

    def clean_archive(self):
        upload = self.cleaned_data["archive"]
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(
                _("The file is %(size)s MB; at most %(most)s MB is accepted.")
                % {"size": upload.size // (1024 * 1024), "most": MAX_UPLOAD // (1024 * 1024)}
            )
        return upload


@director_event
def event_archive_download(request, event):
    out = io.BytesIO()
    event_archive(event, out)
    response = HttpResponse(out.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{archive_name(event)}"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
def event_archive_upload(request):
    form = ArchiveUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            done = archive_import(
                form.cleaned_data["archive"], request.user, new_keys=form.cleaned_data["new_keys"]
            )
        except ArchiveError as error:
            form.add_error("archive", str(error))
        else:
            messages.success(
                request,
                _("Event «%(name)s» loaded from its archive.") % {"name": done.event.name},
            )
            return redirect(done.event)
    return render(
        request,
        "director/event_import.html",
        {"form": form},
        status=400 if form.errors else 200,
    )
