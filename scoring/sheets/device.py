"""Which phone is asking: a random id kept in a cookie of the table's pages.

A table's shared phone and a player's own phone are told apart by it: a sheet entered
without a proof cannot be confirmed from the phone that entered it (two people means two
phones or two proofs, docs/game.md §7.2), and wrong PINs are counted per phone and per
player, so that a guesser locks himself rather than the player he guesses at (§7.2).

The id is 128 random bits, kept in a cookie (``table_device``, HttpOnly, a year). It is no
proof of anything: a phone that drops its cookies is a new phone. What is stored on a sheet
or a counter is its SHA-256 (:func:`device_hash`), never the cookie itself.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets

from django.conf import settings

COOKIE = "table_device"
_SHAPE = re.compile(r"^[A-Za-z0-9_-]{22}$")  # token_urlsafe(16)
_YEAR = 365 * 24 * 3600


def device_of(request) -> str:
    """This request's phone id: its cookie's, else a new one (set on the answer by
    :func:`with_device`). Asked twice in one request, the same id."""
    found = getattr(request, "_table_device", None)
    if found is None:
        found = request.COOKIES.get(COOKIE, "")
        if not _SHAPE.match(found):
            found = secrets.token_urlsafe(16)
            request._table_device_new = True
        request._table_device = found
    return found


def device_hash(request) -> str:
    """What is stored of the phone: 24 hex digits of its id's SHA-256."""
    return hashlib.sha256(device_of(request).encode()).hexdigest()[:24]


def remember(request, response):
    """Set the cookie on ``response`` when this request made a new id."""
    if getattr(request, "_table_device_new", False):
        response.set_cookie(
            COOKIE,
            request._table_device,
            max_age=_YEAR,
            httponly=True,
            samesite="Lax",
            secure=bool(getattr(settings, "SESSION_COOKIE_SECURE", False)),
        )
    return response


def with_device(view):
    """A view whose phone is known: its id made before the view runs (so that what it
    stores names it) and the cookie set on whatever it answers."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        device_of(request)
        return remember(request, view(request, *args, **kwargs))

    return wrapped
