"""Private links: a player's page (/p/<key>/…) and a table's scoring pages (/t/<key>/…).

Under /t/ two keys: a table's (``Table.key``, the QR code on its card: the gate that asks
«Кто вы?») and a table-round's (``TablePlay.key``, the round link: that one round's sheets,
where the gate and a player's own page lead; ``scoring.sheets.table``).

Both are opened from a phone by people who have no account and no business on the
director's pages. A wrong or old key is a :class:`LinkNotFound` (a 404), shown by
:func:`page_not_found` as a phone page in the reader's language that tells him to ask the
director, with nothing of the director's pages on it.
"""

import re

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.urls import Resolver404, reverse
from django.utils.translation import gettext as _

from events.models import Entry, Table

PRIVATE_PREFIXES = ("/p/", "/t/")
API_PREFIX = "/api/"
#: Django's own words in an Http404 (``get_object_or_404``'s «No Event matches the given
#: query.», a generic view's «No event found matching the query»): English whatever the
#: reader's language, naming a model — never shown; the page's own words say it in his.
_DJANGO_404 = re.compile(r"No .+ matches the given query\.|No .+ found matching the query")


def own_text(exception) -> str | None:
    """The reason an Http404 (or PermissionDenied) gives when it is ours to show — a text of
    this app's, in the reader's language — else None (the page's general words)."""
    message = exception.args[0] if exception is not None and exception.args else None
    if isinstance(exception, Resolver404) or not isinstance(message, str) or not message:
        return None
    return None if _DJANGO_404.fullmatch(message) else message


class LinkNotFound(Http404):
    """No player, table or table-round has this key (mistyped, cut short, or from another
    event)."""

    def __init__(self, kind: str):
        self.kind = kind  # "player" or "table"
        super().__init__(link_error_text(kind))


def link_error_text(kind: str) -> str:
    if kind == "table":
        return _(
            "This table link is not valid: it may be mistyped or from an earlier event. Scan "
            "the QR code on your table card again, or ask the director."
        )
    return _(
        "This player link is not valid: it may be mistyped or from an earlier event. Scan the "
        "QR code on your name card again, or ask the director for your link."
    )


def site_base(request) -> str:
    """«http://192.168.1.5:8000» — what every printed link and QR code begins with: the
    ``SITE_URL`` setting when set, else the address the director's browser used."""
    return settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")


def absolute_url(request, path: str) -> str:
    """The address a phone opens for a path of this site (every QR code and card link)."""
    return site_base(request) + path


def player_url(request, key: str) -> str:
    """The absolute address of a player's private page (his QR code, his name card)."""
    return absolute_url(request, reverse("player:home", args=[key]))


def table_url(request, key: str) -> str:
    """The absolute address of a table's gate (the QR code on the table card): it leads a
    player of the round at the table now to that round's link."""
    return absolute_url(request, reverse("table:home", args=[key]))


def entry_by_key(key: str) -> Entry:
    """The entry of a player's private link, with its event."""
    entry = Entry.objects.select_related("event").filter(key=key).order_by().first()
    if entry is None:
        raise LinkNotFound("player")
    return entry


def table_by_key(key: str) -> Table:
    """The table of a table's scoring link, with its room, session and event."""
    table = Table.objects.select_related("room__session__event").filter(key=key).order_by().first()
    if table is None:
        raise LinkNotFound("table")
    return table


def permission_denied(request, exception=None):
    """The site's 403 in the reader's language: the API's in JSON, the pages' a page of the
    site (``403.html``) with the reason when it is ours."""
    text = own_text(exception)
    if request.path.startswith(API_PREFIX):
        return JsonResponse(
            {"detail": text or _("You do not have permission to do this.")}, status=403
        )
    return render(request, "403.html", {"exception": text}, status=403)


def csrf_failure(request, reason=""):
    """A form sent without its page's CSRF token (a page kept open across a login, cookies
    refused): the site's 403 page in the reader's language, saying what to do — never
    Django's English reason."""
    text = _("The page has expired: reload it and send the form again.")
    return permission_denied(request, PermissionDenied(text))


def page_not_found(request, exception=None):
    """The site's 404: under the private links a phone page, elsewhere the site's page
    (``404.html``) in the reader's language."""
    if request.path.startswith(API_PREFIX):
        # The API answers in JSON whatever the address (its schema says so: config/schema.py).
        return JsonResponse({"detail": _("Nothing of the API at this address.")}, status=404)
    if not request.path.startswith(PRIVATE_PREFIXES):
        # Our own words only (:func:`own_text`): Django's, never shown to a reader (the
        # template then says it in his language).
        return render(request, "404.html", {"exception": own_text(exception)}, status=404)
    kind = "table" if request.path.startswith("/t/") else "player"
    if isinstance(exception, LinkNotFound):
        text = str(exception)
    else:
        text = _(
            "There is nothing at this address. Open the link from your QR code again, or ask "
            "the director."
        )
    if request.path.endswith(".json"):
        return JsonResponse({"error": "not_found", "detail": text}, status=404)
    return render(
        request,
        "player/link_error.html",
        {"text": text, "kind": kind, "fragment": request.path.endswith("/places")},
        status=404,
    )
