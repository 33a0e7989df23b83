"""The club ladder on the Django side (docs/ladder.md «The ladder in the app»): which sessions
it replays, what each gives the pure core (``scoring.ladder``), the replay's rows written
in one transaction, and the changes that ask for a new replay.

Data walks one way (docs/architecture.md, «Data walks one way»): a publication, a correction
after it, the end of a session of a published event, a merge of two persons → the ladder's
``wanted`` counter moves and the worker replays it from scratch → the pages read its rows.
Nothing is lost when the worker never runs: the ladder says it is not up to date, and its
director brings it up to date from his page (the same function).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from django.db import connection, transaction
from django.db.models import Count, F
from django.utils import timezone

from events.models import Entry, Event, Round, Session, Substitution, Table
from scoring import ladder as core
from scoring.models import (
    Adjustment,
    Deal,
    Ladder,
    LadderGrade,
    LadderRow,
    SessionScoring,
    SessionTotal,
)
from scoring.queue import queue_after_commit
from scoring.standings import rules_key, session_refresh

logger = logging.getLogger("scoring")

TASK = "scoring.ladder_recompute"
_UNFINISHED = [Round.State.PENDING, Round.State.RUNNING, Round.State.PAUSED]


def params_of(ladder: Ladder) -> core.Params:
    """The ladder's parameters as the core takes them."""
    return core.Params(
        k=ladder.k,
        k_provisional=ladder.k_provisional,
        start=ladder.start,
        provisional_deals=ladder.provisional_deals,
        min_deals=ladder.min_deals,
        min_tables=ladder.min_tables,
    )


# --- which sessions, and what each gives the core -----------------------------------------


def published_sessions(owner_id: int):
    """The sessions the owner's ladder replays: those of his matchpoint events whose results
    are public, once every round of the session has ended (a session published while it is
    played is rated when it is over). By date, then event, then session number."""
    return (
        Session.objects.filter(
            event__owner_id=owner_id,
            event__results_public=True,
            event__scoring_method=Event.ScoringMethod.MATCHPOINTS,
        )
        .exclude(rooms__rounds__state__in=_UNFINISHED)
        .order_by("event__date", "event_id", "number")
    )


@dataclass(frozen=True)
class Played:
    """A person's line of one session as the ladder reads it."""

    person_id: int
    entry_id: int
    percent: float
    deals: int


def shown_percent(value: Fraction) -> float:
    """The percentage as the standing publishes it (two decimals): the ladder rates what
    the player was shown («A_i, his published session percentage»)."""
    return float(f"{float(value):.2f}")


def session_lines(owner_id: int, sessions=None) -> dict[int, list[Played]]:
    """Session id → the lines of its standing the ladder rates: a participant number held by
    one player all session (a number a substitute shared is two persons' result, not rated),
    whose player is linked to a person of the register, with his published percentage (less
    the penalties given on a whole table-round, as the standing) and his deals. Four queries
    whatever the number of sessions. ``sessions``: their ids when the caller has them
    (else the query of :func:`published_sessions`)."""
    if sessions is None:
        sessions = published_sessions(owner_id).order_by().values("pk")
    people = dict(
        Entry.objects.filter(event__owner_id=owner_id, person__isnull=False).values_list(
            "pk", "person_id"
        )
    )
    shared: set[tuple[int, int]] = set()
    for session_id, leaving, arriving in Substitution.objects.filter(
        session_id__in=sessions
    ).values_list("session_id", "leaving_id", "arriving_id"):
        shared.update({(session_id, leaving), (session_id, arriving)})
    penalties: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for session_id, entry_id, penalty in Adjustment.objects.filter(
        play__round__room__session_id__in=sessions,
        kind=Adjustment.Kind.PENALTY,
        deal__isnull=True,
    ).values_list("play__round__room__session_id", "entry_id", "penalty"):
        penalties[(session_id, entry_id)] += Fraction(penalty)
    found: dict[int, list[Played]] = defaultdict(list)
    totals = SessionTotal.objects.filter(session_id__in=sessions).values_list(
        "session_id", "entry_id", "total", "deals"
    )
    for session_id, entry_id, total, deals in totals.order_by("session_id", "entry_id"):
        person_id = people.get(entry_id)
        if person_id is None or not deals or (session_id, entry_id) in shared:
            continue
        figure = Fraction(total) / deals - penalties.get((session_id, entry_id), 0)
        found[session_id].append(Played(person_id, entry_id, shown_percent(figure), deals))
    return found


def session_tables(owner_id: int, sessions=None) -> dict[int, int]:
    """Session id → its number of tables (every room's)."""
    if sessions is None:
        sessions = published_sessions(owner_id).order_by().values("pk")
    return dict(
        Table.objects.filter(room__session_id__in=sessions)
        .values("room__session_id")
        .annotate(n=Count("pk"))
        .values_list("room__session_id", "n")
    )


# --- the replay ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Replayed:
    """A replay's result: the core's ladder, and for each (session, person) the event's
    player he was there."""

    result: core.Ladder
    sessions: list[Session]
    entry_of: dict[tuple[int, int], int]


