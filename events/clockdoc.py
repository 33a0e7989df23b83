"""The room clock documents the phones, the hall screen and the director's page poll.

Hundreds of phones ask every second or two what the clock of their room shows. The answer
changes only when the clock does (a start, a pause, a resume, an extension, an end, a
warning, an automatic start: every announcement), so it is built once per change and per
language and served from the shared cache; each answer adds only ``now`` (and, while a round
runs, ``remaining_ms`` from ``ends_at``: the pages count down from ``ends_at`` and the server's
``now``, and use ``remaining_ms`` only when paused).

Versions are *tokens* in the cache, not counters: a change sets a new random token and the
documents are stored under the token they were read for, so a document built from an older
state can only land under a token nobody reads any more, and a token lost from the cache
(evicted, expired) simply gets a new one. A writer bumps the tokens twice: at once, so that
its own transaction (and a test's) reads the change, and after commit, so that no other
process keeps a document it built from the state before the commit; after commit the room's
documents are also rebuilt, so that the phones' next polls find them ready. What is stored
under a token never changes meaning, so each process also keeps its own copy (:class:`Memo`):
a poll that finds nothing changed reads only the tokens, in one round trip to the cache.
With Redis down (``config.cache`` then answers every read with a miss) each read makes its
tokens up (:data:`LOCAL`) and every document is built from the database: correct, slower.

- a room's clock token: every state change of its rounds (``events.rounds``);
- a room's console token: whatever the director's console of the room shows (sheets, late
  marks, adjustments, table access, the clock), see :func:`console_version`;
- the setup token, one for the server: who sits in which room, the rooms of an event, an
  event's or a player's details (``movements.services`` seating and substitutes,
  ``events.services`` edits). These change a few times a day, so one token for all is
  enough, and it keeps a phone's poll at one key (its entry) instead of two.

A document is a room's, keyed by the room's pk (every session has a room 1). Which rooms the
hall and a phone show — the session being played, even with the next one seated meanwhile
(docs/game.md §7.4) — is read off the documents themselves (:func:`on_the_hall`,
:func:`on_the_phone`), which the poll reads anyway: choosing costs no query and no read.
"""

from __future__ import annotations

import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, OuterRef, Subquery
from django.dispatch import receiver
from django.utils import timezone, translation

from events import announcements, clock, rounds, signals
from events.links import LinkNotFound
from events.models import Announcement, Entry, Event, Room, Round, Seat, Session

logger = logging.getLogger("events.clock")

#: How long a built document lives unread (a new token makes it unreachable anyway).
DOC_TIMEOUT = 24 * 3600
#: Tokens live long; a lost one is replaced (and everything under the old one is rebuilt).
TOKEN_TIMEOUT = 30 * 24 * 3600

SETUP = "clock:setup"
#: A player's key as ``events.models.new_private_key`` makes it; anything else is no key.
_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _clock_key(room_id: int) -> str:
    return f"clock:room:{room_id}"


def _console_key(room_id: int) -> str:
    return f"console:room:{room_id}"


#: Part of every key whose stored content has a shape: a new shape is a new key (a document
#: stored by the code before never reaches the code after).
SHAPE = "2"


def _doc_key(room_id: int, token: str, setup: str, lang: str) -> str:
    return f"clock:doc{SHAPE}:{room_id}:{token}:{setup}:{lang}"


def entry_key(entry_id: int) -> str:
    """A player's own token: sheets, adjustments and access of his tables (his phone)."""
    return f"phone:entry:{entry_id}"


def table_key(table_id: int) -> str:
    """A table's own token: its sheets, adjustments and players' access (its pages)."""
    return f"table:{table_id}"


def clock_key(room_id: int) -> str:
    return _clock_key(room_id)


def results_key(event_id: int) -> str:
    """An event's own token for its public pages: what they show beside the rooms' sheets,
    adjustments and clocks (those bump the rooms' console tokens) and the setup — publishing
    or withdrawing, the director showing a session's deals, a deal's cards or analysis."""
    return f"results:event:{event_id}"


