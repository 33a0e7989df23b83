"""The language of an answer: in the address for the public pages, by the reader's choice
everywhere else.

The public pages — an event's results, its hall screen, the club ladders — are read by a
whole hall and its clubs at home, and are drawn once per change and shared between readers
(``scoring.public_cache``, a proxy's micro-cache in front of several servers). An answer that
depended on a cookie could not be shared, so their language is in the address: ``/e/…`` is
Russian (the site's first language), ``/en/e/…`` English, by Django's ``i18n_patterns``;
links drawn on an English page lead to English pages, and the page's RU / EN switch is a
plain link (no form, no CSRF cookie). Everything else — the director's pages, the phones'
pages — keeps reading the reader's choice (the language cookie, else his browser's
``Accept-Language``), as Django's own ``LocaleMiddleware`` does.
"""

from django.conf import settings
from django.urls import translate_url
from django.utils import translation
from django.utils.cache import patch_vary_headers

#: The prefixes of the pages whose language is in their address (config/urls.py).
PUBLIC_PREFIXES = ("/e/", "/ladder/")


def language_in_path(path: str) -> str | None:
    """The language an address names («/en/e/…» → «en»), or None."""
    return translation.get_language_from_path(path)


def is_public(path: str) -> bool:
    """Whether ``path`` is a public page's, in any language."""
    found = language_in_path(path)
    if found:
        path = path[len(found) + 1 :]
    return path.startswith(PUBLIC_PREFIXES)


class LocaleMiddleware:
    """Django's ``LocaleMiddleware`` but for the public pages, whose language is their
    address's alone (see the module)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info
        from_path = language_in_path(path)
        if from_path:
            language = from_path
        elif is_public(path):
            language = settings.LANGUAGE_CODE
        else:
            language = translation.get_language_from_request(request, check_path=False)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        if not is_public(path):
            patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", language)
        return response


def public_languages(request) -> dict:
    """A template context processor: on a public page, its address in each language
    (``public_languages``: code, address, whether it is this page's), for the RU / EN links
    that replace the language form there."""
    path = getattr(request, "path", "")
    if not is_public(path):
        return {}
    current = translation.get_language()
    full = request.get_full_path()
    return {
        "public_languages": [
            (code, translate_url(full, code), code == current) for code, _name in settings.LANGUAGES
        ]
    }
