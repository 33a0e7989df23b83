"""When a deal may be shown: the one rule every page, download and API answer follows
(docs/game.md §4.5).

Duplicate play is fair only while nobody knows a deal before he plays it. The rule is one
pure function, :func:`may_see`: given who asks (:class:`Who`) and the deal's state
(:class:`DealState`), it says which parts of the deal (:class:`Part`) may be shown. Its
words:

- a deal is **played at a table** when that table's sheet of it is confirmed — by the
  director, or by a second person with a proof of his own (``scoring.sheets.services``), once
  confirmed it stays played even if a later proposal disputes it — or the director gave
  an artificial score there, or that table-round is over and closed to its players (its
  room's next round started, or the director closed it) and not opened again; *not* when
  some sheet merely exists (anyone at the table can save one);
- a deal is **played out** when it is played at every table that holds its set in the
  session, or when the director shows the session's deals («Открыть сдачи сессии»);
- a session's **seed** only once every deal of the session is played out.

Below the rule, this module reads a session's states from the rows (a fixed number of
queries whatever the event's size, kept in the shared cache under the tokens every change
it depends on bumps) and answers for the pages: :class:`Viewer` for the public pages and
the API, :func:`table_state` for a table's own pages.
"""

from __future__ import annotations

import dataclasses
import enum
from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from events import clockdoc, staff
from events.actionlog import log_action
from events.models import Deal, Event, Room, Round, Session, TablePlay
from scoring.models import Adjustment, DealsShown, ScoreSheet

__all__ = [
    "SessionDisclosure",
    "card_hide",
    "Viewer",
    "EventDisclosure",
    "deals_show",
    "event_disclosure",
    "is_director",
    "session_disclosure",
    "viewer",
    "director_view",
    "may_see",
    "deal_state",
    "sheet_played",
    "play_closed",
    "Who",
    "DealState",
    "Part",
]


# --- the rule (pure) ------------------------------------------------------------------------


class Who(enum.Enum):
    """Who asks."""

    DIRECTOR = "director"  # the event's director, on his own view
    TABLE = "table"  # a table's phone, no seat proven (its round link alone)
    TABLE_PROVEN = "table_proven"  # a table's phone with a seat proven (PIN or own link)
    PLAYER = "player"  # a player by his own link (his page, or his table's from it)
    ANYONE = "anyone"  # the public pages, the hall screen: the public, or the director
    #                    on a public address


class DealState(enum.IntEnum):
    """A deal's state, as far as it has gone, seen from the asker's table (for the public:
    only the last two matter). Each state implies the ones before it at that table."""

    NOT_PLAYED = 0  # no sheet of it at this table
    ENTERED = 1  # a sheet at this table, not yet proven and confirmed by a second person
    CONFIRMED = 2  # played here: confirmed by two people or the director, or scored by him
    ROUND_OVER = 3  # played here: this table-round is over and closed to its players
    PLAYED_OUT = 4  # played at every table holding its set
    SHOWN = 5  # the director showed the session's deals


class Part(enum.Enum):
    """What of a deal a page may show."""

    OWN_RESULT = "own_result"  # this table's sheet of it (on the table's or player's pages)
    TALON = "talon"  # the talon of the version this table plays
    CARDS = "cards"  # the hands, the analysis, the known talon, the PPN
    RESULTS = "results"  # other tables' results: travellers, cards' rows, figures
    TOTALS = "totals"  # counted in the published totals, places and deal counts


_EVERYTHING = frozenset(Part)
_PUBLIC = frozenset({Part.CARDS, Part.RESULTS, Part.TOTALS, Part.TALON, Part.OWN_RESULT})


