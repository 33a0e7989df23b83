"""The comparison of every deal and the session's totals, computed by the pure core and cached — the one writer of the cache (docs/architecture.md). Every figure comes from ``scoring.compare``: for each deal the current result of each table is put per pocket (the seat's position: the same cards), artificial scores stand in for a player's result, and ``compare.compare_pockets`` compares them with the event's method. The cache (``DealScore`` per seat and deal, ``SessionTotal`` per player and session) is exact (fractions), written only here, always under the session's ``SessionScoring`` row lock; a sheet or adjustment write marks its deal stale and the worker runs :func:`deals_recompute`; a reader first calls :func:`session_refresh`, which recomputes whatever is still stale."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.db.models.fields.json import KeyTextTransform

from events.models import DealVersion, Event, Seat, Session
from scoring import compare, games
from scoring.compare import versions as versions_core
from scoring.models import (
    Adjustment,
    Deal,
    DealScore,
    ScoreSheet,
    SessionScoring,
    SessionTotal,
    TablePlay,
)

#: The standing over deals: average percentage, or the sum of points / IMPs.
BY = {"matchpoints": "average", "points": "sum", "cross": "sum"}
#: The figure a deal is scored with, and the one shown beside it.
MAIN = {"matchpoints": "percent", "points": "points", "cross": "imps"}
SECOND = {"matchpoints": "matchpoints", "points": "rank", "cross": "difference"}


def rules_key(event: Event) -> str:
    """What the cached figures depend on besides the sheets and adjustments."""
    return "|".join(
        str(v)
        for v in (
            event.scoring_method,
            event.stake,
            event.average_plus,
            event.average,
            event.average_minus,
        )
    )


def compare_options(event: Event) -> dict:
    return {
        "artificial": compare.ArtificialScores(
            Fraction(event.average_plus), Fraction(event.average), Fraction(event.average_minus)
        ),
        # A trick's worth is the stake's tenth; each game says what a trick is worth.
        "stake": 10 * games.sheets_of(event).trick_value(event),
    }


def _exact(text: str) -> Fraction:
    """«num/den» as written by :func:`_text`."""
    num, _slash, den = text.partition("/")
    return Fraction(int(num), int(den or 1))


def _text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


@lru_cache(maxsize=4096)
def _amount(value: str) -> Fraction:
    """A settlement amount as JSON text («70», «13.5») as an exact Fraction."""
    return Fraction(value)


def _show(value: Fraction | str) -> str:
    if isinstance(value, str):
        return value
    return f"{round(float(value), 2):g}"


# --- computing ----------------------------------------------------------------------------


@dataclass
class _Inputs:
    """Everything the comparison of some deals reads, fetched in a few queries."""

    plays: dict[int, list[dict]]  # board_set id → plays of the set
    seats: dict[tuple[int, int], dict[str, int]]  # (round, table) → position → entry
    results: dict[tuple[int, int], dict]  # (deal, play) → current settlement: seat → score
    artificial: dict[tuple[int, int, int], str]  # (deal, play, entry) → A+/A/A-
    penalties: dict[tuple[int, int, int], Decimal]  # (deal, play, entry) → penalty
    # deal → play → the version of the cards it played, for fouled deals only (§2.7)
    versions: dict[int, dict[int, int]] = field(default_factory=dict)
    # The matchpoints figures worked out so far by the comparisons of these deals (see
    # compare.matchpoints): each (n, N, raw) once per recompute, not once per pocket.
    known: dict = field(default_factory=dict)


def _inputs(deals: list[Deal], session_id: int | None = None) -> _Inputs:
    set_ids = {d.board_set_id for d in deals}
    deal_ids = [d.pk for d in deals]
    plays: dict[int, list[dict]] = defaultdict(list)
    for play in (
        TablePlay.objects.filter(board_set_id__in=set_ids)
        .order_by("round__number", "table__room__number", "table__number", "pk")
        .values("pk", "round_id", "table_id", "board_set_id", "round__number", "round__room_id")
    ):
        plays[play["board_set_id"]].append(play)
    seats: dict[tuple[int, int], dict[str, int]] = defaultdict(dict)
    if session_id is not None:
        seat_rows = (
            Seat.objects.filter(table__isnull=False, round__room__session_id=session_id)
            .order_by()
            .values_list("round_id", "table_id", "position", "entry_id")
        )
    else:
        seat_rows = _seats_of_sets(set_ids)
    for round_id, table_id, position, entry_id in seat_rows:
        seats[(round_id, table_id)][position] = entry_id
    # Each seat's score as text straight from the JSON (no decoding of whole documents).
    # These rows (and the seats and adjustments) are looked up by key, so none is ordered:
    # the models' default orderings would join the rounds, rooms, sessions and events of
    # every row only to sort them.
    seats_text = {p: KeyTextTransform(p, "current__result__scores") for p in "WNES"}
    results = {}
    for deal_id, play_id, *scores in (
        ScoreSheet.objects.filter(deal_id__in=deal_ids, current__isnull=False)
        .order_by()
        .annotate(**{f"score_{p}": t for p, t in seats_text.items()})
        .values_list("deal_id", "play_id", *(f"score_{p}" for p in "WNES"))
    ):
        results[(deal_id, play_id)] = {
            p: v for p, v in zip("WNES", scores, strict=True) if v is not None
        }
    artificial: dict[tuple[int, int, int], str] = {}
    penalties: dict[tuple[int, int, int], Decimal] = defaultdict(Decimal)
    for deal_id, play_id, entry_id, kind, score, penalty in (
        Adjustment.objects.filter(deal_id__in=deal_ids)
        .order_by()
        .values_list("deal_id", "play_id", "entry_id", "kind", "score", "penalty")
    ):
        if kind == Adjustment.Kind.ARTIFICIAL:
            artificial[(deal_id, play_id, entry_id)] = score
        else:
            penalties[(deal_id, play_id, entry_id)] += penalty
    return _Inputs(plays, seats, results, artificial, penalties, _versions(deals, plays))


def _versions(deals: list[Deal], plays: dict[int, list[dict]]) -> dict[int, dict[int, int]]:
    """deal → play → version of its cards, for the deals a table found fouled (one query)."""
    foulings: dict[int, list[versions_core.Fouling]] = defaultdict(list)
    for deal_id, number, from_play in DealVersion.objects.filter(
        deal_id__in=[d.pk for d in deals]
    ).values_list("deal_id", "number", "from_play_id"):
        foulings[deal_id].append(versions_core.Fouling(number, from_play))
    out = {}
    for deal in deals:
        if deal.pk in foulings:
            at = [
                versions_core.PlayAt(p["pk"], p["round__room_id"], p["round__number"])
                for p in plays.get(deal.board_set_id, [])
            ]
            out[deal.pk] = versions_core.play_versions(at, foulings[deal.pk])
    return out


def _seats_of_sets(set_ids: set[int]) -> list[tuple]:
    """(round, table, position, entry) of the seats at the tables that play these sets: the
    seats whose (round, table) has a table-play of one of the sets, one indexed semi-join
    that both backends run (rather than every seat of the rounds)."""
    if not set_ids:
        return []
    plays = TablePlay.objects.filter(
        board_set_id__in=set_ids, round_id=OuterRef("round_id"), table_id=OuterRef("table_id")
    )
    return list(
        Seat.objects.filter(Exists(plays))
        .order_by()
        .values_list("round_id", "table_id", "position", "entry_id")
    )


class _Figure(NamedTuple):
    entry_id: int
    play_id: int
    position: str
    points: Fraction | None
    artificial: str
    figure: Fraction
    penalty: Decimal
    net: Fraction
    second: str


def deal_figures(deal: Deal, event: Event, data: _Inputs) -> list[_Figure]:
    """Every scored seat's figures on one deal, from the pure core."""
    plays = data.plays.get(deal.board_set_id, [])
    tables: list[dict[str, compare.Result]] = []
    owners: list[dict[str, int]] = []
    for play in plays:
        seated = data.seats.get((play["round_id"], play["table_id"]), {})
        result = data.results.get((deal.pk, play["pk"]))
        row: dict[str, compare.Result] = {}
        who: dict[str, int] = {}
        for position in deal.active_seats:
            entry_id = seated.get(position)
            if entry_id is None:
                continue
            given = data.artificial.get((deal.pk, play["pk"], entry_id))
            if given:
                row[position] = compare.Artificial(given)
            elif result is not None and position in result:
                row[position] = _amount(result[position])
            else:
                continue
            who[position] = entry_id
        tables.append(row)
        owners.append(who)
    if not any(tables):
        return []
    method = event.scoring_method
    # Every table that plays the set is expected (N); a fouled deal's versions are compared
    # each on its own, restated by Neuberg to that full N (docs/game.md §2.7, §4.1).
    options = compare_options(event) | {"expected": len(plays), "known": data.known}
    version_of = data.versions.get(deal.pk)
    if not version_of:
        per_table = compare.compare_pockets(tables, method, **options)
    else:
        per_table = [{} for _ in plays]
        for members in versions_core.groups(
            {i: version_of.get(p["pk"], 1) for i, p in enumerate(plays)}
        ).values():
            compared = compare.compare_pockets([tables[i] for i in members], method, **options)
            for i, figures in zip(members, compared, strict=True):
                per_table[i] = figures
    figures = []
    for play, row, who, compared in zip(plays, tables, owners, per_table, strict=True):
        for position, values in compared.items():
            entry_id = who[position]
            main = values[MAIN[method]]
            penalty = data.penalties.get((deal.pk, play["pk"], entry_id), Decimal(0))
            net = main
            if penalty:
                (net,) = compare.apply_penalties([main], [Fraction(penalty)])
            score = row[position]
            figures.append(
                _Figure(
                    entry_id=entry_id,
                    play_id=play["pk"],
                    position=position,
                    points=None if isinstance(score, compare.Artificial) else score,
                    artificial=score.value if isinstance(score, compare.Artificial) else "",
                    figure=main,
                    penalty=penalty,
                    net=net,
                    second=_show(values[SECOND[method]]),
                )
            )
    return figures


