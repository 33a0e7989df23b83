"""Comparison of every deal and the standings, computed by the pure core and cached.

Every figure comes from ``scoring.compare``: for each deal the current result of each table
is put per pocket (the seat's position: the same cards), artificial scores stand in for a
player's result, and ``compare.compare_pockets`` compares them with the event's method —
matchpoints with Neuberg against the number of tables that play the set, points, or cross.
Penalties on a deal come off with ``compare.apply_penalties``; the standings are
``compare.standings_of_totals`` over the cached sums.

The cache (``DealScore`` per seat and deal, ``SessionTotal`` per player and session) is
exact (fractions), written only here, and always under the session's ``SessionScoring`` row
lock, so that concurrent writers never mix their sums:

- a sheet or adjustment write marks its deal stale; after commit the worker runs
  :func:`deals_recompute` (``scoring.tasks``), which redoes
  that deal and moves the players' totals by the difference;
- a reader first calls :func:`session_refresh`, which recomputes whatever is still stale and
  rebuilds the whole session when the event's method or artificial scores changed.
"""

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
from django.db.models import Exists, OuterRef, Q
from django.db.models.fields.json import KeyTextTransform
from django.utils.translation import gettext as _

from events import clockdoc
from events.models import DealVersion, Entry, Event, Seat, Session, Substitution
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


# --- reading: standings -------------------------------------------------------------------


@dataclass(frozen=True)
class Holder:
    """A player who held the row's participant number: the first one, then each substitute
    from the round (of the session) he took it over."""

    entry: Entry
    from_round: int | None = None  # None: from the start
    session: int | None = None


class Placed:
    """A player's place and figure as every page writes them (the standings, his card, his
    phone): one source, so none says a place another does not. The subclass has ``rank``,
    ``total`` and ``deals``."""

    @property
    def placed(self) -> bool:
        """He has a place once a deal of his is scored; until then the pages say «—»: a
        rank everyone without a deal shares («1–21») says nothing."""
        return self.deals > 0

    @property
    def place(self) -> str:
        """The rank, or «—» while he has no place."""
        return self.rank if self.placed else "—"

    @property
    def shown(self) -> str:
        return "—" if self.total is None else f"{float(self.total):.2f}"


@dataclass(frozen=True)
class StandingRow(Placed):
    """One row per participant number: a substitute's results count for the number he plays
    under, together with those of the player he replaced."""

    rank: str
    entry: Entry  # who holds the number now (the last substitute, if any)
    total: Fraction | None
    deals: int
    penalty: Fraction
    number: int | None = None
    holders: tuple[Holder, ...] = ()
    several_sessions: bool = False  # name the session beside a substitute's round

    @property
    def entry_ids(self) -> tuple[int, ...]:
        return tuple(h.entry.pk for h in self.holders) or (self.entry.pk,)

    @property
    def key(self) -> object:
        """The row's standing key: the participant number (a numberless player stands alone),
        the same in every session's standing and the event's."""
        return self.number if self.number is not None else ("entry", self.entry_ids[0])

    @property
    def name(self) -> str:
        """«Иванов Иван / Петров Пётр (замена с тура 5)»: every holder of the number."""
        if not self.holders:
            return self.entry.full_name
        return " / ".join(
            f"{entry.full_name} ({note})" if note else entry.full_name
            for entry, note in self.labelled
        )

    @property
    def labelled(self) -> tuple[tuple[Entry, str], ...]:
        """(player, «substitute from round R» or "") for each holder, for the pages."""
        if not self.holders:
            return ((self.entry, ""),)
        return tuple((h.entry, substitute_note(h, self)) for h in self.holders)

    @property
    def clubs(self) -> str:
        return " / ".join(dict.fromkeys(h.entry.club for h in self.holders if h.entry.club)) or (
            self.entry.club
        )


def substitute_note(holder: Holder, row: StandingRow) -> str:
    if holder.from_round is None:
        return ""
    if row.several_sessions and holder.session is not None:
        return _("substitute from round %(round)d of session %(session)d") % {
            "round": holder.from_round,
            "session": holder.session,
        }
    return _("substitute from round %(round)d") % {"round": holder.from_round}


def _round_penalties(sessions: list[Session]) -> dict[int, Fraction]:
    """Penalties given on a whole table-round, per player: off the standing's total."""
    found: dict[int, Fraction] = defaultdict(Fraction)
    for entry_id, penalty in Adjustment.objects.filter(
        play__round__room__session__in=sessions,
        kind=Adjustment.Kind.PENALTY,
        deal__isnull=True,
    ).values_list("entry_id", "penalty"):
        found[entry_id] += Fraction(penalty)
    return found


