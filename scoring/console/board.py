"""The director's live console of a room: for one round, a grid of tables × deals with the
state of each score sheet, and the room's disputed sheets and late tables.

Read-only, and a fixed number of queries whatever the number of tables: the room page and
its poller's ``console.html`` draw it with one template (director/_console_board.html).
The ``version`` changes with anything shown (a sheet, a late mark, an adjustment, table
access, a round's state, a substitute, the results being published): the writers bump the
room's console token (events/clockdoc.py), so that the poller learns «nothing changed»
without the grid being built.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from events import clock, clockdoc
from events.boards import deal_label, set_label
from events.models import BoxReport, Room, Round, Seat
from scoring.models import Deal, Proof, ScoreSheet, TablePlay

#: The legend's entries, in its order: a cell's state (``not_played``: no sheet, before or
#: after «Конец тура!»; else the sheet's status), then ``late``, which is no state of its own
#: but the mark of a sheet the table entered or confirmed after «Конец тура!» (its cell keeps
#: its status). So a deal nobody entered counts as not played, never as late (issue 21).
NOT_PLAYED = "not_played"
ENTERED = "entered"
CONFIRMED = "confirmed"
DISPUTED = "disputed"
LATE = "late"
STATES = (NOT_PLAYED, ENTERED, CONFIRMED, DISPUTED, LATE)

#: What each state looks like: a sign besides the colour, and its name.
LEGEND = {
    NOT_PLAYED: ("○", _("not played")),
    ENTERED: ("✎", _("entered")),
    CONFIRMED: ("✓", _("confirmed")),
    DISPUTED: ("⚠", _("disputed")),
    LATE: ("◔", _("late")),
}

#: Players in the order the grid lists them: round the table, W N E S (N E S with three).
POSITIONS = ("W", "N", "E", "S")


class NoSuchRound(LookupError):
    """The round asked for is not a round of this room."""


@dataclass(frozen=True)
class Cell:
    deal: int  # number of the deal in its set
    code: str  # «3.2»: set 3, deal 2
    state: str
    url: str  # the sheet (its history) or, with no sheet yet, the scorer form
    sheet: int | None = None
    version: int | None = None
    late: bool = False  # the table's players wrote it after «Конец тура!»
    # Entered on the table's device by a seat chosen, without a PIN (scoring.sheets.proof).
    unproven: bool = False
    # The table reported that this deal's box does not match; the director has to decide.
    box: bool = False


@dataclass(frozen=True)
class Row:
    table: int
    set: int
    play: int
    url: str  # the table-round page: its deals, sheets and adjustments
    # Short of sheets at «Конец тура!» and still short: its deals without a sheet are not
    # played (no result yet), not late; ``missing`` says how many.
    late: bool
    players: list[dict]  # [{"position": "N", "name": …}, …]
    cells: list[Cell]
    box_reports: int = 0  # open «the box does not match» reports of this table-round
    missing: int = 0  # deals of its set without a sheet


@dataclass(frozen=True)
class Dispute:
    round: int
    table: int
    deal: str
    url: str


@dataclass(frozen=True)
class OpenBoxReport:
    """«Коробка не совпадает»: a table's report the director has not decided yet."""

    round: int
    table: int
    deal: str
    kind: str
    url: str
    play: int
    deal_id: int


@dataclass(frozen=True)
class LateTable:
    round: int
    table: int
    missing: int  # deals without a sheet
    url: str


@dataclass
class Console:
    room: int
    round: int | None
    round_state: str | None
    following_clock: bool  # no round asked for: the grid follows the clock
    rounds: list[dict]  # [{"number": 1, "state": "finished"}, …]
    deals: list[int]  # the grid's columns: deal numbers 1..max
    rows: list[Row]
    counts: dict[str, int]
    disputes: list[Dispute]
    late: list[LateTable]
    results_public: bool
    # What the clock controls look like: on-clock round and state, next round, its auto-start.
    controls: str
    version: str = field(default="")
    box_reports: list[OpenBoxReport] = field(default_factory=list)
    # Each row's cache key (it changes with anything the row shows): the page draws each
    # row once per key and language, and keeps the drawing (scoring.console.views).
    row_keys: list[str] = field(default_factory=list)


def chosen_round(rounds: list[Round], number: int | None) -> Round | None:
    """The round asked for; by default the one on the clock, else the latest finished, else
    the first."""
    if number is not None:
        for rnd in rounds:
            if rnd.number == number:
                return rnd
        raise NoSuchRound(number)
    return clock.current_round(rounds)


