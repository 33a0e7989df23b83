"""Keys never reach a log: the private keys of the phones' links are masked in every line.

A player's key (/p/<key>/, ``?me=<key>``) and a table's or round's (/t/<key>/) are the only
pass those pages ask for (``events.links``): whoever reads a terminal or a log file with one
could write as that player or read that table. They reach a log as request lines, paths and
referrers — gunicorn's access log (``config.gunicorn``), Django's «Not Found: /p/…» and
«Bad Request: /t/…» (``django.request``) — so :func:`mask` replaces, in any text:

- the path segment after ``/p/`` or ``/t/``, whatever its shape (a key mistyped with one
  character more still holds the key);
- the value of ``me=``, whatever its shape;
- any run of 22 or more URL-safe characters: a key (``secrets.token_urlsafe(16)``: 22) and
  whatever is stuck to it («%2F» + key in an encoded ``next=``), a session id, a CSRF token.

What is left — the method, the rest of the path, the status — still says what happened.
:class:`MaskKeys` applies it to every record a handler writes (``config/settings.py``'s
LOGGING); gunicorn's access logger to its fields. In a traceback, the frames' lines (indented:
a file, a line of our code) keep their long names — ``_execute_with_wrappers`` is no key —
and only the first two rules apply to them; the exception's own lines get all three.
"""

from __future__ import annotations

import logging
import re

MASK = "***"

_PRIVATE_SEGMENT = re.compile(r"(/[pt]/)[^/?#&\s\"']+")
_ME_VALUE = re.compile(r"((?:^|[?&;\s])me=)[^&;#\s\"']*")
_KEY_LIKE = re.compile(r"[A-Za-z0-9_-]{22,}")


def _mask_links(text: str) -> str:
    text = _PRIVATE_SEGMENT.sub(rf"\g<1>{MASK}", text)
    return _ME_VALUE.sub(rf"\g<1>{MASK}", text)


def mask(text: str) -> str:
    """``text`` with every key in it replaced by ``***`` (see the module's rule)."""
    if not text:
        return text
    return _KEY_LIKE.sub(MASK, _mask_links(text))


def mask_traceback(text: str) -> str:
    """A formatted traceback masked: its exception lines as :func:`mask` does, its frames'
    (indented) lines for the links only."""
    return "\n".join(
        _mask_links(line) if line.startswith(" ") else mask(line) for line in text.split("\n")
    )


class MaskKeys(logging.Filter):
    """A handler's filter: the record's message, arguments merged in, and its traceback
    masked (:func:`mask`). The message is formatted here, once, so that an argument of any
    type (a request, an exception) is masked as it will be printed."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit the format: dropped, never printed raw
            message = str(record.msg)
        record.msg, record.args = mask(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask_traceback(record.exc_text)
        return True