def refresh_stale(sessions: list[Session], ids: list[int]) -> None:
    """Bring up to date the cached figures of those of ``sessions`` that need it (what
    ``session_refresh`` does for one), asking which in two queries rather than two per
    session: a session whose figures were built with other rules, or with a stale deal."""
    built = dict(
        SessionScoring.objects.filter(session_id__in=ids).values_list("session_id", "rules_key")
    )
    stale = set(
        Deal.objects.filter(board_set__session_id__in=ids, scores_stale=True)
        .values_list("board_set__session_id", flat=True)
        .distinct()
    )
    for session in sessions:
        if built.get(session.pk) != rules_key(session.event) or session.pk in stale:
            session_refresh(session)


def ladder_replay(ladder: Ladder) -> Replayed:
    """The owner's whole history replayed from scratch by the core (deterministic: the same
    sessions, in the same order, give the same grades)."""
    sessions = list(published_sessions(ladder.owner_id).select_related("event"))
    ids = [session.pk for session in sessions]
    refresh_stale(sessions, ids)
    lines = session_lines(ladder.owner_id, ids)
    tables = session_tables(ladder.owner_id, ids)
    entry_of = {}
    given = []
    for session in sessions:
        played = lines.get(session.pk, [])
        entry_of.update({(session.pk, p.person_id): p.entry_id for p in played})
        given.append(
            core.Session(
                id=session.pk,
                date=session.event.date,
                tables=tables.get(session.pk, 0),
                players=tuple(core.Entry(p.person_id, p.percent, p.deals) for p in played),
            )
        )
    return Replayed(core.replay(given, params_of(ladder)), sessions, entry_of)


#: The columns :func:`ladder_recompute` writes of a history row, in its tuples' order.
ROW_COLUMNS = (
    "ladder_id",
    "person_id",
    "session_id",
    "entry_id",
    "order",
    "date",
    "before",
    "expected",
    "actual",
    "after",
    "deals",
    "k",
)


def _insert(model, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """Plain rows inserted many at a time, in one statement per batch: a replay writes a
    club's whole history (8,000 rows for 200 sessions of 40), and building a model instance
    per row and its 96,000 prepared values cost bulk_create most of a second. The values are
    plain numbers and ISO dates, which both backends take as they are; the batch keeps within
    the backend's limit of parameters per statement."""
    if not rows:
        return
    quote = connection.ops.quote_name
    limit = connection.features.max_query_params or 30_000
    size = max(1, min(1000, limit // len(columns)))
    head = f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(map(quote, columns))}) VALUES "
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), size):
            batch = rows[start : start + size]
            cursor.execute(head + ", ".join([one] * len(batch)), [v for r in batch for v in r])


def ladder_recompute(ladder_id: int) -> bool:
    """Replay the ladder and write its rows, unless a replay that saw a later change has
    written them already. Returns whether it wrote."""
    ladder = Ladder.objects.filter(pk=ladder_id).first()
    if ladder is None:
        return False
    wanted = ladder.wanted
    replayed = ladder_replay(ladder)
    order = {session.pk: i for i, session in enumerate(replayed.sessions)}
    dates = {session.pk: session.event.date for session in replayed.sessions}
    history = replayed.result.history
    rows = [
        (
            ladder.pk,
            row.person,
            row.session,
            replayed.entry_of[(row.session, row.person)],
            order[row.session],
            dates[row.session].isoformat(),
            row.before,
            row.expected,
            row.actual,
            row.after,
            row.deals,
            row.k,
        )
        for row in history
    ]
    change = {row.person: row.after - row.before for row in history}  # the last one wins
    grades = [
        LadderGrade(
            ladder_id=ladder.pk,
            person_id=person,
            grade=standing.grade,
            deals=standing.deals,
            sessions=standing.sessions,
            last_rated=standing.last_rated,
            change=change[person],
        )
        for person, standing in replayed.result.standings.items()
        if standing.sessions
    ]
    with transaction.atomic():
        locked = Ladder.objects.select_for_update().get(pk=ladder.pk)
        if locked.built >= wanted:
            return False
        LadderRow.objects.filter(ladder=locked).delete()
        LadderGrade.objects.filter(ladder=locked).delete()
        _insert(LadderRow, ROW_COLUMNS, rows)
        LadderGrade.objects.bulk_create(grades, batch_size=500)
        Ladder.objects.filter(pk=ladder.pk).update(built=wanted, built_at=timezone.now())
    logger.info("ladder %s replayed: %d rows, %d grades", ladder.pk, len(rows), len(grades))
    return True


# --- what asks for a replay ---------------------------------------------------------------


def ladder_touch(owner_id: int | None) -> None:
    """Something the owner's ladder reads changed: count it, and have the worker replay the
    ladder once the change is committed (here, after the answer, when no broker takes it)."""
    if owner_id is None:
        return
    ids = list(Ladder.objects.filter(owner_id=owner_id).values_list("pk", flat=True))
    if not ids:
        return
    Ladder.objects.filter(pk__in=ids).update(wanted=F("wanted") + 1)
    for pk in ids:
        queue_after_commit(TASK, [pk], otherwise=lambda pk=pk: ladder_recompute(pk))


def event_touched(event: Event) -> None:
    """A change of a published matchpoint event's results (a correction after publishing,
    an adjustment, the end of a session): its owner's ladder is replayed. Costs nothing while
    the event is not published."""
    if event.results_public and event.scoring_method == Event.ScoringMethod.MATCHPOINTS:
        ladder_touch(event.owner_id)
