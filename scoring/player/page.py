"""What a player's phone shows (/p/<key>/ and its seat fragment): where to sit now and next
with the sets, the sheets his table may still write, and «Мои результаты».

The page lives in scoring because it shows scoring's rows (the sets each table plays, the
sheets, the figures) and events must not import scoring (events → movements → scoring):
``events.player`` reads the seating and the clock, this module adds the rest, and
``scoring.player.views`` serves the page under the same URLs.

Hundreds of phones poll the seat fragment, so every read here is a fixed number of queries
that return only the rows the phone shows (see ``tests/events/test_player_cost.py``):

- his seats now and next with their sets (and for N where the set goes), picked from his
  room's seating: the room's two rounds not yet finished, their seats and sets, built once
  per change of the clock or the seating and shared by the room's phones (three queries
  then, none after: ``events.player.room_seating`` and :func:`_seating_with_sets`);
- the finished table-rounds he may still write (``services.entry_open_plays``);
- the sheets of the deals he played, with his points: this grows with what he played, never
  with the rounds planned or the number of tables;
- only once the director publishes: his figure per deal once the deal is played out, and
  his place among the totals of the deals played out (``standings.session_place``: the
  session's totals, the played-out deals' sums kept in the shared cache per change), as the
  public standing gives it (docs/game.md §4.4–4.5).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation

from events import checkin, clock, clockdoc
from events.boards import set_label
from events.models import Entry, Room, Session
from events.player import Place, PlayerSeats, RoomSeating, pick_seating, room_seating
from events.services import last_substitution
from scoring import standings
from scoring.models import DealScore, ScoreSheet, TablePlay
from scoring.sheets.access import EntryPlay, entry_open_plays, entry_plays
from scoring.sheets.display import figure_unit
from scoring.standings import disclosure, public_cache


@dataclass
class ResultRow:
    """A deal he played (he sat at the table, was not the one sitting out, a sheet exists)."""

    sheet: ScoreSheet
    round_number: int
    position: str = ""
    session_number: int = 0
    score: DealScore | None = None  # his figure, once published

    @property
    def deal(self):
        return self.sheet.deal


@dataclass
class Results:
    rows: list[ResultRow]
    standings: dict[int, standings.SessionPlace | None]  # session number → his place


def _seating_with_sets(room_id: int) -> RoomSeating | None:
    """The room's seating (``events.player.room_seating``) with every place's set, and for
    each N where his set goes at «Конец тура!»: three queries for the whole room."""
    # With its session and the event's number of sessions (the phone names the session
    # when there are several), in the same one query.
    room = (
        Room.objects.select_related("session")
        .annotate(event_sessions=clockdoc.event_sessions_count())
        .filter(pk=room_id)
        .order_by()
        .first()
    )
    if room is None:
        return None
    seating = room_seating(room)
    places = [p for pair in seating.places.values() for p in pair if p is not None]
    round_ids = {p.round_id for p in places}
    if not round_ids:
        return seating
    sets = {
        # The set as the cards print it: «A3» when rooms play different boxes.
        (round_id, table_id): (table, board_set, key, set_label(letter, board_set))
        for round_id, table_id, table, board_set, key, letter in TablePlay.objects.filter(
            round_id__in=round_ids
        )
        .order_by()
        .values_list(
            "round_id", "table_id", "table__number", "board_set__number", "key", "board_set__letter"
        )
    }
    for place in places:
        if not place.is_pause:
            found = sets.get((place.round_id, place.table_id))
            place.set = found[1] if found else None
            place.set_label = found[3] if found else ""
            # His table's round link: «Протоколы моего стола» opens that one round.
            place.play_key = found[2] if found else ""
    by_round: dict[int, dict[int, int]] = {}
    for (round_id, _table_id), (table, board_set, _key, _label) in sets.items():
        by_round.setdefault(round_id, {})[table] = board_set
    for now, nxt in seating.places.values():
        # N takes the set on (his next seat may be a pause: the set still goes on).
        if now is None or now.is_pause or now.position != "N" or nxt is None:
            continue
        now_sets = {now.table: now.set} if now.set is not None else {}
        next_sets = by_round.get(nxt.round_id, {})
        now.set_goes_to = clock.set_destinations(now_sets, next_sets).get(now.table, [])
    return seating


def _player_seats(entry: Entry, known: dict[str, str]) -> PlayerSeats:
    """His seats now and next with their sets, picked from his room's seating, which the
    room's phones share: built once per change of the room's clock or of the seating (and
    per language: a room without a name is «Комната N»), kept in the cache under those
    tokens (``events.clockdoc.by_tokens``). His room: that of the session he plays
    (``events.player.pick_seating``): while it runs, the one seating read as before; once it
    is over, the next session's as well."""
    room_ids = clockdoc.player_rooms(entry.key, setup=known.get(clockdoc.SETUP))
    if not room_ids:
        return PlayerSeats()
    tokens = known
    wanted = [clockdoc.SETUP, *(clockdoc.clock_key(pk) for pk in room_ids)]
    if any(key not in known for key in wanted):
        tokens = clockdoc.tokens(wanted)
    setup, lang = tokens[clockdoc.SETUP], translation.get_language() or ""

    def seating_of(room_id: int) -> RoomSeating | None:
        clock_token = tokens[clockdoc.clock_key(room_id)]
        key = f"phone:seating:{room_id}:{clock_token}:{setup}:{lang}"
        return clockdoc.by_tokens(key, lambda: _seating_with_sets(room_id))

    seating = pick_seating(room_ids, seating_of, entry.pk)
    return seating.of(entry.pk) if seating is not None else PlayerSeats()