SCORE_COLUMNS = (
    "session_id",
    "deal_id",
    "play_id",
    "entry_id",
    "position",
    "points",
    "artificial",
    "figure_num",
    "figure_den",
    "penalty",
    "net_num",
    "net_den",
    "second",
)


#: The places the ``points`` column keeps (a settlement is shown from it, never computed on).
_POINTS_PLACES = DealScore._meta.get_field("points").decimal_places


def _points(value: Fraction) -> Decimal:
    """A settlement as the ``points`` column keeps it: a whole number as it is (the Austrian
    scores), else rounded once to the column's places, half away from zero as PostgreSQL
    rounds a longer number — the value stored is the same, without a 28-digit quotient (a
    Russian deal's thirds) to compute, write and parse."""
    num, den = value.numerator, value.denominator
    if den == 1:
        return Decimal(num)
    scaled, rest = divmod(abs(num) * 10**_POINTS_PLACES, den)
    if 2 * rest >= den:
        scaled += 1
    return Decimal(scaled if num > 0 else -scaled).scaleb(-_POINTS_PLACES)


def _score_rows(session_id: int, deal: Deal, figures: list[_Figure]) -> list[tuple]:
    return [
        (
            session_id,
            deal.pk,
            f.play_id,
            f.entry_id,
            f.position,
            None if f.points is None else _points(f.points),
            f.artificial,
            f.figure.numerator,
            f.figure.denominator,
            f.penalty,
            f.net.numerator,
            f.net.denominator,
            f.second,
        )
        for f in figures
    ]


