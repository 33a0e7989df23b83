"""Whole numbers from a query string (``?round=3``, ``?session=1``, ``?table=2``): one parser
for every view.

``str.isdigit()`` says yes to «²» and «٣», and ``int()`` reads «٣» (an Arabic-Indic three)
as 3 but fails on «²»: a mistyped or tampered link made a 500. :func:`query_int` takes ASCII
digits only, within a range, and otherwise raises :class:`BadQueryParam`, which names the
parameter and the rule. The views turn it into a 400: :func:`api_query_int` for the API
(``{"round": ["…"]}``), the :func:`query_errors` decorator for the director's pages (a page,
or JSON for a JSON endpoint). A well-formed number that names nothing stays each view's own
404.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import wraps

from django.http import HttpResponseBadRequest, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

#: The largest value an integer column holds on every backend (PostgreSQL's ``integer``).
MAX_INT = 2**31 - 1


class BadQueryParam(ValueError):
    """A query parameter that is not a whole number in its range."""

    def __init__(self, name: str, message: str):
        super().__init__(message)
        self.name = name
        self.message = message

    def as_dict(self) -> dict[str, list[str]]:
        return {self.name: [self.message]}


def query_int(
    params: Mapping, name: str, *, minimum: int = 1, maximum: int = MAX_INT, default=None
) -> int | None:
    """``params[name]`` as an int from ``minimum`` to ``maximum``; ``default`` when the
    parameter is absent or blank. ASCII digits only: no sign, no «²», no «٣»."""
    raw = params.get(name)
    text = "" if raw is None else str(raw).strip()
    if not text:
        return default
    # The length check first: int() of thousands of digits is slow, then refused anyway.
    if text.isascii() and text.isdigit() and len(text) <= len(str(maximum)):
        value = int(text)
        if minimum <= value <= maximum:
            return value
    raise BadQueryParam(
        name,
        _("Parameter «%(name)s» must be a whole number from %(min)d to %(max)d.")
        % {"name": name, "min": minimum, "max": maximum},
    )


def api_query_int(request, name: str, **kwargs) -> int | None:
    """:func:`query_int` of a DRF request's query string; a bad value is the API's 400
    ``{"<name>": ["…"]}``."""
    from rest_framework.exceptions import ValidationError

    try:
        return query_int(request.query_params, name, **kwargs)
    except BadQueryParam as error:
        raise ValidationError(error.as_dict()) from None


def bad_query_response(request, error: BadQueryParam):
    """The 400 for a bad query parameter: JSON for a ``.json`` address or a caller that asks
    for JSON, a page otherwise."""
    wants_json = request.path.endswith(".json") or "application/json" in request.headers.get(
        "Accept", ""
    )
    if wants_json:
        return JsonResponse(error.as_dict(), status=400)
    page = render_to_string("400_query.html", {"text": error.message}, request)
    return HttpResponseBadRequest(page)


def query_errors(view):
    """A page view whose query parameters are read with :func:`query_int`: a bad one is a
    400 that says which parameter and what it must be, never a 500."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except BadQueryParam as error:
            return bad_query_response(request, error)

    return wrapped
