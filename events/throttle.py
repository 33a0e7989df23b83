"""Login throttling: a name that keeps failing to log in is refused for a while.

Every way in goes through Django's ``authenticate`` (the director's login page, the admin,
the API's session log-in), so the rule lives in an authentication backend and two signal
receivers, on the shared cache (Redis, or the embedded default's files):

- after ``LOGIN_FAILURES_ALLOWED`` failed logins for one user name (any letter case) within
  ``LOGIN_LOCK_SECONDS``, that name is refused — even with the right password — until the
  window since its first failure is over; the same for ``LOGIN_FAILURES_PER_ADDRESS`` failures
  from one client address (someone trying many names);
- a successful login clears the name's count;
- the login page says so in the user's language, with the minutes left, and answers 429.
"""

from __future__ import annotations

import hashlib
import math
import time

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.utils.translation import ngettext


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def _name_key(username: str) -> str:
    digest = hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]
    return f"login:fail:name:{digest}"


def _address_key(request) -> str | None:
    address = request.META.get("REMOTE_ADDR") if request is not None else None
    return f"login:fail:addr:{address}" if address else None


def _keys(username: str | None, request) -> list[tuple[str, int]]:
    keys = []
    if username:
        keys.append((_name_key(username), _setting("LOGIN_FAILURES_ALLOWED", 5)))
    address = _address_key(request)
    if address:
        keys.append((address, _setting("LOGIN_FAILURES_PER_ADDRESS", 30)))
    return keys


def count_failure(key: str, window: int) -> None:
    """One more failure under ``key``, counted in a window of ``window`` seconds from the
    first one (the shared cache; also the PINs' counter, scoring.proof)."""
    now = time.time()
    found = cache.get(key)
    if not found or found["until"] <= now:
        found = {"count": 0, "until": now + window}
    found["count"] += 1
    cache.set(key, found, max(1, math.ceil(found["until"] - now)))


def seconds_left(key: str, allowed: int) -> int:
    """How long ``key`` is still refused after ``allowed`` failures in its window; 0 if not."""
    found = cache.get(key)
    if not found or found["count"] < allowed:
        return 0
    return max(0, math.ceil(found["until"] - time.time()))


def seconds_locked(username: str | None, request) -> int:
    """How long this name (or this client address) is still refused; 0 when it may try."""
    return max((seconds_left(key, allowed) for key, allowed in _keys(username, request)), default=0)


def locked_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many failed logins for this name: wait %(minutes)d minute and try again, "
        "or ask the server's administrator.",
        "Too many failed logins for this name: wait %(minutes)d minutes and try again, "
        "or ask the server's administrator.",
        minutes,
    ) % {"minutes": minutes}


class ThrottledModelBackend(ModelBackend):
    """Django's own backend, which refuses a name (or an address) while it is locked."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(self._username_field())
        if seconds_locked(username, request):
            # Stops every later backend too; Django then sends user_login_failed.
            raise PermissionDenied(locked_message(seconds_locked(username, request)))
        return super().authenticate(request, username=username, password=password, **kwargs)

    @staticmethod
    def _username_field() -> str:
        from django.contrib.auth import get_user_model

        return get_user_model().USERNAME_FIELD


@receiver(user_login_failed, dispatch_uid="events.throttle.failed")
def _count_failure(sender, credentials, request=None, **kwargs):
    from django.contrib.auth import get_user_model

    username = credentials.get(get_user_model().USERNAME_FIELD) or credentials.get("username")
    window = _setting("LOGIN_LOCK_SECONDS", 15 * 60)
    for key, _allowed in _keys(username, request):
        count_failure(key, window)


@receiver(user_logged_in, dispatch_uid="events.throttle.logged_in")
def _clear_name(sender, request, user, **kwargs):
    cache.delete(_name_key(user.get_username()))