def _holders(entries: dict[int, Entry], subs: list[Substitution]) -> dict[object, list[Holder]]:
    """Standing key (the participant number; a numberless entry stands alone) → holders in
    order of play."""
    chains: dict[object, list[Holder]] = {}
    for sub in subs:
        chain = chains.setdefault(sub.number, [Holder(sub.leaving)])
        if all(h.entry.pk != sub.leaving_id for h in chain):
            chain.append(Holder(sub.leaving))
        chain.append(Holder(sub.arriving, sub.from_round, sub.session.number))
    for entry in sorted(entries.values(), key=lambda e: e.pk):
        key = _key(entry)
        chain = chains.setdefault(key, [])
        if all(h.entry.pk != entry.pk for h in chain):
            chain.append(Holder(entry))
    return chains


def _key(entry: Entry) -> object:
    return entry.number if entry.number is not None else ("entry", entry.pk)


def _counted_totals(session: Session, counted) -> list[tuple[int, str, int]]:
    """(entry id, total, deals) of every player of the session over the deals ``counted``
    only (a ``scoring.disclosure.SessionDisclosure``: its played-out deals, docs/game.md
    §4.4), from the cached figures. Kept in the shared cache under the disclosure's own key
    (every change of a sheet, an adjustment or a round's state makes a new one) and the
    rules: every phone and page that shows a place reads it once per change."""

    def build():
        session_refresh(session)
        sums: dict[int, list[Fraction]] = defaultdict(list)
        if counted.shown:
            for entry_id, num, den in (
                DealScore.objects.filter(session=session, deal_id__in=sorted(counted.shown))
                .values_list("entry_id", "net_num", "net_den")
                .order_by()
            ):
                sums[entry_id].append(Fraction(num, den))
        entries = SessionTotal.objects.filter(session=session).values_list("entry_id", flat=True)
        return [
            (e, _text(compare.exact_sum(sums.get(e, []))), len(sums.get(e, [])))
            for e in sorted(set(entries) | set(sums))
        ]

    if not counted.key:
        return build()
    key = f"counted:{counted.key}:{rules_key(session.event)}"
    return clockdoc.by_tokens(key, build)


def _standing(event: Event, sessions: list[Session], seen=None) -> list[StandingRow]:
    """The ranked rows over ``sessions``. ``seen`` (a ``scoring.disclosure.Viewer``): count
    for him only the deals he may count (the public: those played out); None: every deal."""
    for session in sessions:
        session_refresh(session)
    partial = {}
    if seen is not None:
        for session in sessions:
            found = seen.counts(session)
            if found is not None:
                partial[session.pk] = found
    whole = [s for s in sessions if s.pk not in partial]
    found = (
        list(
            SessionTotal.objects.filter(session__in=whole).values_list("entry_id", "total", "deals")
        )
        if whole
        else []
    )
    for session in sessions:
        if session.pk in partial:
            found += _counted_totals(session, partial[session.pk])
    entries = Entry.objects.only("id", "number", "last_name", "first_name", "club").in_bulk(
        list({entry_id for entry_id, _total, _deals in found})
    )
    key_of = {pk: _key(entry) for pk, entry in entries.items()}
    rows, penalties = _ranked(event, found, key_of, _round_penalties(sessions))
    subs = list(
        Substitution.objects.filter(session__in=sessions)
        .select_related("session", "leaving", "arriving")
        .order_by("session__number", "from_round", "id")
    )
    holders = _holders(entries, subs)
    several = len(sessions) > 1
    return [
        StandingRow(
            row.rank,
            holders[row.key][-1].entry,
            row.total,
            row.deals,
            penalties.get(row.key, 0),
            number=row.key if isinstance(row.key, int) else None,
            holders=tuple(holders[row.key]),
            several_sessions=several,
        )
        for row in rows
    ]


def _order(key: object) -> tuple:
    return (0, key, 0) if isinstance(key, int) else (1, 0, key[1])


