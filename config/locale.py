"""The language of an answer: in the address for the public pages, by the reader's choice
everywhere else.

The public pages — an event's results, its hall screen, the club ladders — are read by a
whole hall and its clubs at home, and are drawn once per change and shared between readers
(``scoring.standings.public_cache``, a proxy's micro-cache in front of several servers). An answer that
depended on a cookie could not be shared, so their language is never the cookie's: it is
the address's — ``/en/e/…`` English (Django's ``i18n_patterns``; links drawn on an English
page lead to English pages), or ``?lang=ru`` / ``?lang=en`` — else the browser's
``Accept-Language`` (``Vary: Accept-Language``), Russian when it names neither. The page's
RU / EN switch is a plain link (no form, no CSRF cookie). Everything else — the director's
pages, the phones' pages — keeps reading the reader's choice (the language cookie, else
his browser's ``Accept-Language``), as Django's own ``LocaleMiddleware`` does.
"""

from django.conf import settings
from django.urls import URLResolver, translate_url
from django.urls.resolvers import LocalePrefixPattern
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import parse_accept_lang_header

#: The prefixes of the pages whose language is in their address (config/urls.py).
PUBLIC_PREFIXES = ("/e/", "/ladder/")


def language_in_path(path: str) -> str | None:
    """The language an address names («/en/e/…» → «en»), or None."""
    return translation.get_language_from_path(path)


def _supported(code: str | None) -> str | None:
    try:
        return translation.get_supported_language_variant(code) if code else None
    except LookupError:
        return None


def public_language(request) -> tuple[str, bool]:
    """A public page's language, and whether it is the address's (else the browser's)."""
    from_path = language_in_path(request.path_info)
    if from_path:
        return from_path, True
    asked = _supported(request.GET.get("lang"))
    if asked:
        return asked, True
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for code, _q in parse_accept_lang_header(header):
        if code == "*":
            break
        found = _supported(code)
        if found:
            return found, False
    return settings.LANGUAGE_CODE, False


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
        from_address = False
        if is_public(path):
            language, from_address = public_language(request)
        else:
            language = translation.get_language_from_request(request, check_path=False)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        if not from_address:
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
    query = request.GET.copy()
    query.pop("lang", None)
    plain = request.path + (f"?{query.urlencode()}" if query else "")
    found = []
    for code, _name in settings.LANGUAGES:
        url = translate_url(plain, code)
        if not language_in_path(url):  # the unprefixed address: say the language
            query["lang"] = code
            url = f"{url.split('?')[0]}?{query.urlencode()}"
            query.pop("lang")
        found.append((code, url, code == current))
    return {"public_languages": found}


class OptionalLanguagePrefix(LocalePrefixPattern):
    """The public pages' URL prefix: ``en/`` (any language but the first) when the address
    names it, nothing otherwise — whatever language is active, so that ``/e/…`` answers in
    the browser's language and ``/en/e/…`` in English (Django's own prefix matches only the
    active language's). Links are drawn with the active language's prefix, as Django's."""

    def match(self, path):
        for code, _name in settings.LANGUAGES:
            if code != settings.LANGUAGE_CODE and path.startswith(f"{code}/"):
                return path[len(code) + 1 :], (), {}
        return path, (), {}


def public_patterns(*urls):
    """``i18n_patterns`` for the public pages, with :class:`OptionalLanguagePrefix`."""
    return [URLResolver(OptionalLanguagePrefix(prefix_default_language=False), list(urls))]
