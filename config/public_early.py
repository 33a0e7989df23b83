"""The public results' cheap answers, given before the middleware stack (issue 36).

An audience of a thousand tabs on an event's results asks, every few seconds, the event's
version document (``/e/<slug>/results/version.json``), and — when it changed — the pages
again, most of them with the ETag of the copy they have. Each of those answers is already
ready: the version is two round trips to the cache (``scoring.standings.public_cache.version``), a
page is the shared copy kept under it or a 304. What cost the server its CPU was the way
there — sessions, the language, CSRF, authentication, messages, axes, URL resolving — about
seven times the answer itself. This middleware, placed just after the security headers,
answers those requests itself:

- the version document, always (it depends on nothing but the event's version);
- an anonymous reader's GET of a public results page (``scoring.standings.public_cache.shared``: no
  session cookie, no ``?view=``) when the answer needs no drawing — a 304 to the ETag he
  has, or the copy this process or the shared cache keeps — in the language
  ``config.locale`` gives that page, with the headers it adds (``Vary: Accept-Language``
  when the language is the browser's, ``Content-Language``).

Everything else — a page to draw, the director, a key, a form — goes down the stack as
before, where ``scoring.standings.public_access.public_results`` draws and keeps it; both ways give
the same bytes and headers.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.utils.cache import patch_vary_headers

from config.locale import public_language

#: An event's public results address, in any language («/en/e/<slug>/results/…»).
RESULTS = re.compile(r"^/(?:[a-z]{2}/)?e/(?P<slug>[-a-zA-Z0-9_]+)/results/(?P<rest>.*)$")
VERSION_DOCUMENT = "version.json"


class PublicEarlyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in ("GET", "HEAD"):
            found = RESULTS.match(request.path_info)
            if found is not None:
                response = self._answer(request, found["slug"], found["rest"])
                if response is not None:
                    return response
        return self.get_response(request)

    def _answer(self, request, slug: str, rest: str):
        from scoring.standings import public_cache

        if rest == VERSION_DOCUMENT:
            event, stamp = public_cache.version(slug)
            return public_cache.version_answer(request, event, stamp)  # None: the view's 404
        if not public_cache.shared(request):
            return None
        event, stamp = public_cache.version(slug)
        # Read once: a page this cannot answer is drawn down the stack at this version.
        request.public_stamp = (slug, event, stamp)
        if event is None:
            return None
        language, from_address = public_language(request)
        response = public_cache.kept_answer(request, stamp, language)
        if response is None:
            return None
        if not from_address:
            patch_vary_headers(response, ("Accept-Language",))
        response.headers.setdefault("Content-Language", language)
        response.headers.setdefault("X-Frame-Options", settings.X_FRAME_OPTIONS)
        return response