def _write_scores(rows: list[tuple]) -> None:
    """Insert DealScore rows: PostgreSQL's COPY (tens of thousands in a blink), else the ORM."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        DealScore.objects.bulk_create(
            (DealScore(**dict(zip(SCORE_COLUMNS, row, strict=True))) for row in rows),
            batch_size=2000,
        )
        return
    text = io.StringIO()
    # Text quoted (an empty string stays a string), numbers bare; None is written as a quoted
    # empty string, which FORCE_NULL turns back into NULL for the one nullable column.
    csv.writer(text, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n").writerows(rows)
    text.seek(0)
    with connection.cursor() as cursor:
        cursor.copy_expert(
            f"COPY {DealScore._meta.db_table} ({', '.join(SCORE_COLUMNS)}) "
            "FROM STDIN WITH (FORMAT csv, FORCE_NULL (points))",
            text,
        )


def _write_totals(changed: list[SessionTotal]) -> None:
    """Save (total, deals) of many SessionTotal rows in one statement per batch."""
    if changed:
        SessionTotal.objects.bulk_update(changed, ["total", "deals"], batch_size=500)


def _relaxed_commit() -> None:
    """The cache is derived data: if a crash loses its commit, the deals are still marked
    stale (same transaction) and the next reader recomputes them. No need to wait for the
    disk."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def _lock_scoring(session: Session) -> SessionScoring | None:
    """The session's cache lock; None if the cache has never been built."""
    return SessionScoring.objects.select_for_update().filter(session=session).first()


