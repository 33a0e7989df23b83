"""The project's one translation catalogue, for the pure cores (which import no Django).

Every text the app shows is in ``locale/<lang>/LC_MESSAGES/django.po``: the pages' and
services' through Django, the rule engines' through this module, which reads the same
compiled catalogue (``django.mo``) with the standard library's ``gettext``. A core writes a
text in English, marked with :func:`gettext_noop` (or :func:`pgettext` with a context) so
that ``manage.py makemessages`` finds it, and asks :func:`translated` for the reader's
language. Pure: imports nothing from Django.
"""

from __future__ import annotations

import functools
import gettext
from dataclasses import dataclass
from pathlib import Path

#: The compiled catalogues: locale/<lang>/LC_MESSAGES/django.mo.
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"


def gettext_noop(text: str) -> str:
    """Marks a text for the catalogue; the text itself is the English."""
    return text


def pgettext(context: str, text: str) -> str:
    """Marks a word for the catalogue under ``context``; the word itself is the English."""
    return text


@dataclass(frozen=True)
class Plural:
    """A text with a singular and a plural form, chosen by ``n`` (and the language's own
    plural rule: Russian has three forms)."""

    singular: str
    plural: str
    n: int


def ngettext(singular: str, plural: str, n: int) -> Plural:
    """Marks a text with plural forms for the catalogue; :func:`translated` picks the form."""
    return Plural(singular, plural, n)


@functools.lru_cache(maxsize=8)
def _catalogue(lang: str) -> gettext.NullTranslations:
    return gettext.translation("django", localedir=LOCALE_DIR, languages=[lang], fallback=True)


def translated(text: str | Plural, lang: str) -> str:
    """``text`` (English, a msgid of the catalogue) in ``lang``: ``ru`` from the catalogue,
    English as it is (also when a catalogue or a translation is missing). A
    :class:`Plural` gives the form for its number."""
    if isinstance(text, Plural):
        if lang == "en":
            return text.singular if text.n == 1 else text.plural
        return _catalogue(lang).ngettext(text.singular, text.plural, text.n)
    return text if lang == "en" else _catalogue(lang).gettext(text)


def translated_in(context: str, text: str, lang: str) -> str:
    """:func:`translated` of a word marked with a context (:func:`pgettext`)."""
    return text if lang == "en" else _catalogue(lang).pgettext(context, text)