def console_key(room_id: int) -> str:
    return _console_key(room_id)


def tokens(keys: list[str], *, also: tuple[str, ...] = ()) -> dict[str, str]:
    """The current tokens of ``keys`` (and the values of ``also``) in one round trip."""
    return _tokens(keys, also=also)


def _new_token() -> str:
    return secrets.token_hex(6)


#: Marks a token the shared cache would not keep (Redis down: ``config.cache`` answers every
#: read with a miss and stores nothing), so made up for this one read; never in a stored one
#: (hex digits). Nobody can ask for what is built under it again: it is not kept
#: (:func:`by_tokens`, :func:`room_rebuild`), except a clock poll's documents, which the polls
#: of the next ``POLL_TOKENS_SECONDS`` share.
LOCAL = "~"


def _tokens(keys: list[str], *, also: tuple[str, ...] = ()) -> dict[str, str]:
    """The current tokens of ``keys``; a missing one gets a fresh token (first add wins; if
    the cache keeps none at all, a :data:`LOCAL` one). ``also``: other keys read in the same
    round trip (present in the answer if found)."""
    found = cache.get_many([*keys, *also])
    for key in keys:
        if key not in found:
            token = _new_token()
            if cache.add(key, token, TOKEN_TIMEOUT):
                found[key] = token
            else:  # another process's, added meanwhile; or no cache to keep one
                found[key] = cache.get(key) or LOCAL + token
    return found


def _kept(key: str) -> bool:
    """Whether what is built under ``key`` may be found again (no :data:`LOCAL` token in it)."""
    return LOCAL not in key


def _bump(keys: list[str]) -> None:
    cache.set_many({key: _new_token() for key in keys}, TOKEN_TIMEOUT)
    _polled.clear()  # this process's polls see its own change at once


#: The clock polls (phones, hall screen) read the tokens from the shared cache at most this
#: often per process and set of keys: 200 polls a second then cost a few round trips to the
#: cache, not 200. A change made in another process shows this much later at most (well
#: inside the 5 s the phones have); a change made in this process shows at once.
POLL_TOKENS_SECONDS = 0.5
_polled: dict[tuple[str, ...], tuple[float, dict[str, str]]] = {}


def _poll_tokens(keys: list[str]) -> dict[str, str]:
    """:func:`_tokens` for the clock polls, read again after ``POLL_TOKENS_SECONDS``."""
    wanted = tuple(keys)
    now = time.monotonic()
    hit = _polled.get(wanted)
    if hit is not None and now - hit[0] < POLL_TOKENS_SECONDS:
        return hit[1]
    found = _tokens(keys)
    if len(_polled) > 10_000:  # one entry per room (and hall); a bound all the same
        _polled.clear()
    _polled[wanted] = (now, found)
    return found


def forget_local() -> None:
    """Drop this process's own copies (documents and polled tokens): the tests, whose ids
    repeat from one test to the next, call it with each empty cache."""
    _polled.clear()
    _memo.clear()
    _overdue_tried.clear()


def _bump_now_and_after_commit(keys: list[str], then=None) -> None:
    """New tokens now (this transaction's own reads see the change) and once more after the
    commit (a poll that read the old rows meanwhile cached them under the first ones)."""
    _bump(keys)
    if not transaction.get_connection().in_atomic_block:  # autocommit: committed already
        if then is not None:
            then()
        return

    def after_commit():
        _bump(keys)
        if then is not None:
            then()

    # robust: the change is committed; a cache hiccup must not turn it into an error page.
    transaction.on_commit(after_commit, robust=True)


# --- what writers call ------------------------------------------------------------------


