"""The one cleaning every name gets before it is stored (issue 32, «fair by design»).

A player's, a person's or a club's name, and the event's own name, are typed by people and
shown to everyone: a bidi control in them (U+202E RIGHT-TO-LEFT OVERRIDE reverses what
follows it, the figures beside the name in a standings row included) or an invisible
character (two «Иванов» that differ by a zero-width space) spoofs what the page shows.
:func:`clean_name` removes them and trims; the model's name fields
(``events.models.NameField``) call it on every save and every ``full_clean``, so no door —
a form, an import, the API, a script — stores one. The pages show names isolated as well
(``{% load names %}``, ``{{ entry.full_name|bdi }}``): a right-to-left letter, which stays,
cannot reorder the figures around it either.

Pure: imports nothing from Django (the register's matching and the migrations use it).
"""

#: Removed from every name: what reorders text, and what is invisible yet makes two names
#: that look alike differ.
INVISIBLE = frozenset(
    [
        # Bidi embeddings and overrides (LRE, RLE, PDF, LRO, RLO), isolates (LRI, RLI, FSI,
        # PDI), marks (LRM, RLM, ALM).
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
        0x200E,
        0x200F,
        0x061C,
        # Zero-width space, non-joiner, joiner; word joiner; BOM (zero-width no-break space).
        *range(0x200B, 0x200E),
        0x2060,
        0xFEFF,
        # Invisible operators (function application, times, separator, plus) and the
        # deprecated format controls (symmetric swapping, shaping, digit shapes).
        *range(0x2061, 0x2065),
        *range(0x206A, 0x2070),
        # Soft hyphen, Mongolian vowel separator, the interlinear annotation controls (they
        # hide the text between them) and the tag characters (invisible letters).
        0x00AD,
        0x180E,
        *range(0xFFF9, 0xFFFC),
        *range(0xE0000, 0xE0080),
    ]
)

_DROP = dict.fromkeys(INVISIBLE)


def strip_invisible(text: str) -> str:
    """``text`` without the characters of :data:`INVISIBLE` (not trimmed)."""
    return text.translate(_DROP)


def clean_name(value) -> str:
    """A name as it is stored: the invisible characters removed, then the spaces around it.
    ``None`` is the empty name; an empty result is for the caller to refuse."""
    if value is None:
        return ""
    return strip_invisible(str(value)).strip()
