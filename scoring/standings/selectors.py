"""The standings' readers (docs/architecture.md): the session's and the event's standings,
a player's place, a deal's traveller, a player's card, the fouled deals — each read from the
cache the one writer keeps (``scoring.standings.recompute``), refreshed first
(:func:`session_refresh`), and showing what the one rule lets its reader see (``seen``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Q
from django.utils.translation import gettext as _

from events import clockdoc
from events.models import DealVersion, Entry, Event, Seat, Session, Substitution
from scoring import compare
from scoring.compare import versions as versions_core
from scoring.models import (
    Adjustment,
    Deal,
    DealScore,
    ScoreSheet,
    SessionTotal,
    TablePlay,
)
from scoring.standings.recompute import BY, _exact, _text, rules_key, session_refresh

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
    only (a ``scoring.standings.disclosure.SessionDisclosure``: its played-out deals, docs/game.md
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
    """The ranked rows over ``sessions``. ``seen`` (a ``scoring.standings.disclosure.Viewer``): count
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
    a ``scoring.standings.disclosure.SessionDisclosure`` whose played-out deals alone count (the
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
    # Not played out yet (scoring.standings.disclosure): its result and figure are not shown.
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