def session_recompute(session: Session) -> None:
    """Rebuild every figure and total of the session from the sheets and adjustments."""
    event = Event.objects.get(pk=session.event_id)
    with transaction.atomic():
        _relaxed_commit()
        SessionScoring.objects.get_or_create(session=session, defaults={"rules_key": ""})
        state = _lock_scoring(session)
        deals = list(
            Deal.objects.select_for_update(of=("self",))
            .filter(board_set__session=session)
            .order_by("pk")
        )
        data = _inputs(deals, session_id=session.pk)
        rows: list[tuple] = []
        sums: dict[int, list[Fraction]] = defaultdict(list)
        for deal in deals:
            figures = deal_figures(deal, event, data)
            rows.extend(_score_rows(session.pk, deal, figures))
            for f in figures:
                sums[f.entry_id].append(f.net)
        DealScore.objects.filter(session=session).delete()
        _write_scores(rows)
        SessionTotal.objects.filter(session=session).delete()
        seated = set(
            Seat.objects.filter(round__room__session=session)
            .order_by()
            .values_list("entry_id", flat=True)
        )
        SessionTotal.objects.bulk_create(
            SessionTotal(
                session=session,
                entry_id=entry_id,
                total=_text(compare.exact_sum(sums.get(entry_id, []))),
                deals=len(sums.get(entry_id, [])),
            )
            for entry_id in sorted(seated | set(sums))
        )
        Deal.objects.filter(pk__in=[d.pk for d in deals], scores_stale=True).update(
            scores_stale=False
        )
        state.rules_key = rules_key(event)
        state.save()


def deals_recompute(deal_ids: Iterable[int], *, session: Session | None = None) -> None:
    """Recompute the stale ones among these deals and move the players' totals by the
    difference. Deals already fresh are left alone (another writer did them).

    ``session`` (its event selected): the one session all these deals are of, when the
    writer knows it — a sheet's save then spends no query on finding it."""
    ids = sorted(set(deal_ids))
    if session is not None:
        _session_deals_recompute(session, ids)
        return
    sessions = set(
        Deal.objects.filter(pk__in=ids, scores_stale=True)
        .order_by()
        .values_list("board_set__session_id", flat=True)
    )
    for found in Session.objects.filter(pk__in=sessions).select_related("event"):
        _session_deals_recompute(found, ids)


def _session_deals_recompute(session: Session, ids: list[int]) -> None:
    event = session.event
    with transaction.atomic():
        state = _lock_scoring(session)
        if state is None or state.rules_key != rules_key(event):
            return  # the next reader rebuilds the whole session (session_refresh)
        deals = list(
            Deal.objects.select_for_update(of=("self",))
            .filter(pk__in=ids, board_set__session=session, scores_stale=True)
            .order_by("pk")
        )
        if not deals:
            return
        _relaxed_commit()
        data = _inputs(deals)
        delta: dict[int, list[Fraction]] = defaultdict(list)
        count: dict[int, int] = defaultdict(int)
        old = DealScore.objects.filter(deal__in=deals).values_list("entry_id", "net_num", "net_den")
        for entry_id, num, den in old:
            delta[entry_id].append(-Fraction(num, den))
            count[entry_id] -= 1
        rows = []
        for deal in deals:
            figures = deal_figures(deal, event, data)
            rows.extend(_score_rows(session.pk, deal, figures))
            for f in figures:
                delta[f.entry_id].append(f.net)
                count[f.entry_id] += 1
        DealScore.objects.filter(deal__in=deals).delete()
        _write_scores(rows)
        totals = {
            t.entry_id: t
            for t in SessionTotal.objects.filter(session=session, entry__in=list(delta)).only(
                "id", "entry_id", "total", "deals"
            )
        }
        changed, created = [], []
        for entry_id, parts in delta.items():
            moved = compare.exact_sum(parts)
            total = totals.get(entry_id)
            if total is None:
                created.append(
                    SessionTotal(
                        session=session,
                        entry_id=entry_id,
                        total=_text(moved),
                        deals=count[entry_id],
                    )
                )
            elif moved or count[entry_id]:
                total.total = _text(_exact(total.total) + moved)
                total.deals += count[entry_id]
                changed.append(total)
        _write_totals(changed)
        SessionTotal.objects.bulk_create(created)
        Deal.objects.filter(pk__in=[d.pk for d in deals]).update(scores_stale=False)


def session_refresh(session: Session) -> None:
    """Bring the session's cache up to date before reading it."""
    event = session.event
    state = SessionScoring.objects.filter(session=session).values_list("rules_key", flat=True)
    key = state.first()
    if key is None or key != rules_key(event):
        session_recompute(session)
        return
    stale = list(
        Deal.objects.filter(board_set__session=session, scores_stale=True).values_list(
            "pk", flat=True
        )
    )
    if stale:
        _session_deals_recompute(session, stale)
