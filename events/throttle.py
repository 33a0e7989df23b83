"""Failed logins lock a name from one address for a while, and a name across addresses.

Logins: django-axes, its attempts in the database (the default handler), so the rule holds —
and the login page answers — with Redis down. Every way in goes through Django's
``authenticate`` with the request (the director's login page, the admin; the API has no login
of its own: it takes the session those pages open, or a token), whose first backend is axes'
(``config/settings.py``). The rule:

- ``LOGIN_FAILURES_ALLOWED`` failed logins for one user name (any letter case) **from one
  address**, each within ``LOGIN_LOCK_SECONDS`` of the one before, lock that name from that
  address — even with the right password — for ``LOGIN_LOCK_SECONDS`` after the last of them;
  tries while it is locked neither count nor prolong it. Someone failing elsewhere never
  locks the name's owner out at his own address, and one address failing under many names
  locks none but those.
- ``LOGIN_FAILURES_ALLOWED_NAME`` (three times as many) failed logins for one name **from all
  addresses together**, each address's counted while its last failure is within
  ``LOGIN_LOCK_SECONDS``, lock that name from every address until enough of them are that
  old: a guesser who rotates addresses gets no more tries per window than that, and to lock
  the owner out he needs several addresses, each locked on its own first. (axes counts
  several groups of lockout parameters but holds them all to one limit, the largest count
  against it; the name's own cap is therefore :func:`failures_allowed`'s: none left while
  the name is locked.)
- The address is the client's: behind ``PROXY_COUNT`` reverse proxies, the one the outermost
  of them saw (``X-Forwarded-For``); with none (the default) that header is not trusted.
- A successful login clears the name's count from that address (not the other addresses':
  a guesser elsewhere keeps his count).
- The page says so in the user's language, with the minutes left of whichever lock holds
  longer, and answers 429 (``events.views.login_locked``).

The PINs of the table's phone keep their own counters, in the database too
(``scoring.sheets.proof``, ``scoring.models.PinFailures``).
"""

from __future__ import annotations

import ipaddress
import math
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import ngettext

#: The longest name axes' tables keep (``AccessAttempt.username``).
_NAME_LENGTH = 255


# --- the login rule, as axes' callables (config/settings.py names them) -------------------


def failures_allowed(request=None, credentials=None) -> int:
    """``AXES_FAILURE_LIMIT``, which axes holds the name's count from this address to: the
    project's own ``LOGIN_FAILURES_ALLOWED`` (read when asked: tests change it), or none (0)
    while the name is locked across addresses (``LOGIN_FAILURES_ALLOWED_NAME``)."""
    if request is not None and _name_seconds_locked(request, credentials):
        return 0
    return int(settings.LOGIN_FAILURES_ALLOWED)


def lock_time(request=None) -> timedelta:
    """``AXES_COOLOFF_TIME``: how long a lock lasts after the failure that made it."""
    return timedelta(seconds=int(settings.LOGIN_LOCK_SECONDS))


def username_of(request, credentials=None) -> str | None:
    """``AXES_USERNAME_CALLABLE``: the name tried, in any letter case the same («Judge» and
    «judge» are one count), cut to what axes' table keeps."""
    from django.contrib.auth import get_user_model

    field = get_user_model().USERNAME_FIELD
    if credentials:
        name = credentials.get(field, credentials.get("username"))
    else:
        data = getattr(request, "data", None) or getattr(request, "POST", {})
        name = data.get(field)
    if not isinstance(name, str):
        return None
    return name.strip().casefold()[:_NAME_LENGTH] or None


def _address(raw) -> str | None:
    if not isinstance(raw, str):
        return None
    try:
        # A scope («fe80::1%eth0») is no part of the address the database keeps.
        return str(ipaddress.ip_address(raw.strip().split("%", 1)[0]))
    except ValueError:
        return None


def client_address(request) -> str | None:
    """``AXES_CLIENT_IP_CALLABLE``: the client's address. Behind ``PROXY_COUNT`` proxies that
    each append the address they saw to ``X-Forwarded-For`` (nginx's
    ``$proxy_add_x_forwarded_for``), the client is the ``PROXY_COUNT``-th from its end: what
    a client wrote before it himself is not trusted. With no proxy, or a header too short or
    not an address, the connection's own address."""
    meta = getattr(request, "META", {})
    count = int(getattr(settings, "PROXY_COUNT", 0))
    if count > 0:
        hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        hops = [hop for hop in hops if hop]
        if len(hops) >= count:
            found = _address(hops[-count])
            if found:
                return found
    return _address(meta.get("REMOTE_ADDR"))


def _recent_failures(request, credentials=None):
    """The name's attempts from every address whose last failure is within the lock's
    window, the newest first: ``(ip_address, attempt_time, failures)``."""
    from axes.models import AccessAttempt

    name = username_of(request, credentials)
    if name is None:
        return []
    now = timezone.now()
    attempts = AccessAttempt.objects.filter(
        username=name, attempt_time__gte=now - lock_time(request)
    )
    return list(
        attempts.order_by("-attempt_time").values_list(
            "ip_address", "attempt_time", "failures_since_start"
        )
    )


def _seconds_left(failures, allowed: int, window: timedelta, now) -> int:
    """How long ``failures`` (the newest first) lock, as axes counts them: until the failure
    that brings their count to ``allowed`` is ``window`` old; 0 when they do not."""
    counted = 0
    for _address, attempt_time, count in failures:
        counted += count
        if counted >= allowed:
            return max(0, math.ceil((attempt_time + window - now).total_seconds()))
    return 0


def _name_seconds_locked(request, credentials=None) -> int:
    failures = _recent_failures(request, credentials)
    allowed = int(settings.LOGIN_FAILURES_ALLOWED_NAME)
    return _seconds_left(failures, allowed, lock_time(request), timezone.now())


def seconds_locked(request, credentials=None) -> int:
    """How long the name of this request (or ``credentials``) is still locked from its
    address — by its failures from there or, across addresses, from all of them, whichever
    holds longer; 0 when it may try (one query)."""
    from axes.handlers.proxy import AxesProxyHandler

    AxesProxyHandler.update_request(request)
    now, window = timezone.now(), lock_time(request)
    everywhere = _recent_failures(request, credentials)
    here = [f for f in everywhere if f[0] == request.axes_ip_address]
    return max(
        _seconds_left(here, int(settings.LOGIN_FAILURES_ALLOWED), window, now),
        _seconds_left(everywhere, int(settings.LOGIN_FAILURES_ALLOWED_NAME), window, now),
    )


def locked_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many failed logins for this name: wait %(minutes)d minute and try again, "
        "or ask the server's administrator.",
        "Too many failed logins for this name: wait %(minutes)d minutes and try again, "
        "or ask the server's administrator.",
        minutes,
    ) % {"minutes": minutes}