def controls_key(rounds: list[Round]) -> str:
    """Changes exactly when the clock controls of the page would render differently."""
    on_clock = next((r for r in rounds if r.is_on_clock), None)
    pending = [r for r in rounds if r.state == Round.State.PENDING]
    following = min(pending, key=lambda r: r.number, default=None)
    parts = [
        f"{on_clock.number}:{on_clock.state}" if on_clock else "-",
        f"{following.number}:{following.auto_start_at.isoformat() if following.auto_start_at else ''}"
        if following
        else "-",
    ]
    return "|".join(parts)


def console_state(room: Room, *, round_number: int | None = None) -> Console:
    """The console of ``room`` for round ``round_number`` (default: see :func:`chosen_round`).

    Raises :class:`NoSuchRound` for a number that is not a round of the room. ``room`` should
    come with ``session__event`` selected."""
    event = room.session.event
    # Before anything is read: a change made while the console is built shows next poll.
    version = clockdoc.console_version(room)
    rounds = list(room.rounds.order_by("number"))
    rnd = chosen_round(rounds, round_number)
    rows: list[Row] = []
    row_keys: list[str] = []
    reports = _box_reports(event.pk, room)
    if rnd is not None:
        rows, row_keys = _rows(event.pk, rnd, {(r.play, r.deal_id) for r in reports})
    columns = max((len(row.cells) for row in rows), default=0)
    counts = dict.fromkeys(STATES, 0)
    for row in rows:
        for cell in row.cells:
            counts[cell.state] += 1
            counts[LATE] += cell.late
    console = Console(
        room=room.pk,
        round=rnd.number if rnd else None,
        round_state=rnd.state if rnd else None,
        following_clock=round_number is None,
        rounds=[{"number": r.number, "state": r.state} for r in rounds],
        deals=list(range(1, columns + 1)),
        rows=rows,
        counts=counts,
        disputes=_disputes(event.pk, room),
        late=_late_tables(event.pk, room),
        results_public=event.results_public,
        controls=controls_key(rounds),
        version=version,
        row_keys=row_keys,
        box_reports=reports,
    )
    return console


@dataclass(frozen=True)
class _Play:
    """What the grid reads of a table-round that changes only with the seating or the
    clock (the late mark is set at «Конец тура!»)."""

    pk: int
    table_id: int
    table: int
    set: int
    board_set_id: int
    late: bool


#: A grid row lives unread this long; its key changes with anything it shows anyway.
ROW_TIMEOUT = 3600


def _rows(event_pk: int, rnd: Round, boxes=frozenset()) -> tuple[list[Row], list[str]]:
    """The grid's rows, one per table, each kept in the cache under its table's token
    (bumped by a sheet, a confirmation, an adjustment or the access of that table), the
    setup token (players' names) and its late mark: after a save only that table's row is
    built again, the other rows are read as they were (one round trip); the table-rounds
    themselves are kept under the room's clock and the setup."""
    lead = clockdoc.tokens([clockdoc.SETUP, clockdoc.clock_key(rnd.room_id)])
    setup, clock_token = lead[clockdoc.SETUP], lead[clockdoc.clock_key(rnd.room_id)]
    plays = clockdoc.by_tokens(
        f"console:plays:{rnd.pk}:{setup}:{clock_token}", lambda: _plays_of(rnd)
    )
    tokens = clockdoc.tokens([clockdoc.table_key(p.table_id) for p in plays])
    keys = {
        p.pk: f"console:row:{p.pk}:{tokens[clockdoc.table_key(p.table_id)]}:{setup}:{int(p.late)}"
        for p in plays
    }
    found = clockdoc.many_by_tokens(
        list(keys.values()),
        lambda wanted: {
            keys[pk]: row
            for pk, row in _build_rows(
                event_pk, rnd, [p for p in plays if keys[p.pk] in wanted], boxes
            ).items()
        },
        timeout=ROW_TIMEOUT,
    )
    return [found[keys[p.pk]] for p in plays], [keys[p.pk] for p in plays]


def _plays_of(rnd: Round) -> list[_Play]:
    return [
        _Play(pk, table_id, table, number, board_set_id, late)
        for pk, table_id, table, number, board_set_id, late in TablePlay.objects.filter(round=rnd)
        .order_by("table__number")
        .values_list("pk", "table_id", "table__number", "board_set__number", "board_set_id", "late")
    ]