def room_changed(room_id: int, *, clock: bool = True) -> None:
    """Something of the room changed: its console, and (``clock``) its clock."""
    if not clock:
        _bump_now_and_after_commit([_console_key(room_id)])
        return
    _bump_now_and_after_commit(
        [_console_key(room_id), _clock_key(room_id)], then=lambda: room_rebuild(room_id)
    )


@receiver(signals.clock_changed, dispatch_uid="events.clockdoc.room_changed")
def _clock_changed(sender, room_id: int, **kwargs) -> None:
    room_changed(room_id)


def room_and_entries_changed(room_id: int, entry_ids, table_id: int | None = None) -> None:
    """:func:`room_changed` (not its clock), :func:`entries_changed` and
    :func:`tables_changed` in one go: a sheet or an adjustment changes the room's console,
    its players' phones and the table's pages."""
    keys = [_console_key(room_id), *(entry_key(pk) for pk in sorted(set(entry_ids)))]
    if table_id is not None:
        keys.append(table_key(table_id))
    _bump_now_and_after_commit(keys)


def tables_changed(table_ids) -> None:
    """What these tables' pages read of their table-rounds changed (their players' access)."""
    keys = [table_key(pk) for pk in sorted(set(table_ids))]
    if keys:
        _bump_now_and_after_commit(keys)


def entries_changed(entry_ids) -> None:
    """What these players' phones show of their own tables changed (a sheet, an adjustment,
    a table opened or closed): only their fragments are built again, not the whole hall's."""
    keys = [entry_key(pk) for pk in sorted(set(entry_ids))]
    if keys:
        _bump_now_and_after_commit(keys)


def results_changed(event_id: int) -> None:
    """What an event's public pages show changed beyond its rooms' sheets and clocks
    (:func:`results_key`)."""
    _bump_now_and_after_commit([results_key(event_id)])


def setup_changed() -> None:
    """Seating, rooms, an event's or a player's details changed (anywhere on the server)."""
    _bump_now_and_after_commit([SETUP])


# --- the documents ------------------------------------------------------------------------


def _lang() -> str:
    try:
        return translation.get_supported_language_variant(
            translation.get_language() or settings.LANGUAGE_CODE
        )
    except LookupError:
        return settings.LANGUAGE_CODE


def build_room_doc(room: Room) -> dict:
    """What a clock shows for one room, in the active language, without the time-dependent
    ``remaining_ms`` of a running round (see :func:`_served`). ``room`` with
    ``session__event`` selected."""
    room_rounds = list(room.rounds.order_by("number"))
    for rnd in room_rounds:
        rnd.room = room  # round_length reads the room's session and event
    current = clock.current_round(room_rounds)
    following = min(
        (r for r in room_rounds if r.state == Round.State.PENDING),
        key=lambda r: r.number,
        default=None,
    )
    latest = (
        Announcement.objects.filter(room=room)
        .select_related("round", "room")
        .order_by("-fired_at", "-id")
        .first()
    )
    running = current is not None and current.state == Round.State.RUNNING
    sessions = getattr(room, "event_sessions", None)
    if sessions is None:
        sessions = Session.objects.filter(event_id=room.session.event_id).count()
    return {
        # Its own pk: the pages key a room's clock by it. Two sessions both have a room 1.
        "id": room.pk,
        "room": room.number,
        "name": str(room),
        # With several sessions the clocks name the session: «Сессия 2 · Тур 3».
        "session": room.session.number,
        "sessions": sessions,
        "session_name": translation.gettext("Session %(number)s") % {"number": room.session.number}
        if sessions > 1
        else "",
        # Which session the hall and a phone show (see on_the_hall, on_the_phone).
        "started": any(r.state != Round.State.PENDING for r in room_rounds),
        "over": bool(room_rounds) and all(r.state == Round.State.FINISHED for r in room_rounds),
        "rounds": room.rounds_planned,
        "round": current.number if current else None,
        "state": current.state if current else None,
        "ends_at": current.ends_at.isoformat() if current and current.ends_at else None,
        # Paused, pending or finished: the same at any instant. Running: see _served.
        "remaining_ms": int(rounds.round_remaining(current).total_seconds() * 1000)
        if current and not running
        else 0,
        "length_ms": int(rounds.round_length(current).total_seconds() * 1000) if current else 0,
        "next_round": following.number if following else None,
        "auto_start_at": following.auto_start_at.isoformat()
        if following and following.auto_start_at
        else None,
        "announcement": announcements.as_dict(latest) if latest else None,
    }


