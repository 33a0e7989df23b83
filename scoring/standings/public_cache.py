"""The public pages drawn once per change and shared by every reader (issue 36).

An event's public results — the results page, the session standings, cards, travellers,
hand records and their files — are read by a whole hall at the end of a round and by its
clubs at home. Drawing them for every reader would take the server from the phones' clocks
(a standing of 400 rows is ~100 ms), so an anonymous reader's answer is kept whole in the
shared cache, under a **version** made of what it shows:

- the setup token (seating, the event's and the players' details: ``events.clockdoc``),
- the event's own results token (publishing or withdrawing, the director showing a
  session's deals, a deal's cards or analysis: ``clockdoc.results_key``),
- every room's clock token (a round started, paused or ended: the standings' headings),
- a digest of what the public may see of the results, read once per change of a room's
  console (each sheet, adjustment, table opened or closed): the deals played out
  (``scoring.standings.disclosure``), their figures and sheets, fouled boxes and round penalties — so
  a sheet of a deal still in play, which the public may not see, changes no page,

with the page's address (its language is in it: ``config.locale``). Reading the version is
two round trips to the cache and no query once warm; a change bumps a token, so the next
reader draws the page again — the rate of drawing follows the rate of results, not the
number of readers.

The answer carries a strong ``ETag`` of that version and ``Cache-Control: public,
max-age=…``: a tab that asks again with ``If-None-Match`` gets a 304 before anything is
drawn or read. It sets no cookie and varies on nothing but ``Accept-Encoding`` (a kept
gzip copy for readers that take it). Only anonymous readers share it: a request carrying a
session cookie (the director, who may see more and is shown a switch to his own view) is
drawn for him alone and never stored (``no-store``, ``scoring.standings.public_access``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified
from django.utils import translation
from django.utils.cache import patch_vary_headers

from events import clockdoc
from events.models import DealVersion, Event, Room, Session

#: How long a browser (or a proxy) may reuse an answer without asking; after that it asks
#: with ``If-None-Match`` and gets a 304 while nothing changed.
MAX_AGE = 5
#: Answers smaller than this are sent as they are.
GZIP_FROM = 1024
#: The headers of a drawn answer that are kept with it.
KEPT_HEADERS = ("Content-Type", "Content-Disposition", "Content-Language")


@dataclass(frozen=True)
class PublicEvent:
    """What the version needs of an event, kept under the setup token (its rooms change
    only with the seating)."""

    pk: int
    slug: str
    room_ids: tuple[int, ...]


def public_event(slug: str, setup: str) -> PublicEvent | None:
    """The event of ``slug`` and its rooms, from the cache under the setup token."""

    def build():
        found = Event.objects.filter(slug=slug).values_list("pk", flat=True).first()
        if found is None:
            return False  # kept too: a wrong address asked again costs nothing
        rooms = tuple(
            Room.objects.filter(session__event_id=found).order_by("pk").values_list("pk", flat=True)
        )
        return PublicEvent(found, slug, rooms)

    found = clockdoc.by_tokens(f"public-event:{slug}:{setup}", build)
    return found or None


def version(slug: str) -> tuple[PublicEvent | None, str]:
    """The event of ``slug`` and the version of everything its public pages show (see the
    module): two round trips to the cache and no query once warm. A sheet of a deal still
    in play changes the rooms' console tokens but nothing the public sees: the version's
    digest (:func:`_digest`, built once per such change) stays, and so do the pages, their
    ETags and the tabs that follow them."""
    setup = clockdoc.tokens([clockdoc.SETUP])[clockdoc.SETUP]
    found = public_event(slug, setup)
    if found is None:
        return None, f"none:{setup}"
    results = clockdoc.results_key(found.pk)
    clocks = [clockdoc.clock_key(pk) for pk in found.room_ids]
    consoles = [clockdoc.console_key(pk) for pk in found.room_ids]
    tokens = clockdoc.tokens([results, *clocks, *consoles])
    read = ":".join([setup, *(tokens[k] for k in [results, *consoles])])
    digest = _current_digest(found.pk, read)
    # The rounds' states (the standings' «после тура 2 из 11») from the clock tokens.
    return found, ":".join([setup, tokens[results], *(tokens[k] for k in clocks), digest])


def _current_digest(event_id: int, read: str) -> str:
    """The digest (:func:`_digest`) for the tokens just ``read``, built once for the whole
    cluster (``clockdoc.built_once``): while it is built, the other readers get the event's
    last digest — its pages stay at the version they had for the ~0.1 s it takes."""
    if clockdoc.LOCAL in read:  # Redis down: built for each request
        return _digest(event_id)
    key = f"public-digest:{event_id}:{hashlib.sha256(read.encode()).hexdigest()[:32]}"
    return clockdoc.built_once(
        key, lambda: _digest(event_id), last=f"public-digest-last:{event_id}"
    )


def _digest(event_id: int) -> str:
    """What the public may see of an event's results, as one hash: per session the deals
    played out (``scoring.standings.disclosure``), their figures, their sheets' current versions,
    the fouled boxes, and the penalties on whole table-rounds. Read once per change of a
    room's console, after the session's figures are brought up to date."""
    from scoring import standings
    from scoring.models import Adjustment, DealScore, ScoreSheet
    from scoring.standings import disclosure

    parts = []
    for session in (
        Session.objects.filter(event_id=event_id).select_related("event").order_by("number")
    ):
        standings.session_refresh(session)
        shown = disclosure.session_disclosure(session).shown
        ids = sorted(shown)
        parts.append((session.pk, ids))
        if ids:
            parts.append(
                sorted(
                    DealScore.objects.filter(session=session, deal_id__in=ids).values_list(
                        "deal_id",
                        "entry_id",
                        "position",
                        "net_num",
                        "net_den",
                        "points",
                        "artificial",
                        "second",
                    )
                )
            )
            parts.append(
                sorted(
                    ScoreSheet.objects.filter(deal_id__in=ids).values_list(
                        "pk", "current_id", "status"
                    )
                )
            )
        parts.append(
            sorted(
                DealVersion.objects.filter(deal__board_set__session=session).values_list(
                    "pk", "from_play_id"
                )
            )
        )
        parts.append(
            sorted(
                Adjustment.objects.filter(
                    play__round__room__session=session, deal__isnull=True
                ).values_list("pk", "entry_id", "penalty")
            )
        )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:24]


def _page_key(request, stamp: str, language: str | None = None) -> str:
    query = "&".join(sorted(f"{k}={v}" for k, values in request.GET.lists() for v in values))
    language = language or translation.get_language() or ""
    text = "\n".join([request.path, query, language, stamp])
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def _etag(key: str) -> str:
    return f'"{key[:32]}"'


def short(stamp: str) -> str:
    """The version as pages and the version document show it."""
    return hashlib.sha256(stamp.encode()).hexdigest()[:20]


def matches(request, etag: str) -> bool:
    asked = request.META.get("HTTP_IF_NONE_MATCH", "")
    return asked.strip() == "*" or etag in [tag.strip() for tag in asked.split(",")]


def _shared_headers(response, etag: str) -> None:
    response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={MAX_AGE}"
    patch_vary_headers(response, ("Accept-Encoding",))


def _stored(response) -> dict:
    body = response.content
    return {
        "status": response.status_code,
        "body": body,
        "gz": gzip.compress(body, compresslevel=6, mtime=0) if len(body) >= GZIP_FROM else None,
        "headers": {h: response[h] for h in KEPT_HEADERS if h in response},
    }


def _takes_gzip(request) -> bool:
    return "gzip" in request.META.get("HTTP_ACCEPT_ENCODING", "")


def _answer(request, kept: dict, etag: str) -> HttpResponse:
    body = kept["gz"] if _takes_gzip(request) and kept["gz"] is not None else kept["body"]
    response = HttpResponse(body, status=kept["status"])
    for name, value in kept["headers"].items():
        response[name] = value
    if body is kept["gz"]:
        response["Content-Encoding"] = "gzip"
        etag = _gz_tag(etag)  # another body, another tag
    response["Content-Length"] = str(len(body))
    _shared_headers(response, etag)
    return response


def _gz_tag(etag: str) -> str:
    return etag[:-1] + '-gz"'


def shared(request) -> bool:
    """Whether this request may be answered from the shared copy: an anonymous reader's
    GET (no session cookie: nobody is signed in) asking for no view of his own."""
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "view" not in request.GET
    )


class _NoMessages(list):
    """The messages of a shared answer: none, and nothing read from a cookie or a session
    to find that out (which would make the answer vary by cookie)."""

    def update(self, response):
        return None


def anonymous(request) -> None:
    """Draw the page as for anybody: no session read (``Vary: Cookie``), no message."""
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    request._messages = _NoMessages()


def version_answer(request, found: PublicEvent | None, stamp: str) -> HttpResponse | None:
    """The event's version document (``/e/<slug>/results/version.json``): the version of
    everything its public pages show, which a page that refreshes itself asks every few
    seconds, reloading only when it changed — a 304 to a reader who has it. None for an
    event that does not exist (the caller's 404)."""
    if found is None:
        return None
    current = short(stamp)
    etag = f'"{current}"'
    if matches(request, etag):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(json.dumps({"version": current}), content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={MAX_AGE}"
    return response


def kept_answer(request, stamp: str, language: str) -> HttpResponse | None:
    """The shared answer for ``request`` at ``stamp`` if it needs no drawing: a 304 to a
    reader who has the page, else the copy kept by this process or the shared cache; None
    when the page must be drawn (``serve``). Read by ``config.public_early`` before the
    middleware stack (sessions, CSRF, authentication: a request it answers never reaches
    them), with the language ``config.locale`` would give the page."""
    key = _page_key(request, stamp, language)
    etag = _etag(key)
    for tag in (etag, _gz_tag(etag)):
        if matches(request, tag):
            response = HttpResponseNotModified()
            _shared_headers(response, tag)
            return response
    if clockdoc.LOCAL in stamp:
        return None
    cache_key = f"public-page:{key}"
    kept = _pages.get(cache_key)
    if kept is None:
        kept = cache.get(cache_key)
        if kept is None:
            return None
        _pages.put(cache_key, kept)
    return _answer(request, kept, etag)


def serve(request, stamp: str, draw) -> HttpResponse:
    """The shared answer for ``request`` at ``stamp`` (its version): a 304 when the reader
    has it, else the kept copy, else ``draw()`` kept — 200 and 403 answers (a deal in play,
    results not published) alike."""
    key = _page_key(request, stamp)
    etag = _etag(key)
    for tag in (etag, _gz_tag(etag)):
        if matches(request, tag):
            response = HttpResponseNotModified()
            _shared_headers(response, tag)
            return response
    cache_key = f"public-page:{key}"
    keep = clockdoc.LOCAL not in stamp  # Redis down: tokens made up for this one read
    kept = _pages.get(cache_key) if keep else None
    if kept is None and keep:
        kept = cache.get(cache_key)
        if kept is not None:
            _pages.put(cache_key, kept)
    if kept is None:
        # Drawn once for the cluster: while another reader draws this page at this version,
        # the others are given its last copy (a version older by the ~0.1 s of drawing).
        last_key = f"public-page-last:{_page_key(request, '')}"
        building = f"{cache_key}:drawing"
        if keep and not cache.add(building, 1, clockdoc.BUILDING_SECONDS):
            last = cache.get(last_key)
            if last is not None:
                return _answer(request, last["kept"], last["etag"])
        try:
            anonymous(request)
            response = draw()
            if response.status_code not in (200, 403) or response.streaming:
                return response
            kept = _stored(response)
            if keep:
                cache.set_many(
                    {cache_key: kept, last_key: {"kept": kept, "etag": etag}},
                    clockdoc.DOC_TIMEOUT,
                )
                _pages.put(cache_key, kept)
        finally:
            if keep:
                cache.delete(building)
    return _answer(request, kept, etag)


#: This process's copies of the last pages it served (a few hundred: a page is up to
#: ~150 KB): a reader's request then costs no round trip for the page itself.
_pages = clockdoc.Memo(200)
