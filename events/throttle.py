"""Failed logins lock a name from one address for a while.

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
- The address is the client's: behind ``PROXY_COUNT`` reverse proxies, the one the outermost
  of them saw (``X-Forwarded-For``); with none (the default) that header is not trusted.
- A successful login clears the name's count from that address.
- The page says so in the user's language, with the minutes left, and answers 429
  (``events.views.login_locked``).

The PINs of the table's phone keep their own counter, in the database too
(``scoring.proof``, ``scoring.models.PinFailures``).
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
    """``AXES_FAILURE_LIMIT``: the project's own setting, read when asked (tests change it)."""
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


def seconds_locked(request, credentials=None) -> int:
    """How long the name of this request (or ``credentials``) is still locked from its
    address; 0 when it may try. Read from axes' attempts, as axes counts them: the newest
    first, the lock holds until the failure that brings the count to the limit is
    ``LOGIN_LOCK_SECONDS`` old."""
    from axes.handlers.proxy import AxesProxyHandler
    from axes.models import AccessAttempt

    AxesProxyHandler.update_request(request)
    now = timezone.now()
    window = lock_time(request)
    attempts = AccessAttempt.objects.filter(
        username=username_of(request, credentials),
        ip_address=request.axes_ip_address,
        attempt_time__gte=now - window,
    ).order_by("-attempt_time")
    allowed, counted = failures_allowed(request, credentials), 0
    for attempt_time, failures in attempts.values_list("attempt_time", "failures_since_start"):
        counted += failures
        if counted >= allowed:
            return max(0, math.ceil((attempt_time + window - now).total_seconds()))
    return 0


def locked_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many failed logins for this name: wait %(minutes)d minute and try again, "
        "or ask the server's administrator.",
        "Too many failed logins for this name: wait %(minutes)d minutes and try again, "
        "or ask the server's administrator.",
        minutes,
    ) % {"minutes": minutes}