def _served(doc: dict, now: datetime) -> dict:
    """The stored document as answered at ``now``."""
    if doc["state"] == Round.State.RUNNING and doc["ends_at"]:
        left = datetime.fromisoformat(doc["ends_at"]) - now
        return doc | {"remaining_ms": max(0, int(left.total_seconds() * 1000))}
    return doc


def event_sessions_count() -> Subquery:
    """How many sessions the room's event has, as an annotation of a Room query (the same
    one query): the clocks name the session when there are several."""
    return Subquery(
        Session.objects.filter(event_id=OuterRef("session__event_id"))
        .order_by()
        .values("event_id")
        .annotate(count=Count("pk"))
        .values("count")[:1]
    )


def _room(room_id: int) -> Room | None:
    return (
        Room.objects.select_related("session__event")
        .annotate(event_sessions=event_sessions_count())
        .filter(pk=room_id)
        .order_by()
        .first()
    )


def room_rebuild(room_id: int) -> None:
    """Build the room's documents in every language under the current tokens (after a change
    commits: the phones' next polls find them ready)."""
    room = _room(room_id)
    if room is None:
        return
    tokens = _tokens([_clock_key(room_id), SETUP])
    if not all(_kept(token) for token in tokens.values()):
        return  # the cache keeps nothing now: each poll builds its own
    docs = {}
    for lang, _name in settings.LANGUAGES:
        with translation.override(lang):
            key = _doc_key(room_id, tokens[_clock_key(room_id)], tokens[SETUP], lang)
            docs[key] = build_room_doc(room)
    cache.set_many(docs, DOC_TIMEOUT)


class Memo:
    """This process's own copy of what the shared cache holds under keys whose content never
    changes: a document under its tokens, a phone's rooms and a hall's rooms with the setup
    token they were found under (checked against the current one at every poll). A poll then
    costs one round trip to the shared cache: the one that reads the tokens."""

    def __init__(self, size: int):
        self._items: OrderedDict = OrderedDict()
        self._size = size
        self._lock = threading.Lock()  # gunicorn's threads share it

    def get(self, key):
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


#: About a hall of phones and a day of documents (a few MB at most).
_memo = Memo(20_000)


def room_docs(
    room_ids: list[int], setup: str, now: datetime, tokens: dict[str, str] | None = None
) -> list[dict]:
    """The clock documents of ``room_ids`` (in that order) in the active language, from the
    cache; a missing one is built and stored. ``tokens``: the rooms' clock tokens if already
    read with the setup."""
    if not room_ids:
        return []
    lang = _lang()
    wanted = [_clock_key(pk) for pk in room_ids]
    if tokens is None or any(key not in tokens for key in wanted):
        tokens = _tokens(wanted)
    keys = {pk: _doc_key(pk, tokens[_clock_key(pk)], setup, lang) for pk in room_ids}
    docs = {pk: _memo.get(key) for pk, key in keys.items()}
    missing = [keys[pk] for pk, doc in docs.items() if doc is None]
    found = cache.get_many(missing) if missing else {}
    served = []
    for pk in room_ids:
        doc = docs[pk] or found.get(keys[pk])
        if doc is None:
            room = _room(pk)
            if room is None:  # removed since the setup was read: the next poll knows
                continue
            doc = build_room_doc(room)
            cache.set(keys[pk], doc, DOC_TIMEOUT)
        _memo.put(keys[pk], doc)
        _end_if_overdue(pk, doc, now)
        served.append(_served(doc, now))
    return served