def _build_rows(event_pk: int, rnd: Round, plays: list[_Play], boxes=frozenset()) -> dict:
    """The rows of these table-rounds: three queries whatever their number. ``boxes``:
    (table-play, deal) of the room's open box reports (a report bumps its table's token, so
    the row is built again)."""
    deals: dict[int, list] = {}
    for deal in Deal.objects.filter(board_set__in={p.board_set_id for p in plays}).order_by(
        "number"
    ):
        deals.setdefault(deal.board_set_id, []).append(deal)
    sheets = {
        (s["play_id"], s["deal_id"]): s
        for s in ScoreSheet.objects.filter(play_id__in=[p.pk for p in plays])
        .order_by()
        .values("pk", "play_id", "deal_id", "status", "current__number", "current__proof", "late")
    }
    players: dict[int, list[dict]] = {}
    seats = (
        Seat.objects.filter(round=rnd, table_id__in=[p.table_id for p in plays])
        .select_related("entry")
        .order_by()
    )
    for seat in sorted(seats, key=lambda s: POSITIONS.index(s.position)):
        players.setdefault(seat.table_id, []).append(
            {"position": seat.position, "name": seat.entry.full_name}
        )
    rows = {}
    for play in plays:
        own = deals.get(play.board_set_id, [])
        recorded = sum((play.pk, d.pk) in sheets for d in own)
        late = play.late and recorded < len(own)
        cells = []
        for deal in own:
            sheet = sheets.get((play.pk, deal.pk))
            code = f"{play.set}.{deal.number}"
            if sheet is None:
                cells.append(
                    Cell(
                        deal=deal.number,
                        code=code,
                        state=NOT_PLAYED,
                        url=reverse("director:sheet_form", args=[event_pk, play.pk, deal.number]),
                        box=(play.pk, deal.pk) in boxes,
                    )
                )
            else:
                cells.append(
                    Cell(
                        deal=deal.number,
                        code=code,
                        state=sheet["status"],
                        url=reverse("director:sheet", args=[event_pk, sheet["pk"]]),
                        sheet=sheet["pk"],
                        version=sheet["current__number"],
                        late=sheet["late"],
                        unproven=sheet["current__proof"] == Proof.SEAT,
                        box=(play.pk, deal.pk) in boxes,
                    )
                )
        rows[play.pk] = Row(
            table=play.table,
            set=play.set,
            play=play.pk,
            url=reverse("director:play", args=[event_pk, play.pk]),
            late=late,
            players=players.get(play.table_id, []),
            cells=cells,
            box_reports=sum(c.box for c in cells),
            missing=len(own) - recorded,
        )
    return rows


def _disputes(event_pk: int, room: Room) -> list[Dispute]:
    disputed = (
        ScoreSheet.objects.filter(play__round__room=room, status=ScoreSheet.Status.DISPUTED)
        .select_related("play__round", "play__table", "deal__board_set")
        .order_by("play__round__number", "play__table__number", "deal__number")
    )
    return [
        Dispute(
            round=s.play.round.number,
            table=s.play.table.number,
            deal=s.deal.code,
            url=reverse("director:sheet", args=[event_pk, s.pk]),
        )
        for s in disputed
    ]


def _box_reports(event_pk: int, room: Room) -> list[OpenBoxReport]:
    found = (
        BoxReport.objects.filter(play__round__room=room, state=BoxReport.State.OPEN)
        .order_by("play__round__number", "play__table__number", "deal__number", "pk")
        .values(
            "pk",
            "kind",
            "play_id",
            "deal_id",
            "play__round__number",
            "play__table__number",
            "deal__number",
            "deal__board_set__number",
            "deal__board_set__letter",
        )
    )
    return [
        OpenBoxReport(
            round=r["play__round__number"],
            table=r["play__table__number"],
            deal=deal_label(
                set_label(r["deal__board_set__letter"], r["deal__board_set__number"]),
                r["deal__number"],
            ),
            kind=BoxReport.Kind(r["kind"]).label,
            url=reverse("director:box_report", args=[event_pk, r["pk"]]),
            play=r["play_id"],
            deal_id=r["deal_id"],
        )
        for r in found
    ]


def _late_tables(event_pk: int, room: Room) -> list[LateTable]:
    # A set has as many deals as players at the table (see late_tables_mark).
    plays = (
        TablePlay.objects.filter(round__room=room, late=True)
        .annotate(recorded=Count("sheets"))
        .filter(recorded__lt=F("board_set__players"))
        .select_related("round", "table", "board_set")
        .order_by("round__number", "table__number")
    )
    return [
        LateTable(
            round=p.round.number,
            table=p.table.number,
            missing=p.board_set.players - p.recorded,
            url=reverse("director:play", args=[event_pk, p.pk]),
        )
        for p in plays
    ]
