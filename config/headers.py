"""Two headers for every answer, set here once rather than view by view.

- ``Cache-Control: no-store`` (with Django's other never-cache headers) on every answer
  under the prefixes whose pages carry a player's key or PIN, or the director's whole event:
  the director's pages and the admin (name cards with every PIN, the participants' CSV, the
  QR codes), a player's ``/p/<key>/…`` and a table's ``/t/<key>/…``. Nothing of them is
  kept on a shared computer's disk or shown again from the history. Their polls (a phone's
  clock and seat blocks, the console's board) were already never cached: their scripts
  fetch with ``cache: "no-store"`` and none answers 304, so they cost the same. The public
  pages (``/e/…``: results, the hall screen and its clock JSON, which carry no key) keep
  whatever their views say.
- ``Content-Security-Policy`` (``settings.CONTENT_SECURITY_POLICY``): scripts, styles,
  images and requests from this site only and nothing inline — the pages' scripts are all
  files of ``static/js`` (a «Print» button is ``data-print``, ``static/js/print.js``), the
  QR codes are inline SVG elements, the hall screen's beep and voice are Web Audio and
  speech synthesis, which a policy does not restrict. A view that needs another policy (the
  API's Swagger page) sets its own header, which is kept.

A few lines rather than django-csp: the policy is one fixed string for the whole site, with
no nonces and no per-view variations to manage.
"""

from django.conf import settings
from django.utils.cache import add_never_cache_headers

#: Paths whose answers carry keys, PINs or the director's data.
PRIVATE_PREFIXES = ("/director/", "/admin/", "/p/", "/t/")


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith(PRIVATE_PREFIXES):
            add_never_cache_headers(response)  # max-age=0, no-cache, no-store, private …
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = settings.CONTENT_SECURITY_POLICY
        return response