#: A clock read ends an overdue round itself at most this often per process and room.
OVERDUE_RETRY_SECONDS = 1.0
_overdue_tried: dict[int, float] = {}


def _end_if_overdue(room_id: int, doc: dict, now: datetime) -> None:
    """The round's end never waits on the broker alone: a read of a clock whose running
    round is past its end fires «Конец тура!» (``rounds.room_fire_overdue``: exactly once,
    whoever comes first — the timer, the sweep or a reader). Its phones see the end at their
    next poll."""
    if doc["state"] != Round.State.RUNNING or not doc["ends_at"]:
        return
    if datetime.fromisoformat(doc["ends_at"]) > now:
        return
    tried = _overdue_tried.get(room_id)
    clock_now = time.monotonic()
    if tried is not None and clock_now - tried < OVERDUE_RETRY_SECONDS:
        return
    _overdue_tried[room_id] = clock_now
    try:
        if rounds.room_fire_overdue(room_id, now=now):
            logger.info("room %s: «Конец тура!» fired by a clock read (overdue)", room_id)
    except Exception:  # a read must answer even if the write fails; the sweep retries
        logger.warning("room %s: ending an overdue round on read failed", room_id, exc_info=True)


def room_clock(room: Room) -> dict | None:
    """One room's clock as its page shows it now (the director's room page)."""
    tokens = _tokens([SETUP, _clock_key(room.pk)])
    docs = room_docs([room.pk], tokens[SETUP], timezone.now(), tokens)
    return docs[0] if docs else None


def _player_rooms(key: str, setup: str) -> dict:
    """The rooms a player is seated in, sessions in order, and his event, as found under the
    setup token ``setup``: from the shared cache, else one indexed query (after a change of
    the setup; two for a player seated nowhere, whose event is read on its own)."""
    entry_key = f"clock:player{SHAPE}:{key}"
    mapping = cache.get(entry_key)
    if mapping is None or mapping["setup"] != setup:
        # One row a room he has a seat in: one a session he plays (his seats are read by the
        # index on the entry, never the room's).
        rows = list(
            Room.objects.filter(pk__in=Seat.objects.filter(entry__key=key).values("round__room_id"))
            .order_by("session__number", "number")
            .values_list("pk", "session__event__name")
        )
        if rows:
            event = rows[0][1]
        else:
            event = Entry.objects.filter(key=key).values_list("event__name", flat=True).first()
            if event is None:
                raise LinkNotFound("player")
        mapping = {"setup": setup, "event": event, "rooms": [pk for pk, _name in rows]}
        cache.set(entry_key, mapping, DOC_TIMEOUT)
    _memo.put(("player", key), mapping)
    return mapping


# --- which session a clock shows ----------------------------------------------------------
#
# Preparing the next session while one runs changes nothing on the running one's screens
# (docs/game.md §7.4): a session shows on the hall from its first round's start until it is
# over and the next one starts; the first session shows, not started, before anything has;
# a session seated meanwhile waits. A phone follows its player's rooms the same way.


def _running(doc: dict) -> bool:
    return doc["started"] and not doc["over"]


def on_the_hall(docs: list[dict]) -> list[dict]:
    """The documents the hall shows, of ``docs`` (the event's rooms, sessions in order): the
    sessions running (a round of one of its rooms has started, not every round is over);
    with none running, the latest session that has played (its «Конец тура!» stays on the
    screen); before any round has started, the first session."""
    sessions: dict[int, list[dict]] = {}
    for doc in docs:
        sessions.setdefault(doc["session"], []).append(doc)
    groups = list(sessions.values())
    running = [g for g in groups if any(d["started"] for d in g) and not all(d["over"] for d in g)]
    if running:
        return [d for g in running for d in g]
    played = [g for g in groups if any(d["started"] for d in g)]
    return played[-1] if played else groups[0] if groups else []


