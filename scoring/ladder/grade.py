"""The club ladder's grade, method ``pct_grade_v1`` (issue 24; docs/ladder.md «pct_grade_v1»).

Sessions are replayed in date order from scratch. Each rated session updates its rated
players at once, from their grades before it::

    S_i = mean grade of the other rated players of the session
    E_i = clamp(50 + G_i - S_i, 0, 100)
    G_i <- G_i + k_i * d_i * (A_i - E_i)

``A_i`` is the player's published session percentage, ``d_i`` his deals in it, ``k_i`` the
provisional ``k`` while he has fewer than ``provisional_deals`` rated deals before the
session, the plain ``k`` after. A session with fewer than ``min_tables`` tables or fewer
than two rated players is not rated; a player with fewer than ``min_deals`` deals is not
rated there, nor counted in its field.

Part of the pure core ``scoring.ladder``: plain data in, plain data out, no Django.
"""

from __future__ import annotations

import calendar
import datetime
import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

METHOD = "pct_grade_v1"


@dataclass(frozen=True)
class Params:
    """The grade's parameters; a ladder keeps its own and shows them on its page."""

    k: float = 0.0025
    k_provisional: float = 0.0075
    start: float = 50.0
    provisional_deals: int = 100
    min_deals: int = 8
    min_tables: int = 2

    def k_for(self, rated_deals: int) -> float:
        """The ``k`` of a player who had ``rated_deals`` rated deals before the session."""
        return self.k_provisional if rated_deals < self.provisional_deals else self.k


@dataclass(frozen=True)
class Entry:
    """A player's published result in a session: his percentage and his deals in it."""

    person: Hashable
    percent: float
    deals: int


@dataclass(frozen=True)
class Session:
    """One session of an event: its date, its tables and its players' results."""

    id: Hashable
    date: datetime.date
    tables: int
    players: tuple[Entry, ...]


@dataclass(frozen=True)
class Row:
    """One rated player in one rated session: his grade before and after, his expected
    and his actual percentage."""

    session: Hashable
    person: Hashable
    before: float
    expected: float
    actual: float
    after: float
    deals: int
    k: float


@dataclass
class Standing:
    """A person as the ladder knows him after the replay."""

    grade: float
    deals: int = 0
    sessions: int = 0
    last_rated: datetime.date | None = None


@dataclass
class Ladder:
    """The replay's outcome: every person seen (rated or not) and one :class:`Row` per
    rated player and session, in the order they were rated."""

    params: Params
    standings: dict[Hashable, Standing] = field(default_factory=dict)
    history: list[Row] = field(default_factory=list)

    @property
    def grades(self) -> dict[Hashable, float]:
        return {person: s.grade for person, s in self.standings.items()}

    @property
    def deals(self) -> dict[Hashable, int]:
        return {person: s.deals for person, s in self.standings.items()}


def in_order(sessions: Iterable[Session]) -> list[Session]:
    """The sessions by date; those of one date keep the order they were given in (the
    app gives them by event, then session number)."""
    return sorted(sessions, key=lambda s: s.date)


def rated_entries(session: Session, params: Params) -> list[Entry]:
    """The players a session rates: none when it has too few tables or too few players
    with enough deals; else those with at least ``min_deals`` deals."""
    if session.tables < params.min_tables:
        return []
    rated = [e for e in session.players if e.deals >= params.min_deals]
    return rated if len(rated) >= 2 else []


def expected(grade: float, field_mean: float) -> float:
    """E = clamp(50 + G − S, 0, 100)."""
    return min(100.0, max(0.0, 50.0 + grade - field_mean))


def replay(sessions: Iterable[Session], params: Params = Params()) -> Ladder:
    """The whole history recomputed from scratch: deterministic for the same sessions
    (same dates; same order within a date)."""
    ladder = Ladder(params)
    standings = ladder.standings
    start = float(params.start)
    for session in in_order(sessions):
        if len({e.person for e in session.players}) != len(session.players):
            raise ValueError(f"session {session.id!r} lists a person twice")
        for entry in session.players:
            if entry.person not in standings:
                standings[entry.person] = Standing(start)
        rated = rated_entries(session, params)
        if not rated:
            continue
        before = [standings[e.person].grade for e in rated]
        others = len(rated) - 1
        # Every E from the grades before the session (the update is simultaneous). The
        # field's mean without the player is a correctly rounded sum (math.fsum), so it is
        # the same whatever order the players are listed in.
        updates = []
        for i, entry in enumerate(rated):
            g = before[i]
            s = math.fsum(before[:i] + before[i + 1 :]) / others
            e = expected(g, s)
            k = params.k_for(standings[entry.person].deals)
            a = float(entry.percent)
            d = entry.deals
            updates.append(Row(session.id, entry.person, g, e, a, g + k * d * (a - e), d, k))
        for row in updates:
            standing = standings[row.person]
            standing.grade = row.after
            standing.deals += row.deals
            standing.sessions += 1
            standing.last_rated = session.date
        ladder.history.extend(updates)
    return ladder


# --- status -------------------------------------------------------------------------------

PROVISIONAL = "provisional"
REGULAR = "regular"
ESTABLISHED = "established"
INACTIVE = "inactive"


@dataclass(frozen=True)
class StatusRules:
    """When a grade is established and when a player turns inactive (the provisional
    threshold is the grade's own ``provisional_deals``)."""

    established_deals: int = 300
    inactive_months: int = 12


def months_after(day: datetime.date, months: int) -> datetime.date:
    """The same day ``months`` calendar months later (the month's last day when it has no
    such day: 2024-02-29 + 12 months = 2025-02-28)."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return datetime.date(year, month + 1, min(day.day, last))


def status(
    deals: int,
    last_rated: datetime.date | None,
    on: datetime.date,
    params: Params = Params(),
    rules: StatusRules = StatusRules(),
) -> str:
    """A person's status on the day ``on``: ``inactive`` once more than
    ``inactive_months`` have passed since his last rated session (his grade is kept, the
    main table hides him); else ``provisional`` below ``provisional_deals`` rated deals,
    ``established`` from ``established_deals``, ``regular`` between. A person never rated
    is ``provisional``: he is new, not gone."""
    if last_rated is not None and on > months_after(last_rated, rules.inactive_months):
        return INACTIVE
    if deals < params.provisional_deals:
        return PROVISIONAL
    if deals >= rules.established_deals:
        return ESTABLISHED
    return REGULAR


def statuses(
    ladder: Ladder, on: datetime.date, rules: StatusRules = StatusRules()
) -> Mapping[Hashable, str]:
    """Every person's :func:`status` on the day ``on``."""
    return {
        person: status(s.deals, s.last_rated, on, ladder.params, rules)
        for person, s in ladder.standings.items()
    }
