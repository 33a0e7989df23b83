"""When a deal may be shown: the one rule every page, download and API answer follows
(docs/game.md §4.5).

Duplicate play is fair only while nobody knows a deal before he plays it. So a deal's
cards, talon and double-dummy analysis, and the results other tables had on it, are shown
to someone only when he can no longer play it:

- the **director** of the event sees everything, always;
- **anyone else** sees a deal once it is *played out*: every table that plays its set in
  the session is done with it — its sheet of the deal is written, or the director gave an
  artificial score there, or that table-round is over and closed to its players (its next
  round started, or the director closed it) — or once the director shows the session's
  deals himself («Открыть сдачи сессии»);
- a session's **seed** (and the check of the dealing from it) only once every deal of the
  session is played out: the seed deals every box at once.

The standings themselves may be published at any time: publishing shows the standings and
each player's own totals now, and each deal as it is played out.

The reading costs a fixed number of queries per session, and is kept in the shared cache
under the tokens that every change it depends on bumps (the rooms' console tokens: a
sheet, an adjustment, a table opened or closed, a round started or ended) and the
director's own decision.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from events import clockdoc
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
]


@dataclass(frozen=True)
class SessionDisclosure:
    """Which deals of one session anyone may see (their pks), of how many."""

    session_id: int
    shown: frozenset[int]
    total: int
    by_director: bool = False  # the director showed them all

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


def _done_plays(session_id: int) -> dict[int, tuple[int, bool]]:
    """Each table-round of the session: its set, and whether its players can no longer
    write (over, and its next round started or the director closed it; not opened again)."""
    following = (
        Round.objects.filter(
            room_id=OuterRef("round__room_id"), number__gt=OuterRef("round__number")
        )
        .order_by("number")
        .values("state")[:1]
    )
    rows = (
        TablePlay.objects.filter(round__room__session_id=session_id)
        .annotate(next_state=Subquery(following))
        .values_list("pk", "board_set_id", "round__state", "players_access", "next_state")
        .order_by()
    )
    found = {}
    for pk, set_id, state, access, next_state in rows:
        closed = state == Round.State.FINISHED and access != TablePlay.Access.OPEN
        closed = closed and (
            access == TablePlay.Access.CLOSED
            or (next_state is not None and next_state != Round.State.PENDING)
        )
        found[pk] = (set_id, closed)
    return found


def _build(session_id: int) -> SessionDisclosure:
    """The rule, read from the rows: five queries, whatever the session's size."""
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
    written = set(
        ScoreSheet.objects.filter(play__round__room__session_id=session_id, current__isnull=False)
        .values_list("play_id", "deal_id")
        .order_by()
    )
    written |= set(
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
            if at and all(closed or (pk, deal_id) in written for pk, closed in at):
                shown.add(deal_id)
    return SessionDisclosure(session_id, frozenset(shown), total)


def _token_keys(room_ids: list[int]) -> list[str]:
    """The tokens every change the rule reads bumps: the seating (setup) and each room's
    console (sheets, adjustments, tables' access, the clock)."""
    return [clockdoc.SETUP, *(clockdoc.console_key(pk) for pk in room_ids)]


def session_disclosure(session: Session | int) -> SessionDisclosure:
    """What of ``session`` (or the session of that pk) anyone may see now (see the module):
    two small queries and the cache, or the five of :func:`_build` after a change."""
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
    return clockdoc.by_tokens(key, lambda: _build(session_id))


def is_director(user, event: Event) -> bool:
    return bool(
        user is not None
        and user.is_authenticated
        and (user.is_superuser or event.owner_id == user.pk)
    )


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

    def shows(self, deal: Deal | None) -> bool:
        """May he see this deal's cards, analysis and other tables' results?"""
        if deal is None:
            return False
        if self.director:
            return True
        return self.of(deal.board_set.session_id).shows(deal)

    def seed_shown(self, session: Session) -> bool:
        """May he see the session's seed (it deals every box of it)?"""
        return self.director or self.of(session).complete


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


def viewer(request, event: Event) -> Viewer:
    return Viewer(event, is_director(getattr(request, "user", None), event))


def deals_show(session: Session, *, by_user) -> DealsShown:
    """The director shows every deal of the session now (say, rounds he will not play): it
    becomes public with the standings, and its seed with it."""
    if not is_director(by_user, session.event):
        raise PermissionDenied
    found, _created = DealsShown.objects.get_or_create(
        session=session, defaults={"shown_by": by_user, "shown_at": timezone.now()}
    )
    return found