def on_the_phone(docs: list[dict]) -> dict | None:
    """The one document a player's phone shows, of his rooms' ``docs`` (sessions in order):
    the room running; with none, the latest that has played (until the next one starts its
    first round, its last «Конец тура!» is what he needs to see); before any has started,
    his first. His seats (``scoring.player.page``) already say where he goes next."""
    running = [d for d in docs if _running(d)]
    if running:
        return running[0]
    played = [d for d in docs if d["started"]]
    return played[-1] if played else docs[0] if docs else None


def local_by_tokens(key: tuple, build):
    """What this process holds under ``key``, a key made of tokens the caller has just read
    (so what it holds never changes meaning), else ``build()``, kept. Not shared with the
    other processes: for objects its threads only read (a table's rows for its pages)."""
    value = _memo.get(key)
    if value is None:
        value = build()
        _memo.put(key, value)
    return value


def many_by_tokens(keys: list[str], build_missing, *, timeout: int = 0) -> dict:
    """:func:`by_tokens` for many keys at once: this process's copies, then one round trip
    to the shared cache for the others, then ``build_missing(set of keys)`` (a dict by key)
    for those still missing, stored. What it returns is shared: read it, never change it."""
    found = {}
    for key in keys:
        value = _memo.get(key)
        if value is not None:
            found[key] = value
    wanted = [key for key in keys if key not in found]
    if wanted:
        shared = cache.get_many(wanted)
        missing = {key for key in wanted if key not in shared}
        if missing:
            built = build_missing(missing)
            cache.set_many({k: v for k, v in built.items() if _kept(k)}, timeout or DOC_TIMEOUT)
            shared |= built
        for key, value in shared.items():
            if _kept(key):
                _memo.put(key, value)
        found |= shared
    return found


#: How long one process may hold the right to build a value of :func:`built_once` before
#: another may (it crashed): far more than the ~0.1 s such a build takes at 100 tables.
BUILDING_SECONDS = 15


def built_once(key: str, build, *, last: str):
    """:func:`by_tokens`, built **once for the cluster**: after a change, the first reader
    takes the right to build (an ``add`` in the shared cache) and every other reader
    meanwhile is given what was last built under ``last`` (the same thing at the tokens
    before) — instead of every poll in flight building the same value at once. Only for
    values whose previous version may be shown a moment longer (a digest, a session's
    disclosure: what was shown stays shown). None built yet: each reader builds it."""
    if not _kept(key):  # Redis down: built for this one request
        return build()
    value = _memo.get(key)
    if value is not None:
        return value
    value = cache.get(key)
    if value is None:
        building = f"{key}:building"
        if not cache.add(building, 1, BUILDING_SECONDS):
            previous = cache.get(last)
            if previous is not None:
                return previous  # another reader is building this one
        try:
            value = build()
            cache.set_many({key: value, last: value}, DOC_TIMEOUT)
        finally:
            cache.delete(building)
    _memo.put(key, value)
    return value


def by_tokens(key: str, build):
    """What is stored under ``key``, a key made of tokens (so what it holds never changes
    meaning): this process's copy, else the shared cache's, else ``build()``, stored."""
    if not _kept(key):  # Redis down: built for this one request
        return build()
    value = _memo.get(key)
    if value is None:
        value = cache.get(key)
        if value is None:
            value = build()
            cache.set(key, value, DOC_TIMEOUT)
        _memo.put(key, value)
    return value


def player_rooms(key: str, *, setup: str | None = None) -> list[int]:
    """The rooms a player is seated in, sessions in order (none before he is seated): from
    the cache under the setup token (``setup``: just read by the caller), else one indexed
    query. His page picks the room of his seats from them (``events.player.pick_seating``),
    his clock the room it shows (:func:`on_the_phone`)."""
    if setup is None:
        setup = _tokens([SETUP])[SETUP]
    known = _memo.get(("player", key))
    if known is None or known["setup"] != setup:
        known = _player_rooms(key, setup)
    return known["rooms"]


