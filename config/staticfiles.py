"""Static files under names that carry their content's hash (issue 36).

``collectstatic`` (``make run``, ``manage.py serve``, the image) writes each file also as
``app.3f2a9c….css`` with its gzip and Brotli copies, and ``{% static %}`` links those names:
WhiteNoise serves them with ``Cache-Control: max-age=315360000, public, immutable``. A
browser then never asks for a page's stylesheet or script again until it changes — which
changes its name. An audience of a thousand tabs reloading the results costs their pages,
not their files.

Where nothing was collected (the test suite's servers, which find the files in
``static/`` through WhiteNoise's finders), a name missing from the manifest is linked as it
is, as without this storage: the files are served, with WhiteNoise's short ``max-age``.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFiles(CompressedManifestStaticFilesStorage):
    #: A name the manifest lacks is linked plain (see the module), not an error.
    manifest_strict = False

    def stored_name(self, name):
        try:
            return super().stored_name(name)
        except ValueError:  # nothing collected: no manifest entry, no file to hash
            return name