def _ranked(
    event: Event,
    found: list[tuple[int, str, int]],
    key_of: dict[int, object],
    round_penalties: dict[int, Fraction],
) -> tuple[list[compare.Standing], dict[object, Fraction]]:
    """The ranked rows from (entry id, cached total, deals) per player and session, summed per
    standing key (a substitute counts with the player he replaced), less the penalties given
    on a whole table-round."""
    parts: dict[object, list[Fraction]] = defaultdict(list)
    deals: dict[object, int] = defaultdict(int)
    for entry_id, total, count in sorted(found, key=lambda r: _order(key_of[r[0]])):
        parts[key_of[entry_id]].append(_exact(total))
        deals[key_of[entry_id]] += count
    penalties: dict[object, Fraction] = defaultdict(Fraction)
    for entry_id, penalty in round_penalties.items():
        if entry_id in key_of:
            penalties[key_of[entry_id]] += penalty
    totals = {key: (compare.exact_sum(values), deals[key]) for key, values in parts.items()}
    return compare.standings_of_totals(totals, BY[event.scoring_method], penalties), penalties


def session_standings(session: Session, seen=None) -> list[StandingRow]:
    """The standing of one session, best first; ties share the rank («3–4»). ``seen``: as
    :func:`_standing` (the public pages pass their viewer: only deals played out count)."""
    return _standing(session.event, [session], seen)


def event_standings(event: Event, seen=None) -> list[StandingRow]:
    """The standing over every session of the event: the figures of every deal a player was
    scored on in any session, averaged over all those deals (matchpoints: not the average of
    the sessions' averages) or summed (points, cross); a player who played some sessions only
    stands with the deals he played (docs/game.md §4.4)."""
    return _standing(event, list(event.sessions.select_related("event")), seen)


@dataclass(frozen=True)
class FewDeals:
    """The rows of a standing scored on few deals, marked so that a one-deal 100 % does not
    read as a leader's result; the ranking itself stays (docs/game.md §4.4)."""

    keys: frozenset  # the marked rows' keys (StandingRow.key)
    most: int  # the most deals any row of the standing was scored on

    def __contains__(self, row: object) -> bool:
        return getattr(row, "key", row) in self.keys

    def __bool__(self) -> bool:
        return bool(self.keys)


def few_deals(rows: Iterable[StandingRow]) -> FewDeals:
    """The rows scored on fewer than half the deals of the row with the most (docs/game.md
    §4.4, a choice): half the most, not the leader's, since the leader may be the very row
    with one deal. A row with no deal has no figure to mark."""
    rows = list(rows)
    most = max((row.deals for row in rows), default=0)
    return FewDeals(frozenset(row.key for row in rows if 0 < 2 * row.deals < most), most)


@dataclass(frozen=True)
class EventStanding:
    """The event standing with each session's own standing beside it, row by row."""

    rows: list[StandingRow]
    sessions: list[Session]
    by_session: dict[int, dict[object, StandingRow]]  # session number → row key → row

    def of(self, row: StandingRow, session: Session) -> StandingRow | None:
        """The row's line in that session's standing (None: he did not play it)."""
        return self.by_session.get(session.number, {}).get(row.key)


def event_standing_by_session(event: Event, seen=None) -> EventStanding:
    """:func:`event_standings` and every session's standing, for the pages and the CSV.
    ``seen``: as :func:`_standing`."""
    sessions = list(event.sessions.select_related("event").order_by("number"))
    rows = _standing(event, sessions, seen)
    by_session = {
        session.number: {row.key: row for row in _standing(event, [session], seen)}
        for session in sessions
    }
    return EventStanding(rows, sessions, by_session)


@dataclass(frozen=True)
class SessionPlace(Placed):
    """A player's row of a session's standing, as his phone shows it."""

    rank: str
    total: Fraction | None
    deals: int


def session_place(entry: Entry, session: Session, counted=None) -> SessionPlace | None:
    """His rank, figure and deals in :func:`session_standings` (None: not in it, or no deal of
    his scored in it yet), without building every row: the session's cached totals with each
    player's number in one query, its round penalties and its substitutions (for the numbers
    he held). The caller has refreshed the session (:func:`session_refresh`). ``counted``:
    a ``scoring.disclosure.SessionDisclosure`` whose played-out deals alone count (the
    public's place), None for every deal."""
    found = list(
        SessionTotal.objects.filter(session=session)
        .order_by()
        .values_list("entry_id", "entry__number", "total", "deals")
    )
    if counted is not None:
        # Only the deals played out count (docs/game.md §4.4): the same place the public
        # standing gives him.
        numbers = {entry_id: number for entry_id, number, _t, _d in found}
        found = [
            (entry_id, numbers.get(entry_id), total, deals)
            for entry_id, total, deals in _counted_totals(session, counted)
        ]
    key_of = {
        entry_id: number if number is not None else ("entry", entry_id)
        for entry_id, number, _total, _deals in found
    }
    totals = [(entry_id, total, deals) for entry_id, _number, total, deals in found]
    rows, _penalties = _ranked(session.event, totals, key_of, _round_penalties([session]))
    # The rows he is a holder of (see _holders): his own, and the numbers he took or left.
    mine = {key_of[entry.pk]} if entry.pk in key_of else set()
    for number in (
        Substitution.objects.filter(session=session)
        .filter(Q(leaving=entry) | Q(arriving=entry))
        .values_list("number", flat=True)
    ):
        mine.add(number)
    row = next((r for r in rows if r.key in mine), None)
    # No deal scored yet (the session has not started for him): no place — «1–33 over 0
    # deals» would be a place nobody holds.
    return SessionPlace(row.rank, row.total, row.deals) if row and row.deals else None


