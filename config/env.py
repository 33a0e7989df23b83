"""Typed readers of environment variables that fail loudly on a bad value.

A misspelt ``DEBUG=ture`` or ``DATABASE_URL=postgress://`` must stop the start with a
message naming the variable, not run quietly with a default.
"""

import os
import zoneinfo
from urllib.parse import urlparse


class ImproperlyConfiguredEnv(Exception):
    pass


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfiguredEnv(
        f"{name}={raw!r} is not a boolean: use one of {sorted(_TRUE | _FALSE - {''})}"
    )


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfiguredEnv(f"{name}={raw!r} is not a whole number") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfiguredEnv(f"{name} is set but lists nothing (comma-separated)")
    return items


def env_url(name: str, schemes: set[str]) -> str | None:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return None
    parsed = urlparse(raw)
    if parsed.scheme not in schemes:
        raise ImproperlyConfiguredEnv(
            f"{name} has scheme {parsed.scheme!r}; expected one of {sorted(schemes)}"
        )
    return raw


def env_timezone(name: str, default: str) -> str:
    raw = os.environ.get(name) or default
    try:
        zoneinfo.ZoneInfo(raw)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfiguredEnv(f"{name}={raw!r} is not a known time zone") from None
    return raw