def player_results(
    entry: Entry, *, published: bool, plays: list[EntryPlay] | None = None
) -> Results:
    """His own points on each deal he played, in the order he played them; his figures and
    places only once the director publishes. ``plays``: his table-rounds
    (``services.entry_plays``), if the caller has read them."""
    if plays is None:
        plays = entry_plays(entry)
    mine = {p.play.pk: p for p in plays}
    sheets = (
        ScoreSheet.objects.filter(play_id__in=list(mine))
        .select_related("current", "deal__board_set")
        .order_by()
    )
    rows = []
    for sheet in sheets:
        played = mine[sheet.play_id]
        if played.position in sheet.deal.active_seats:
            row = ResultRow(sheet=sheet, round_number=played.play.round.number)
            row.position, row.session_number = played.position, played.session_number
            rows.append(row)
    rows.sort(key=lambda r: (r.session_number, r.round_number, r.sheet.deal.number))
    places: dict[int, standings.SessionPlace | None] = {}
    if published:
        sessions = list(
            Session.objects.filter(event=entry.event_id).select_related("event").order_by("number")
        )
        for session in sessions:
            standings.session_refresh(session)
        # The public's view (docs/game.md §4.5): a figure compares him with the other
        # tables, so it shows once the deal is played out; his place counts those deals only.
        seen = disclosure.Viewer(entry.event, director=False)
        scores = {
            (s.play_id, s.deal_id): s
            for s in DealScore.objects.filter(entry=entry, session__in=sessions).order_by()
        }
        for row in rows:
            if seen.shows(row.sheet.deal):
                row.score = scores.get((row.sheet.play_id, row.sheet.deal_id))
        for session in sessions:
            places[session.number] = standings.session_place(entry, session, seen.counts(session))
    return Results(rows=rows, standings=places)


def _session_named(room: Room | None) -> int | None:
    """The number of the room's session if the phone should name it (several sessions)."""
    if room is None or (getattr(room, "event_sessions", None) or 0) < 2:
        return None
    return room.session.number


def _checkin(entry: Entry, seats: PlayerSeats) -> dict | None:
    """The check-in asked of him now (``events.checkin``): its session and round and when he
    checked in (None: not yet); None when none is asked of him. One query, only while one
    is asked (his room's seating, already read, says which)."""
    if seats.room is None or seats.now is None:
        return None
    session = seats.room.session
    asked = checkin.asked_of(session.checkin_each_round, seats.current, seats.upcoming)
    if asked is None:
        return None
    row = checkin.entry_checkin(session.pk, entry.pk, asked)
    return {"session": session.number, "round": asked, "at": row.at if row else None}


def player_page(entry: Entry, *, tokens: dict[str, str] | None = None) -> dict:
    """The context of the phone's page and of its seat fragment. ``tokens``: the setup and
    clock tokens the caller has just read (none are read twice)."""
    seats = _player_seats(entry, tokens or {})
    published = entry.event.results_public
    # A replaced player's seats from that round on are his substitute's: say so.
    replaced = last_substitution(entry) if entry.status == Entry.Status.REPLACED else None
    plays = entry_plays(entry) if seats.room else []  # his table-rounds: one query for both
    return {
        "entry": entry,
        "event": entry.event,
        "room": seats.room,
        # «Сессия 2, тур 3» when the event has several sessions (his seats are in his room's).
        "session_number": _session_named(seats.room),
        "current": seats.current,
        "upcoming": seats.upcoming,
        "now": seats.now,
        "next": seats.next,
        "replaced": replaced,
        # «Я на месте» while a check-in is asked of him (his own token is bumped by it).
        "checkin": _checkin(entry, seats),
        # After «Конец тура!» his last table may still write its sheets: link it.
        "open_plays": entry_open_plays(entry, plays) if seats.room else [],
        # His own points always; percentages and the standing once the director publishes.
        "card": player_results(entry, published=published, plays=plays) if seats.room else None,
        "published": published,
        "method": entry.event.scoring_method,
        "unit": figure_unit(entry.event.scoring_method),
    }


# --- the seat fragment, from the shared cache ---------------------------------------------


#: A fragment lives unread this long; a new key makes it unreachable anyway.
FRAGMENT_TIMEOUT = 3600


def _rooms_key(entry: Entry) -> str:
    return f"phone:rooms:{entry.key}"


