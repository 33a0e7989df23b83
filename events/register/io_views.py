"""The register's CSV export and import pages (docs/register.md, «Импорт и экспорт
реестра»): the director's own register only. Views only translate; events.register.io
reads, checks and writes."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from events import roster
from events.models import Person
from events.register import io, services
from events.register.forms import RegisterImportConfirmForm, RegisterImportForm


def _persons(owner):
    """The register exported: a person merged into another is not one of its rows (his
    numbers and events are the kept person's)."""
    return Person.objects.filter(owner=owner, merged_into__isnull=True).prefetch_related(
        "identifiers"
    )


@login_required
@require_GET
def register_export(request):
    encoding = request.GET.get("encoding", "utf-8")
    if encoding not in io.ENCODINGS:
        return HttpResponseBadRequest(
            _("encoding: «%(value)s» is none of %(known)s.")
            % {"value": encoding[:20], "known": ", ".join(io.ENCODINGS)},
            content_type="text/plain; charset=utf-8",
        )
    try:
        body = io.export_bytes(_persons(request.user), encoding)
    except io.ExportError as error:
        messages.error(request, str(error))
        return redirect("director:register_list")
    charset = "utf-8" if encoding == "utf-8" else "windows-1251"
    response = HttpResponse(body, content_type=f"text/csv; charset={charset}")
    suffix = "" if encoding == "utf-8" else "-cp1251"
    response["Content-Disposition"] = f'attachment; filename="register{suffix}.csv"'
    return response


def _preview(request, rows, matches, confirm, *, encoding="", filename="", status=200):
    refused = io.refusals(rows, matches)
    counts = {
        "new": sum(1 for m in matches if m.chosen == services.NEW),
        "several": sum(1 for m in matches if m.state == "several"),
        "updates": sum(1 for r in rows if r.person is not None and r.changes),
        "same": sum(1 for r in rows if r.person is not None and not r.changes),
    }
    return render(
        request,
        "director/register_import_preview.html",
        {
            "rows": rows,
            "bad_rows": [r for r in rows if r.problems],
            "refused": refused,
            "confirm": confirm,
            "encoding": encoding,
            "filename": filename,
            "counts": counts,
            "has_patronymic": any(r.patronymic for r in rows),
        },
        status=status,
    )


@login_required
def register_import(request):
    form = RegisterImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload.size > roster.MAX_BYTES:
                raise io.RowError(_("The file is larger than 1 MB."))
            text, encoding = roster.decode_csv(upload.read())
            rows = io.parse(text)
        except io.RowError as error:
            form.add_error("file", str(error))
        else:
            matches = io.check(request.user, rows)
            confirm = RegisterImportConfirmForm(initial={"text": text})
            return _preview(
                request, rows, matches, confirm, encoding=encoding, filename=upload.name
            )
    return render(
        request,
        "director/register_import.html",
        {"form": form},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def register_import_confirm(request):
    form = RegisterImportConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The import form was incomplete; upload the file again."))
        return redirect("director:register_import")
    try:
        rows = io.parse(form.cleaned_data["text"])
    except io.RowError as error:
        messages.error(request, str(error))
        return redirect("director:register_import")
    # Checked again against the register as it is now; the choices are read against the
    # proposals made now: nothing is written that the page did not propose.
    matches = io.check(request.user, rows)
    io.read_choices(rows, matches, request.POST)
    refused = io.refusals(rows, matches)
    if not refused:
        try:
            done = io.import_rows(request.user, rows, matches)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(
                request,
                _(
                    "Register imported: %(created)d new, %(updated)d updated, %(linked)d "
                    "spellings added to persons found."
                )
                % {"created": done.created, "updated": done.updated, "linked": done.linked},
            )
            return redirect("director:register_list")
    else:
        messages.error(
            request,
            _("Lines %(lines)s stop the import; nothing was saved. Correct them below.")
            % {"lines": ", ".join(str(line) for line in refused)},
        )
    return _preview(request, rows, matches, form)
