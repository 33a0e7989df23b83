"""What a player's phone shows (/p/<key>/ and its seat fragment): where to sit now and next
with the sets, the sheets his table may still write, and «Мои результаты».

The page lives in scoring because it shows scoring's rows (the sets each table plays, the
sheets, the figures) and events must not import scoring (events → movements → scoring):
``events.player`` reads the seating and the clock, this module adds the rest, and
``scoring.views_player`` serves the page under the same URLs.

Hundreds of phones poll the seat fragment, so every read here is a fixed number of queries
that return only the rows the phone shows (see ``tests/events/test_player_cost.py``):

- his room, its two rounds not yet finished and his seats in them (``events.player``);
- the sets of those two seats, and for N the next round's sets of the room (one round);
- the finished table-rounds he may still write (``services.entry_open_plays``);
- the sheets of the deals he played, with his points: this grows with what he played, never
  with the rounds planned or the number of tables;
- only once the director publishes: his figure per deal and his place, read from the cached
  totals (``standings.session_place``: one query over the session's totals) after the
  session's cache is brought up to date, so a save shows on the next read.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F, Q

from events import clock
from events.models import Entry, Session
from events.player import Place, PlayerSeats, player_seats
from events.services import last_substitution
from scoring import standings
from scoring.display import figure_unit
from scoring.models import DealScore, ScoreSheet, TablePlay
from scoring.services import entry_open_plays


@dataclass
class ResultRow:
    """A deal he played (he sat at the table, was not the one sitting out, a sheet exists)."""

    sheet: ScoreSheet
    round_number: int
    position: str
    score: DealScore | None = None  # his figure, once published

    @property
    def deal(self):
        return self.sheet.deal


@dataclass
class Results:
    rows: list[ResultRow]
    standings: dict[int, standings.SessionPlace | None]  # session number → his place


def _sets(seats: PlayerSeats) -> None:
    """Fill the set of his two seats, and for N where the set goes at «Конец тура!»."""
    now, nxt = seats.now, seats.next
    duty = now is not None and not now.is_pause and now.position == "N" and nxt is not None
    wanted = Q()
    for place in (now, nxt):
        if place is not None and not place.is_pause:
            wanted |= Q(round_id=place.round_id, table_id=place.table_id)
    if duty:
        wanted |= Q(round_id=nxt.round_id)  # the room's sets of the next round: one round
    if not wanted:
        return
    sets = {
        (round_id, table_id): (table, board_set)
        for round_id, table_id, table, board_set in TablePlay.objects.filter(wanted)
        .order_by()
        .values_list("round_id", "table_id", "table__number", "board_set__number")
    }
    for place in (now, nxt):
        if place is not None and not place.is_pause:
            found = sets.get((place.round_id, place.table_id))
            place.set = found[1] if found else None
    if duty:
        now_sets = {now.table: now.set} if now.set is not None else {}
        next_sets = {t: s for (rid, _tid), (t, s) in sets.items() if rid == nxt.round_id}
        now.set_goes_to = clock.set_destinations(now_sets, next_sets).get(now.table, [])


def player_results(entry: Entry, *, published: bool) -> Results:
    """His own points on each deal he played, in the order he played them; his figures and
    places only once the director publishes."""
    sheets = (
        ScoreSheet.objects.filter(
            play__round__placements__entry=entry,
            play__round__placements__table=F("play__table"),
        )
        .annotate(
            # The same join as the filter above: the seat he had at that table.
            seat_position=F("play__round__placements__position"),
            round_number=F("play__round__number"),
            session_number=F("play__round__room__session__number"),
        )
        .select_related("current", "deal__board_set")
        .order_by("session_number", "round_number", "deal__number")
    )
    rows = [
        ResultRow(sheet=s, round_number=s.round_number, position=s.seat_position)
        for s in sheets
        if s.seat_position in s.deal.active_seats
    ]
    places: dict[int, standings.SessionPlace | None] = {}
    if published:
        sessions = list(
            Session.objects.filter(event=entry.event_id).select_related("event").order_by("number")
        )
        for session in sessions:
            standings.session_refresh(session)
        scores = {
            (s.play_id, s.deal_id): s
            for s in DealScore.objects.filter(entry=entry, session__in=sessions).order_by()
        }
        for row in rows:
            row.score = scores.get((row.sheet.play_id, row.sheet.deal_id))
        for session in sessions:
            places[session.number] = standings.session_place(entry, session)
    return Results(rows=rows, standings=places)


def player_page(entry: Entry) -> dict:
    """The context of the phone's page and of its seat fragment."""
    seats = player_seats(entry)
    if seats.room is not None:
        _sets(seats)
    published = entry.event.results_public
    # A replaced player's seats from that round on are his substitute's: say so.
    replaced = last_substitution(entry) if entry.status == Entry.Status.REPLACED else None
    return {
        "entry": entry,
        "event": entry.event,
        "room": seats.room,
        "current": seats.current,
        "upcoming": seats.upcoming,
        "now": seats.now,
        "next": seats.next,
        "replaced": replaced,
        # After «Конец тура!» his last table may still write its sheets: link it.
        "open_plays": entry_open_plays(entry) if seats.room else [],
        # His own points always; percentages and the standing once the director publishes.
        "card": player_results(entry, published=published) if seats.room else None,
        "published": published,
        "method": entry.event.scoring_method,
        "unit": figure_unit(entry.event.scoring_method),
    }


__all__ = ["Place", "ResultRow", "Results", "player_page", "player_results"]
