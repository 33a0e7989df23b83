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
under a token never changes meaning, so each process also keeps its own copy (:class:`_Memo`):
a poll that finds nothing changed reads only the tokens, in one round trip to the cache.

- a room's clock token: every state change of its rounds (``events.rounds``);
- a room's console token: whatever the director's console of the room shows (sheets, late
  marks, adjustments, table access, the clock), see :func:`console_version`;
- the setup token, one for the server: who sits in which room, the rooms of an event, an
  event's or a player's details (``movements.services`` seating and substitutes,
  ``events.services`` edits). These change a few times a day, so one token for all is
  enough, and it keeps a phone's poll at one key (its entry) instead of two.
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


def _doc_key(room_id: int, token: str, setup: str, lang: str) -> str:
    return f"clock:doc:{room_id}:{token}:{setup}:{lang}"


def entry_key(entry_id: int) -> str:
    """A player's own token: sheets, adjustments and access of his tables (his phone)."""
    return f"phone:entry:{entry_id}"


def table_key(table_id: int) -> str:
    """A table's own token: its sheets, adjustments and players' access (its pages)."""
    return f"table:{table_id}"


def clock_key(room_id: int) -> str:
    return _clock_key(room_id)


def console_key(room_id: int) -> str:
    return _console_key(room_id)


def tokens(keys: list[str], *, also: tuple[str, ...] = ()) -> dict[str, str]:
    """The current tokens of ``keys`` (and the values of ``also``) in one round trip."""
    return _tokens(keys, also=also)


def _new_token() -> str:
    return secrets.token_hex(6)


def _tokens(keys: list[str], *, also: tuple[str, ...] = ()) -> dict[str, str]:
    """The current tokens of ``keys``; a missing one gets a fresh token (first add wins).
    ``also``: other keys read in the same round trip (present in the answer if found)."""
    found = cache.get_many([*keys, *also])
    for key in keys:
        if key not in found:
            token = _new_token()
            found[key] = token if cache.add(key, token, TOKEN_TIMEOUT) else cache.get(key, token)
    return found


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
        "room": room.number,
        "name": str(room),
        # With several sessions the hall shows each one's rooms: «Сессия 2 · Тур 3».
        "session": room.session.number,
        "sessions": sessions,
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
    docs = {}
    for lang, _name in settings.LANGUAGES:
        with translation.override(lang):
            key = _doc_key(room_id, tokens[_clock_key(room_id)], tokens[SETUP], lang)
            docs[key] = build_room_doc(room)
    cache.set_many(docs, DOC_TIMEOUT)


class _Memo:
    """This process's own copy of what the shared cache holds under keys whose content never
    changes: a document under its tokens, a phone's room and a hall's rooms with the setup
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
_memo = _Memo(20_000)


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


def _player_room(key: str, setup: str) -> dict:
    """Which room and event a player's clock shows, as found under the setup token ``setup``:
    from the shared cache, else one indexed query (after a change of the setup)."""
    entry_key = f"clock:entry:{key}"
    mapping = cache.get(entry_key)
    if mapping is None or mapping["setup"] != setup:
        # His room: the one of his first seat in his latest session (as events.player).
        seat = Seat.objects.filter(entry=OuterRef("pk")).order_by(
            "-round__room__session__number", "round__number"
        )
        row = (
            Entry.objects.filter(key=key)
            .annotate(room_id=Subquery(seat.values("round__room_id")[:1]))
            .values("event__name", "room_id")
            .order_by()
            .first()
        )
        if row is None:
            raise LinkNotFound("player")
        mapping = {"setup": setup, "event": row["event__name"], "room": row["room_id"]}
        cache.set(entry_key, mapping, DOC_TIMEOUT)
    _memo.put(("entry", key), mapping)
    return mapping


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
            cache.set_many(built, timeout or DOC_TIMEOUT)
            shared |= built
        for key, value in shared.items():
            _memo.put(key, value)
        found |= shared
    return found


def by_tokens(key: str, build):
    """What is stored under ``key``, a key made of tokens (so what it holds never changes
    meaning): this process's copy, else the shared cache's, else ``build()``, stored."""
    value = _memo.get(key)
    if value is None:
        value = cache.get(key)
        if value is None:
            value = build()
            cache.set(key, value, DOC_TIMEOUT)
        _memo.put(key, value)
    return value


def player_room_id(key: str, *, setup: str | None = None) -> int | None:
    """The room a player's phone shows (his first seat's in his latest session), or None
    before he is seated: from the cache under the setup token (``setup``: just read by the
    caller), else one indexed query."""
    if setup is None:
        setup = _tokens([SETUP])[SETUP]
    known = _memo.get(("entry", key))
    if known is None or known["setup"] != setup:
        known = _player_room(key, setup)
    return known["room"]


def player_clock(key: str) -> dict:
    """The clock document of a player's phone: his room only (none before he is seated).

    Raises :class:`events.links.LinkNotFound` for a key that is no player's. No query and
    one round trip to the cache when nothing changed; after a change of the clock the room's
    document is ready (rebuilt after commit); after a change of the setup, one indexed query
    finds his room."""
    if not _KEY.fullmatch(key):
        raise LinkNotFound("player")
    now = timezone.now()
    known = _memo.get(("entry", key))
    tokens = _poll_tokens(
        [SETUP, *([_clock_key(known["room"])] if known and known["room"] else [])]
    )
    setup = tokens[SETUP]
    if known is None or known["setup"] != setup:
        known = _player_room(key, setup)
    rooms = room_docs([known["room"]] if known["room"] else [], setup, now, tokens)
    return {"now": now.isoformat(), "event": known["event"], "rooms": rooms}


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


def event_clock(slug: str) -> dict | None:
    """The hall screen's document: every room of the event, sessions in order; None for a
    slug that is no event's. Like a phone's: one round trip when nothing changed."""
    now = timezone.now()
    known = _memo.get(("hall", slug))
    tokens = _poll_tokens([SETUP, *(_clock_key(pk) for pk in (known["rooms"] if known else []))])
    setup = tokens[SETUP]
    if known is None or known["setup"] != setup:
        known = _hall_rooms(slug, setup)
        if known is None:
            return None
    return {
        "now": now.isoformat(),
        "event": known["event"],
        "rooms": room_docs(known["rooms"], setup, now, tokens),
    }


def console_version(room: Room) -> str:
    """Changes whenever anything the room's console shows changes; read it *before* building
    the console, so that a change made meanwhile shows at the next poll. ``room`` with
    ``session__event`` selected (whether results are public is the event's)."""
    tokens = _tokens([_console_key(room.pk), SETUP])
    public = "p" if room.session.event.results_public else "d"
    return f"{tokens[_console_key(room.pk)]}.{tokens[SETUP]}.{public}"
