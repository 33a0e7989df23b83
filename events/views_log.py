"""The event's «Журнал» (issue 34): every director's action, newest first, with its filters
(person, room, kind, a sheet) and the same rows as a CSV file. The lines are written by the
services (``events.actionlog.log_action``); this page only reads them — nothing here writes.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from events import actionlog
from events.models import Event
from events.params import query_errors, query_int
from events.spreadsheet import file_response

#: Lines a page: the log of a long day runs to thousands.
PER_PAGE = 100
#: At most this many lines in one file (a day's log is far below it).
FILE_MAX = 50_000


def log_event(request, pk) -> Event:
    """The event whose log ``request``'s account may read (a 404 otherwise): the one door of
    these views and of ``events.api_log``, so that the role checks replace it in one place."""
    return get_object_or_404(Event.objects.visible_to(request.user), pk=pk)


def log_filters(params) -> dict:
    """The filters as the page's form and its address give them: what cannot be one is
    left out (a kind not in ``KINDS``, a room or a sheet that is not a whole number)."""
    kind = (params.get("kind") or "").strip()
    return {
        "login": (params.get("login") or "").strip()[:150],
        "room": query_int(params, "room"),
        "kind": kind if kind in actionlog.KINDS else "",
        "sheet": query_int(params, "sheet"),
        "version": query_int(params, "version"),
    }


def _query(filters: dict) -> str:
    """The filters as an address's query (empty ones left out)."""
    return urlencode({k: v for k, v in filters.items() if v not in (None, "")})


@login_required
@require_safe
@query_errors
def event_log(request, pk):
    event = log_event(request, pk)
    filters = log_filters(request.GET)
    lines = actionlog.log_lines(event, **filters)
    paginator = Paginator(lines, PER_PAGE)
    page = paginator.get_page(query_int(request.GET, "page", default=1))
    query = _query(filters)
    return render(
        request,
        "director/event_log.html",
        {
            "event": event,
            "filters": filters,
            "query": query,
            "page": page,
            "rows": [actionlog.line_row(line) for line in page.object_list],
            "logins": actionlog.log_authors(event),
            "rooms": actionlog.log_rooms(event),
            "kinds": [(code, actionlog.kind_name(code)) for code in actionlog.KINDS],
        },
    )


def log_file_rows(lines) -> list[list]:
    """The rows of the CSV: a header, then a line a row, as the page shows them."""
    rows = [
        [
            _("When"),
            _("Who"),
            _("Action"),
            _("Room"),
            _("Table"),
            _("Summary"),
            _("Before"),
            _("After"),
        ]
    ]
    for line in lines[:FILE_MAX]:
        row = actionlog.line_row(line)
        rows.append(
            [
                row["at"].strftime("%d.%m.%Y %H:%M:%S"),
                row["login"],
                row["kind_name"],
                row["room"],
                row["table"],
                row["summary"],
                row["before"],
                row["after"],
            ]
        )
    return rows


@login_required
@require_safe
@query_errors
def event_log_file(request, pk, kind="csv"):
    """The page's rows (the same filters, every page of them) as a file."""
    event = log_event(request, pk)
    lines = actionlog.log_lines(event, **log_filters(request.GET))
    return file_response(kind, log_file_rows(lines), f"log-{event.slug}", _("Log"))
