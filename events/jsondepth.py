"""JSON with a bounded depth: a body nested 100,000 levels deep is a 400, not a crash.

Python's ``json`` recurses once per level and raises RecursionError (a 500) long before
memory runs out. Documents of this app (a score sheet, a scheme) are a few levels deep; so
the brackets outside strings are counted first, and a deeper document is refused with its
depth. Plain Python, no Django.
"""

from __future__ import annotations

import json
import re

#: Far above any document of the app (a sheet: 3 levels; a scheme: 4).
MAX_DEPTH = 32

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


class TooDeep(ValueError):
    def __init__(self, depth: int, most: int):
        super().__init__(f"JSON nested {depth} levels deep (at most {most})")
        self.depth, self.most = depth, most


def depth_of(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text`` (strings left out)."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRINGS.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def loads(text: str | bytes, *, most: int = MAX_DEPTH, **kwargs):
    """``json.loads`` that raises :class:`TooDeep` for a document nested deeper than ``most``."""
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8")
    depth = depth_of(text)
    if depth > most:
        raise TooDeep(depth, most)
    return json.loads(text, **kwargs)