def may_see(who: Who, state: DealState, *, round_over: bool = False) -> frozenset[Part]:
    """The parts of a deal ``who`` may be shown when it is in ``state``.

    ``round_over``: for a table's phone, whether the round of the page it asks is over
    («Конец тура!» given): from then on a round's page shows its sheets only to someone
    who proves he sat there. The director sees everything; a deal played out (or shown by
    the director) is everybody's; before that a table sees its own sheet once there is one
    (the second player confirms what he reads) and the talon once it has played the deal,
    and nobody but the director sees the cards, other tables' results or a total that
    counts it."""
    if who is Who.DIRECTOR:
        return _EVERYTHING
    if state >= DealState.PLAYED_OUT:
        return _PUBLIC
    if who is Who.ANYONE:
        return frozenset()
    if who is Who.TABLE and round_over:
        return frozenset()
    found = set()
    if state >= DealState.ENTERED:
        found.add(Part.OWN_RESULT)
    if state >= DealState.CONFIRMED:
        found.add(Part.TALON)
    return frozenset(found)


def rule_table() -> list[tuple[str, str, bool, list[str]]]:
    """The rule as a table (who, state, round over, parts), for docs/game.md §4.5."""
    return [
        (who.value, state.name, over, sorted(p.value for p in may_see(who, state, round_over=over)))
        for who in Who
        for state in DealState
        for over in (False, True)
    ]


@dataclass(frozen=True)
class SessionDisclosure:
    """Which deals of one session anyone may see (their pks), of how many."""

    session_id: int
    shown: frozenset[int]
    total: int
    by_director: bool = False  # the director showed them all
    # The cache key it was kept under: it changes whenever what it read changes (a sheet,
    # an adjustment, a table-round opened or closed, a round's state, the director's
    # decision), so what is derived from it may be kept under it too.
    key: str = ""

    @property
    def complete(self) -> bool:
        """Every deal is played out: the seed may be revealed."""
        return self.total > 0 and len(self.shown) == self.total

    def shows(self, deal: Deal | int | None) -> bool:
        if deal is None:
            return False
        return (deal if isinstance(deal, int) else deal.pk) in self.shown

    @property
    def count(self) -> int:
        return len(self.shown)


#: A sheet that makes its deal played at its table (see the module): confirmed (by the
#: director, or by a second person with a proof), or confirmed once and disputed since, or
#: whose current version the director wrote. An entered sheet alone is not.
PLAYED_SHEET = (
    Q(status=ScoreSheet.Status.CONFIRMED)
    | Q(confirmed_by_entry__isnull=False)
    | Q(current__entered_by_user__isnull=False)
)


def sheet_played(sheet: ScoreSheet | None) -> bool:
    """:data:`PLAYED_SHEET` of a sheet already read (its current version selected)."""
    if sheet is None or sheet.current_id is None:
        return False
    return (
        sheet.status == ScoreSheet.Status.CONFIRMED
        or sheet.confirmed_by_entry_id is not None
        or sheet.current.entered_by_user_id is not None
    )


def play_closed(rnd: Round, access: str, following: Round | None) -> bool:
    """Whether a table-round is over and closed to its players: over, not opened again, and
    its room's next round started or the director closed it."""
    return _closed(rnd.state, access, None if following is None else following.state)


def _closed(state: str, access: str, following: str | None) -> bool:
    """:func:`play_closed` on the rounds' states."""
    if state != Round.State.FINISHED or access == TablePlay.Access.OPEN:
        return False
    return access == TablePlay.Access.CLOSED or (
        following is not None and following != Round.State.PENDING
    )


def deal_state(
    *, sheet: bool, played: bool, closed: bool, played_out: bool, shown: bool
) -> DealState:
    """A deal's :class:`DealState` at one table from what is known of it there: a sheet
    exists, it is played (:func:`sheet_played` or an artificial score), the table-round is
    closed (:func:`play_closed`); and of the session: played out, shown by the director."""
    if shown:
        return DealState.SHOWN
    if played_out:
        return DealState.PLAYED_OUT
    if closed:
        return DealState.ROUND_OVER
    if played:
        return DealState.CONFIRMED
    return DealState.ENTERED if sheet else DealState.NOT_PLAYED