# --- reading: the traveller of a deal -----------------------------------------------------


@dataclass(frozen=True)
class CardsVersion:
    """A version of a fouled deal's cards, as the traveller heads its group of tables."""

    number: int
    table: int | None = None  # the table (and round) the box was found fouled at
    round: int | None = None


@dataclass
class TravellerRow:
    play: TablePlay
    players: dict[str, Entry]
    sheet: ScoreSheet | None
    scores: dict[str, DealScore] = field(default_factory=dict)
    version: int = 1  # the version of the cards this table played (docs/game.md §2.7)
    cards_version: CardsVersion | None = None  # that version, when the deal was fouled


@dataclass
class Traveller:
    deal: Deal
    session: Session
    rows: list[TravellerRow]
    positions: list[str]  # the deal's active seats, in table order W N E S
    # The versions of the cards when the box was found fouled (empty otherwise); the rows
    # are then grouped by version, each compared on its own.
    versions: list[CardsVersion] = field(default_factory=list)

    @property
    def fouled(self) -> bool:
        return bool(self.versions)

    def heading(self, number: int) -> CardsVersion | None:
        return next((v for v in self.versions if v.number == number), None)


def deal_traveller(deal: Deal) -> Traveller:
    """Every table's result on this deal side by side, with each pocket's figure."""
    session = Session.objects.select_related("event").get(pk=deal.board_set.session_id)
    session_refresh(session)
    plays = list(
        TablePlay.objects.filter(board_set_id=deal.board_set_id)
        .select_related("round", "table__room")
        .order_by("round__number", "table__room__number", "table__number")
    )
    seats: dict[tuple[int, int], dict[str, Entry]] = defaultdict(dict)
    for seat in Seat.objects.filter(
        round_id__in={p.round_id for p in plays},
        table_id__in={p.table_id for p in plays},
    ).select_related("entry"):
        seats[(seat.round_id, seat.table_id)][seat.position] = seat.entry
    sheets = {s.play_id: s for s in ScoreSheet.objects.filter(deal=deal).select_related("current")}
    scores: dict[int, dict[str, DealScore]] = defaultdict(dict)
    for score in DealScore.objects.filter(deal=deal):
        scores[score.play_id][score.position] = score
    rows = [
        TravellerRow(
            play=p,
            players=seats.get((p.round_id, p.table_id), {}),
            sheet=sheets.get(p.pk),
            scores=scores.get(p.pk, {}),
        )
        for p in plays
    ]
    positions = [s for s in "WNES" if s in deal.active_seats]
    fouled = list(
        DealVersion.objects.filter(deal=deal)
        .select_related("from_play__round", "from_play__table")
        .order_by("number")
    )
    versions: list[CardsVersion] = []
    if fouled:
        version_of = versions_core.play_versions(
            [versions_core.PlayAt(p.pk, p.round.room_id, p.round.number) for p in plays],
            [versions_core.Fouling(v.number, v.from_play_id) for v in fouled],
        )
        for row in rows:
            row.version = version_of.get(row.play.pk, 1)
        rows.sort(key=lambda r: r.version)  # stable: round and table order within a version
        versions = [CardsVersion(1)] + [
            CardsVersion(v.number, v.from_play.table.number, v.from_play.round.number)
            for v in fouled
        ]
        by_number = {v.number: v for v in versions}
        for row in rows:
            row.cards_version = by_number.get(row.version)
    return Traveller(deal=deal, session=session, rows=rows, positions=positions, versions=versions)


# --- reading: a player's personal score card ----------------------------------------------


@dataclass
class CardRow:
    session: Session
    round_number: int
    table_number: int | None  # None: a pause
    position: str
    deal: Deal | None
    sits_out: bool = False
    sheet: ScoreSheet | None = None
    score: DealScore | None = None
    version: int | None = None  # the version of the cards he played, when it was fouled
    # Not played out yet (scoring.disclosure): its result and figure are not shown.
    hidden: bool = False