def player_clock(key: str) -> dict:
    """The clock document of a player's phone: one room, the one :func:`on_the_phone` picks
    of his (none before he is seated).

    Raises :class:`events.links.LinkNotFound` for a key that is no player's. No query and
    one round trip to the cache when nothing changed (his rooms' tokens, one a session he
    plays, in that one read; their documents from this process's copies); after a change of
    a clock, one more for the document rebuilt after commit; after a change of the setup,
    one indexed query finds his rooms."""
    if not _KEY.fullmatch(key):
        raise LinkNotFound("player")
    now = timezone.now()
    known = _memo.get(("player", key))
    tokens = _poll_tokens([SETUP, *(_clock_key(pk) for pk in (known["rooms"] if known else []))])
    setup = tokens[SETUP]
    if known is None or known["setup"] != setup:
        known = _player_rooms(key, setup)
    shown = on_the_phone(room_docs(known["rooms"], setup, now, tokens))
    return {"now": now.isoformat(), "event": known["event"], "rooms": [shown] if shown else []}


def room_clock_doc(room_id: int) -> dict:
    """The clock document of one room, as a phone polls it: a table's round page follows
    its own round's room (keyed by the room's pk: the next session's room 1 is another
    room). Like a player's poll: one round trip to the cache when nothing changed."""
    now = timezone.now()
    tokens = _poll_tokens([SETUP, _clock_key(room_id)])
    rooms = room_docs([room_id], tokens[SETUP], now, tokens)
    return {"now": now.isoformat(), "rooms": rooms}


def _hall_rooms(slug: str, setup: str) -> dict | None:
    hall_key = f"clock:hall:{slug}"
    hall = cache.get(hall_key)
    if hall is None or hall["setup"] != setup:
        event = Event.objects.filter(slug=slug).values("pk", "name").order_by().first()
        if event is None:
            return None
        rooms = (
            Room.objects.filter(session__event_id=event["pk"])
            .order_by("session__number", "number")
            .values_list("pk", flat=True)
        )
        hall = {"setup": setup, "event": event["name"], "rooms": list(rooms)}
        cache.set(hall_key, hall, DOC_TIMEOUT)
    _memo.put(("hall", slug), hall)
    return hall


def event_clock(slug: str, *, room_id: int | None = None) -> dict | None:
    """The hall screen's document: the rooms :func:`on_the_hall` shows, sessions in order;
    None for a slug that is no event's. ``room_id``: that one room of the event's whatever
    the hall shows (its console), None if it is none of the event's. Like a phone's: one
    round trip when nothing changed."""
    now = timezone.now()
    known = _memo.get(("hall", slug))
    wanted = [room_id] if room_id is not None else known["rooms"] if known else []
    tokens = _poll_tokens([SETUP, *(_clock_key(pk) for pk in wanted)])
    setup = tokens[SETUP]
    if known is None or known["setup"] != setup:
        known = _hall_rooms(slug, setup)
        if known is None:
            return None
    if room_id is None:
        rooms = on_the_hall(room_docs(known["rooms"], setup, now, tokens))
    elif room_id in known["rooms"]:
        rooms = room_docs([room_id], setup, now, tokens)
    else:
        return None
    return {"now": now.isoformat(), "event": known["event"], "rooms": rooms}


def console_version(room: Room) -> str:
    """Changes whenever anything the room's console shows changes; read it *before* building
    the console, so that a change made meanwhile shows at the next poll. ``room`` with
    ``session__event`` selected (whether results are public is the event's)."""
    tokens = _tokens([_console_key(room.pk), SETUP])
    public = "p" if room.session.event.results_public else "d"
    return f"{tokens[_console_key(room.pk)]}.{tokens[SETUP]}.{public}"