def _fragment_key(entry: Entry) -> tuple[str, dict[str, str]]:
    """The cache key of his fragment as of now (see :func:`places_html`), and the tokens it
    was made of (with his rooms' clock tokens: building the fragment needs no second read)."""
    found = clockdoc.tokens([clockdoc.SETUP], also=(_rooms_key(entry),))
    setup, rooms = found[clockdoc.SETUP], found.get(_rooms_key(entry))
    if rooms is None or rooms["setup"] != setup:
        ids = (
            Room.objects.filter(session__rooms__rounds__placements__entry=entry)
            .order_by("pk")
            .values_list("pk", flat=True)
            .distinct()
        )
        rooms = {"setup": setup, "rooms": list(ids)}
        cache.set(_rooms_key(entry), rooms, FRAGMENT_TIMEOUT)
    # His seats, sets and clock, and his own tables' sheets, points and access — another
    # table's save does not make his fragment stale.
    keys = [clockdoc.clock_key(pk) for pk in rooms["rooms"]]
    keys.append(clockdoc.entry_key(entry.pk))
    tokens = clockdoc.tokens(keys)
    public = ""
    if entry.event.results_public:
        # Published: his figures and place compare with every table of the session, counted
        # as its deals are played out (or shown by the director) — what the public results
        # show, so their version (scoring.standings.public_cache: built once per change of the rooms,
        # and unchanged by a sheet of a deal still in play). Not the rooms' console tokens:
        # every sheet saved in the hall would make all 400 phones build theirs again.
        public = public_cache.version(entry.event.slug)[1]
    parts = [
        entry.key,
        entry.status,
        entry.event.updated_at.isoformat(),
        str(entry.event.results_public),
        setup,
        translation.get_language() or "",
        *(f"{key}={tokens[key]}" for key in keys),
        public,
    ]
    key = "phone:places:" + hashlib.sha256("|".join(parts).encode()).hexdigest()
    return key, {clockdoc.SETUP: setup, **tokens}


def places_html(entry: Entry) -> str:
    """The seat fragment of his phone (``player/_places.html``): from the shared cache under
    a key that holds everything it is built from, read *before* building (a change meanwhile
    makes a new key):

    - before publishing: the clock token of every room of the sessions he played in (his
      seats, sets and the clock) and his own token (``events.clockdoc.entry_key``: bumped by
      a sheet, confirmation, adjustment or table access at one of his tables) — his open
      sheets and points; so another table's save leaves his fragment as it is;
    - once published, also the version of the public results (``scoring.standings.public_cache``:
      the deals played out, their figures and sheets, adjustments, publishing, the director
      showing deals): the figures and places compare with the other tables, counted as the
      public's are — a sheet of a deal still in play elsewhere changes none of them;
    - the setup token (seating, substitutes, rooms, players' details);
    - his entry's status and the event's ``updated_at`` (publishing, the method, the
      rules), read with the entry in the one query every request makes; the language.

    ``entry`` with its event."""
    cache_key, tokens = _fragment_key(entry)
    html = cache.get(cache_key)
    if html is None:
        html = render_to_string("player/_places.html", player_page(entry, tokens=tokens))
        # With it, the language his phone reads it in: the worker builds the next one.
        lang = translation.get_language() or ""
        cache.set_many({cache_key: html, _lang_key(entry.pk): lang}, FRAGMENT_TIMEOUT)
    return html


def _lang_key(entry_pk: int) -> str:
    return f"phone:lang:{entry_pk}"


def fragments_build(entry_ids) -> int:
    """Build again, ahead of their phones, the fragments of these players (a sheet or an
    adjustment at their table changed them): the Celery worker calls it once the write is
    committed and its tokens are bumped, so the phones' next polls find it in the cache
    instead of building it in the request. Only for a phone that has asked (in the language
    it last asked in); a change meanwhile makes a new key, and the phone builds that one
    itself. The number built."""
    ids = sorted(set(entry_ids))
    langs = cache.get_many([_lang_key(pk) for pk in ids])
    asked = [pk for pk in ids if _lang_key(pk) in langs]
    built = 0
    for entry in Entry.objects.select_related("event").filter(pk__in=asked).order_by():
        with translation.override(langs[_lang_key(entry.pk)] or None):
            places_html(entry)
        built += 1
    return built


def room_fragments_build(room_id: int) -> int:
    """A clock change of this room (a round started, paused, resumed, moved or ended) made
    stale the fragment of every player of its session: build them again ahead of the phones
    (:func:`fragments_build`, only for those that have asked), so that the hall's phones,
    fetching their seat blocks together after the change — or together after an outage in
    which the round ended — find them in the cache. A second change meanwhile: its own task
    builds the newer ones; this one's leftovers are never read. The number built."""
    ids = (
        Entry.objects.filter(placements__round__room__session__rooms__pk=room_id)
        .order_by()
        .values_list("pk", flat=True)
        .distinct()
    )
    return fragments_build(list(ids))


__all__ = [
    "Place",
    "ResultRow",
    "Results",
    "fragments_build",
    "places_html",
    "player_page",
    "room_fragments_build",
    "player_results",
]