def _done_plays(session_id: int) -> dict[int, tuple[int, bool]]:
    """Each table-round of the session: its set, and whether it is closed (:func:`play_closed`).
    Two plain reads (a session of 100 tables × 100 rounds has 10,000 table-rounds: no model
    built, no subquery per row)."""
    rounds = list(
        Round.objects.filter(room__session_id=session_id)
        .values_list("pk", "room_id", "number", "state")
        .order_by()
    )
    # Each round's state and its room's next round's (the next number up), by round.
    states: dict[int, tuple[str, str | None]] = {}
    by_room: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for pk, room, number, state in rounds:
        by_room[room].append((number, pk, state))
    for found in by_room.values():
        found.sort()
        for i, (_number, pk, state) in enumerate(found):
            states[pk] = (state, found[i + 1][2] if i + 1 < len(found) else None)
    rows = (
        TablePlay.objects.filter(round__room__session_id=session_id)
        .values_list("pk", "board_set_id", "round_id", "players_access")
        .order_by()
    )
    done = {}
    for pk, set_id, round_id, access in rows:
        state, following = states[round_id]
        done[pk] = (set_id, _closed(state, access, following))
    return done


def _build(session_id: int) -> SessionDisclosure:
    """The rule, read from the rows: six queries, whatever the session's size."""
    deals: dict[int, list[int]] = defaultdict(list)
    for pk, set_id in (
        Deal.objects.filter(board_set__session_id=session_id)
        .values_list("pk", "board_set_id")
        .order_by()
    ):
        deals[set_id].append(pk)
    total = sum(len(v) for v in deals.values())
    if DealsShown.objects.filter(session_id=session_id).exists():
        return SessionDisclosure(
            session_id, frozenset(pk for v in deals.values() for pk in v), total, True
        )
    plays = _done_plays(session_id)
    played = set(
        ScoreSheet.objects.filter(PLAYED_SHEET, play__round__room__session_id=session_id)
        .values_list("play_id", "deal_id")
        .order_by()
    )
    played |= set(
        Adjustment.objects.filter(
            play__round__room__session_id=session_id, kind=Adjustment.Kind.ARTIFICIAL
        )
        .values_list("play_id", "deal_id")
        .order_by()
    )
    plays_of: dict[int, list[tuple[int, bool]]] = defaultdict(list)
    for pk, (set_id, closed) in plays.items():
        plays_of[set_id].append((pk, closed))
    shown = set()
    for set_id, deal_ids in deals.items():
        at = plays_of.get(set_id, [])
        for deal_id in deal_ids:
            # A set nobody plays in this session is never shown by itself: nothing plays it.
            if at and all(closed or (pk, deal_id) in played for pk, closed in at):
                shown.add(deal_id)
    return SessionDisclosure(session_id, frozenset(shown), total)


def _token_keys(room_ids: list[int]) -> list[str]:
    """The tokens every change the rule reads bumps: the seating (setup) and each room's
    console (sheets, adjustments, tables' access, the clock)."""
    return [clockdoc.SETUP, *(clockdoc.console_key(pk) for pk in room_ids)]


def session_disclosure(session: Session | int) -> SessionDisclosure:
    """What of ``session`` (or the session of that pk) anyone may see now (see the module):
    two small queries and the cache, or the six of :func:`_build` after a change."""
    session_id = session if isinstance(session, int) else session.pk
    room_ids = sorted(Room.objects.filter(session_id=session_id).values_list("pk", flat=True))
    keys = _token_keys(room_ids)
    tokens = clockdoc.tokens(keys)
    mark = (
        DealsShown.objects.filter(session_id=session_id).values_list("shown_at", flat=True).first()
    )
    key = "disclosure:{}:{}:{}".format(
        session_id, ".".join(tokens[k] for k in keys), mark.isoformat() if mark else "-"
    )
    # Built once for the cluster after a change; meanwhile the others are given the last
    # (what was shown stays shown: a deal played out is not played again).
    # Each carries the key it was built under, which what is cached by it (the counted
    # totals) is keyed by: the last one given meanwhile keeps its own.
    found = clockdoc.built_once(
        key,
        lambda: dataclasses.replace(_build(session_id), key=key),
        last=f"disclosure-last:{session_id}",
    )
    return found if found.key else dataclasses.replace(found, key=key)  # kept by older code


def is_director(user, event: Event) -> bool:
    """The account directs the event — its chief or one of its team (events.staff): he reads
    every deal, played or not (he plays none)."""
    return staff.may(user, event, "view")