@dataclass
class Card:
    entry: Entry
    rows: list[CardRow]
    standings: dict[int, StandingRow | None]  # session number → his row


def player_card(entry: Entry, seen=None) -> Card:
    """Each deal the player was at the table for: round, table, position, the result and his
    figure; deals he sat out and pauses are listed, not scored."""
    sessions = list(Session.objects.filter(event=entry.event_id).select_related("event"))
    for session in sessions:
        session_refresh(session)
    seats = list(
        Seat.objects.filter(entry=entry, round__room__session__in=sessions)
        .select_related("round__room__session__event", "table")
        .order_by("round__room__session__number", "round__number")
    )
    plays = {
        (p.round_id, p.table_id): p
        for p in TablePlay.objects.filter(
            round_id__in={s.round_id for s in seats},
            table_id__in={s.table_id for s in seats if s.table_id},
        ).select_related("board_set")
    }
    set_ids = {p.board_set_id for p in plays.values()}
    deals: dict[int, list[Deal]] = defaultdict(list)
    for deal in Deal.objects.filter(board_set_id__in=set_ids).select_related("board_set"):
        deals[deal.board_set_id].append(deal)
    sheets = {
        (s.play_id, s.deal_id): s
        for s in ScoreSheet.objects.filter(
            play__in=list(plays.values()), deal__board_set_id__in=set_ids
        ).select_related("current")
    }
    scores = {
        (s.play_id, s.deal_id): s
        for s in DealScore.objects.filter(entry=entry, session__in=sessions)
    }
    fouled = _fouled_versions(set_ids)
    rows: list[CardRow] = []
    for seat in seats:
        session = seat.round.room.session
        if seat.table_id is None:
            rows.append(CardRow(session, seat.round.number, None, "", None))
            continue
        play = plays.get((seat.round_id, seat.table_id))
        if play is None:
            continue
        for deal in sorted(deals[play.board_set_id], key=lambda d: d.number):
            rows.append(
                CardRow(
                    session=session,
                    round_number=seat.round.number,
                    table_number=seat.table.number,
                    position=seat.position,
                    deal=deal,
                    sits_out=seat.position not in deal.active_seats,
                    sheet=sheets.get((play.pk, deal.pk)),
                    score=scores.get((play.pk, deal.pk)),
                    version=fouled[deal.pk].get(play.pk, 1) if deal.pk in fouled else None,
                )
            )
    standing: dict[int, StandingRow | None] = {}
    for session in sessions:
        mine = [r for r in session_standings(session, seen) if entry.pk in r.entry_ids]
        standing[session.number] = mine[0] if mine else None
    return Card(entry=entry, rows=rows, standings=standing)


def _fouled_versions(set_ids) -> dict[int, dict[int, int]]:
    """deal → play → version of its cards, for the fouled deals of these sets (§2.7)."""
    foulings: dict[int, list] = defaultdict(list)
    sets_of: dict[int, int] = {}
    for deal_id, set_id, number, from_play in DealVersion.objects.filter(
        deal__board_set_id__in=set_ids
    ).values_list("deal_id", "deal__board_set_id", "number", "from_play_id"):
        foulings[deal_id].append(versions_core.Fouling(number, from_play))
        sets_of[deal_id] = set_id
    if not foulings:
        return {}
    at: dict[int, list] = defaultdict(list)
    for pk, set_id, room, number in TablePlay.objects.filter(
        board_set_id__in=set(sets_of.values())
    ).values_list("pk", "board_set_id", "round__room_id", "round__number"):
        at[set_id].append(versions_core.PlayAt(pk, room, number))
    return {
        deal_id: versions_core.play_versions(at[sets_of[deal_id]], found)
        for deal_id, found in foulings.items()
    }


@dataclass(frozen=True)
class FouledDeal:
    """A deal whose box a table found fouled: its results are compared by version."""

    deal: Deal
    versions: int  # how many versions of its cards (2 or more)


def fouled_deals(sessions) -> list[FouledDeal]:
    """The fouled deals of these sessions, in set and deal order (one query)."""
    found: dict[int, FouledDeal] = {}
    for version in (
        DealVersion.objects.filter(deal__board_set__session__in=list(sessions))
        .select_related("deal__board_set")
        .order_by("deal__board_set__family", "deal__board_set__number", "deal__number", "number")
    ):
        found[version.deal_id] = FouledDeal(version.deal, version.number)
    return list(found.values())