@dataclass
class Viewer:
    """What one person may see of an event's deals: everything (its director), or each
    session's played-out deals. Sessions are read once per request, when first asked."""

    event: Event
    director: bool
    _sessions: dict[int, SessionDisclosure] | None = None

    def of(self, session: Session | int) -> SessionDisclosure:
        session_id = session if isinstance(session, int) else session.pk
        if self._sessions is None:
            self._sessions = {}
        found = self._sessions.get(session_id)
        if found is None:
            found = session_disclosure(session_id)
            self._sessions[session_id] = found
        return found

    @property
    def who(self) -> Who:
        return Who.DIRECTOR if self.director else Who.ANYONE

    def state(self, deal: Deal) -> DealState:
        """The deal's state as the public knows it: shown, played out, or not yet."""
        found = self.of(deal.board_set.session_id)
        if not found.shows(deal):
            return DealState.NOT_PLAYED
        return DealState.SHOWN if found.by_director else DealState.PLAYED_OUT

    def parts(self, deal: Deal | None) -> frozenset[Part]:
        if deal is None:
            return frozenset()
        if self.director:  # the rule's answer whatever the state: no query for it
            return may_see(Who.DIRECTOR, DealState.NOT_PLAYED)
        return may_see(self.who, self.state(deal))

    def shows(self, deal: Deal | None) -> bool:
        """May he see this deal's cards, analysis and other tables' results?"""
        return Part.RESULTS in self.parts(deal)

    def seed_shown(self, session: Session) -> bool:
        """May he see the session's seed (it deals every box of it)?"""
        return self.director or self.of(session).complete

    def counts(self, session: Session | int) -> SessionDisclosure | None:
        """Which deals of ``session`` count in the totals he is shown: None for all of them
        (the director, or every deal played out), else the session's disclosure, whose
        played-out deals alone count (docs/game.md §4.4)."""
        if Part.TOTALS in may_see(self.who, DealState.NOT_PLAYED):
            return None
        found = self.of(session)
        return None if found.complete else found


def card_hide(card, seen: Viewer):
    """A player's card (``standings.player_card``) as ``seen`` may read it: a deal not played
    out keeps its row (round, table, seat, deal) without its result and figure."""
    for row in card.rows:
        if row.deal is not None and not seen.shows(row.deal):
            row.sheet, row.score, row.hidden = None, None, True
    return card


@dataclass(frozen=True)
class EventDisclosure:
    """Each session's disclosure, in session order, with the sums the director is told."""

    sessions: list[tuple[Session, SessionDisclosure]]

    @property
    def shown(self) -> int:
        return sum(d.count for _s, d in self.sessions)

    @property
    def total(self) -> int:
        return sum(d.total for _s, d in self.sessions)


def event_disclosure(event: Event) -> EventDisclosure:
    sessions = list(event.sessions.order_by("number"))
    return EventDisclosure([(s, session_disclosure(s)) for s in sessions])


#: The switch of the director's own view of a public page or API answer: ``?view=director``.
#: Without it a public address shows the director what the public sees (docs/game.md §4.5).
VIEW_PARAM, DIRECTOR_VIEW = "view", "director"


def director_view(request, event: Event) -> bool:
    """Whether this request asks for the director's own view, and may have it."""
    return getattr(request, "GET", {}).get(VIEW_PARAM) == DIRECTOR_VIEW and is_director(
        getattr(request, "user", None), event
    )


def viewer(request, event: Event) -> Viewer:
    """Who reads a public page or a public API answer: the director only on his own view
    (:func:`director_view`), else the public — the director too, on a public address."""
    return Viewer(event, director_view(request, event))


def deals_show(session: Session, *, by_user) -> DealsShown:
    """The director shows every deal of the session now (say, rounds he will not play): it
    becomes public with the standings, and its seed with it."""
    staff.require(by_user, session.event, "show_deals")
    with transaction.atomic():
        found, created = DealsShown.objects.get_or_create(
            session=session, defaults={"shown_by": by_user, "shown_at": timezone.now()}
        )
        if created:
            log_action(session.event, by_user, "deals.show", after={"session": session.number})
    clockdoc.results_changed(session.event_id)  # the public pages show them now
    return found
