"""The players' check-in («Я на месте», issue 34): who has come, before the session or before
each round, the one writer of ``CheckIn``.

Which check-in is asked (:func:`asked_round`), per room — each room runs its own clock:

- by default, once per session: round ``0``, asked until the first round of the player's
  room starts;
- with ``Session.checkin_each_round``: before every round, the room's next round not yet
  started (``n``), asked while no round of the room is on the clock.

A player checks himself in (his own page, or the table's gate with his PIN): only for the
check-in asked now in his room. A director marks a player by hand (any round of the
session, e.g. a late arrival), and takes a mistaken mark back; both ask the role
(``events.staff``: «checkin», a room director in his rooms only). Marking twice is one row.
Each change writes its log line (``events.actionlog``) in its own transaction and bumps
the room's console token and the player's phone token (``events.clockdoc``).

:func:`room_checkins` is the director's reader: per table of the room, each seat's player,
checked in or missing, with the counts — three queries whatever the room's size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from events import clockdoc, staff
from events.actionlog import log_action
from events.models import CheckIn, Entry, Room, Round, Seat, Session

#: The round of the check-in before the session (not before a round of its own).
BEFORE_SESSION = 0


def asked_round(each_round: bool, rounds) -> int | None:
    """The check-in asked now in a room whose rounds are ``rounds`` (objects with ``number``
    and ``state``): 0 before its first round starts, or (``each_round``) the next round not
    yet started while none is on the clock; ``None`` when none is asked."""
    rounds = list(rounds)
    if any(r.state in Round.ON_CLOCK for r in rounds):
        return None
    pending = [r.number for r in rounds if r.state == Round.State.PENDING]
    if not pending:
        return None
    if each_round:
        return min(pending)
    started = any(r.state != Round.State.PENDING for r in rounds)
    return None if started else BEFORE_SESSION


def asked_of(each_round: bool, current: Round | None, upcoming: Round | None) -> int | None:
    """:func:`asked_round` from a room's round on the clock (``current``) and its first
    round not started (``upcoming``), as the player's page knows them (``events.player``):
    no query. Rounds start in order, so nothing has started while ``upcoming`` is round 1."""
    if current is not None or upcoming is None:
        return None
    if each_round:
        return upcoming.number
    return BEFORE_SESSION if upcoming.number == 1 else None


def room_asked_round(room: Room) -> int | None:
    """The check-in asked now in ``room`` (with its session): one query."""
    return asked_round(room.session.checkin_each_round, room.rounds.order_by("number"))


def _seat(session: Session, entry: Entry, round_number: int) -> Seat | None:
    """His seat the check-in of ``round_number`` is about: in that round of the session, or
    for the session's own check-in (0) his first one; with its room and table."""
    seats = Seat.objects.filter(round__room__session=session, entry=entry).select_related(
        "round__room", "table"
    )
    if round_number != BEFORE_SESSION:
        seats = seats.filter(round__number=round_number)
    return seats.order_by("round__number").first()


def _where(seat: Seat) -> tuple[int, int | None]:
    return seat.round.room.number, (seat.table.number if seat.table_id else None)


def _line(session: Session, entry: Entry, round_number: int, **more) -> dict:
    return {
        "session": session.number,
        "round": round_number,
        "player": entry.number,
        "name": entry.full_name,
        **more,
    }


def _changed(seat: Seat, entry: Entry) -> None:
    clockdoc.room_changed(seat.round.room_id, clock=False)
    clockdoc.entries_changed([entry.pk])


def _check_round(session: Session, round_number) -> int:
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise ValidationError({"round": _("A round is a whole number (0: before the session).")})
    most = max((r.rounds_planned for r in session.rooms.all()), default=0)
    if not 0 <= round_number <= most:
        raise ValidationError(
            {
                "round": _(
                    "Check-in is before the session (0) or before a round from 1 to %(most)d."
                )
                % {"most": most}
            }
        )
    return round_number


def _no_seat(session: Session, entry: Entry, round_number: int) -> ValidationError:
    if round_number == BEFORE_SESSION:
        text = _("%(name)s has no seat in session %(session)d: there is nothing to check in for.")
    else:
        text = _(
            "%(name)s has no seat in round %(round)d of session %(session)d: there is nothing "
            "to check in for."
        )
    return ValidationError(
        {
            "entry": text
            % {"name": entry.full_name, "session": session.number, "round": round_number}
        }
    )


def checkin_mark(session: Session, entry: Entry, *, round: int, by=None) -> CheckIn:  # noqa: A002
    """Check ``entry`` in for ``round`` of ``session`` (0: before the session) and return
    the row; marking again changes nothing (one row, the first time kept).

    ``by``: the director who marks him by hand (his role must allow «checkin» in the
    player's room), or ``None`` for the player himself, who may check in only for the
    check-in asked now in his room. A player with no seat in that session (or round) is
    refused with a ``ValidationError`` on ``entry``; a round out of the session's, on
    ``round``."""
    if entry.event_id != session.event_id:
        raise ValidationError({"entry": _("This player is not entered in this event.")})
    round_number = _check_round(session, round)
    seat = _seat(session, entry, round_number)
    if seat is None:
        raise _no_seat(session, entry, round_number)
    room = seat.round.room
    if by is not None:
        staff.require(by, session.event, "checkin", room=room.number)
    else:
        room.session = session
        asked = room_asked_round(room)
        if asked != round_number:
            raise ValidationError({"round": _closed_text(round_number, asked)})
    with transaction.atomic():
        row, made = CheckIn.objects.get_or_create(
            session=session, entry=entry, round=round_number, defaults={"by": by}
        )
        if made:
            room_number, table = _where(seat)
            log_action(
                session.event,
                by,
                "checkin",
                room=room_number,
                table=table,
                after=_line(session, entry, round_number, by_hand=by is not None),
            )
            _changed(seat, entry)
    return row


def _closed_text(round_number: int, asked: int | None) -> str:
    if asked is None:
        return _("Check-in is not open now: tell the director you are here.")
    if round_number == BEFORE_SESSION:
        return _("The check-in before the session is over: tell the director you are here.")
    return _("The check-in before round %(round)d is not open now: tell the director.") % {
        "round": round_number
    }


def checkin_unmark(session: Session, entry: Entry, *, round: int, by) -> bool:  # noqa: A002
    """Take back a mark made by mistake (a director's, asked as :func:`checkin_mark`): True
    if there was one, False if he was not checked in (nothing changes)."""
    if entry.event_id != session.event_id:
        raise ValidationError({"entry": _("This player is not entered in this event.")})
    round_number = _check_round(session, round)
    seat = _seat(session, entry, round_number)
    if seat is None:
        raise _no_seat(session, entry, round_number)
    staff.require(by, session.event, "checkin", room=seat.round.room.number)
    with transaction.atomic():
        row = (
            CheckIn.objects.select_for_update()
            .filter(session=session, entry=entry, round=round_number)
            .first()
        )
        if row is None:
            return False
        before = _line(session, entry, round_number, at=row.at.isoformat())
        row.delete()
        room_number, table = _where(seat)
        log_action(session.event, by, "checkin", room=room_number, table=table, before=before)
        _changed(seat, entry)
    return True


def session_set_checkin_each_round(session: Session, value: bool, *, by) -> bool:
    """Whether the session's players check in before each round too (not only before the
    session): the chief's or a director's («seating»). Returns whether it changed."""
    staff.require(by, session.event, "seating")
    value = bool(value)
    with transaction.atomic():
        current = (
            Session.objects.select_for_update()
            .filter(pk=session.pk)
            .values_list("checkin_each_round", flat=True)
            .get()
        )
        session.checkin_each_round = value
        if current == value:
            return False
        Session.objects.filter(pk=session.pk).update(checkin_each_round=value)
        log_action(
            session.event,
            by,
            "checkin",
            before={"session": session.number, "each_round": current},
            after={"session": session.number, "each_round": value},
        )
        for room_id in session.rooms.values_list("pk", flat=True):
            clockdoc.room_changed(room_id, clock=False)
        # What every phone of the session is asked changes (the seating its pages share
        # reads the session): the setup token, a rare change.
        clockdoc.setup_changed()
    return True


def entry_checkin(session_id: int, entry_id: int, round_number: int) -> CheckIn | None:
    """His check-in row for that round of the session, if he has one: one query."""
    return (
        CheckIn.objects.filter(session_id=session_id, entry_id=entry_id, round=round_number)
        .order_by()
        .first()
    )


# --- the director's reader -------------------------------------------------------------------


@dataclass
class SeatCheck:
    position: str  # «» for a pause
    entry_id: int
    number: int | None
    name: str
    at: datetime | None = None  # when he checked in; None: missing
    by_hand: bool = False  # a director marked him
    replaced: bool = False  # a substitute has taken his seats already (no second one)

    @property
    def present(self) -> bool:
        return self.at is not None


@dataclass
class TableCheck:
    table: int | None  # None: the players sitting the round out
    seats: list[SeatCheck] = field(default_factory=list)

    @property
    def present(self) -> int:
        return sum(s.present for s in self.seats)

    @property
    def missing(self) -> int:
        return len(self.seats) - self.present


@dataclass
class RoomCheckIn:
    room: int  # its pk
    session: int  # its pk
    each_round: bool
    round: int | None  # the check-in shown (0: before the session); None: no round at all
    asked: bool  # open now to the players
    seating_round: int | None  # the room's round whose seats it lists
    substitute_from: int | None  # the room's next round not started: a substitute from it
    tables: list[TableCheck] = field(default_factory=list)

    @property
    def present(self) -> int:
        return sum(t.present for t in self.tables)

    @property
    def total(self) -> int:
        return sum(len(t.seats) for t in self.tables)

    @property
    def missing(self) -> int:
        return self.total - self.present


def _shown_round(each_round: bool, rounds: list[Round]) -> int | None:
    """The check-in the director's page shows: the one asked now; else the last one asked
    (before the session; or before the round on the clock, else the latest finished)."""
    asked = asked_round(each_round, rounds)
    if asked is not None:
        return asked
    if not rounds:
        return None
    if not each_round:
        return BEFORE_SESSION
    on_clock = [r.number for r in rounds if r.is_on_clock]
    finished = [r.number for r in rounds if r.state == Round.State.FINISHED]
    return (on_clock or [max(finished, default=min(r.number for r in rounds))])[0]


def room_checkins(room: Room) -> RoomCheckIn:
    """The check-in of ``room`` (with its session) as its director's page shows it: per
    table, each seat's player checked in or missing, the pauses last. Three queries."""
    session = room.session
    rounds = list(room.rounds.order_by("number"))
    each = session.checkin_each_round
    shown = _shown_round(each, rounds)
    pending = [r.number for r in rounds if r.state == Round.State.PENDING]
    found = RoomCheckIn(
        room=room.pk,
        session=session.pk,
        each_round=each,
        round=shown,
        asked=shown is not None and shown == asked_round(each, rounds),
        seating_round=None,
        substitute_from=min(pending, default=None),
    )
    if shown is None:
        return found
    seating = (
        shown
        if shown != BEFORE_SESSION
        else min((r.number for r in rounds), default=None)  # his seat in the first round
    )
    found.seating_round = seating
    seats = (
        Seat.objects.filter(round__room=room, round__number=seating)
        .select_related("entry", "table")
        .order_by()
    )
    marks = {
        entry_id: (at, by_id)
        for entry_id, at, by_id in CheckIn.objects.filter(session=session, round=shown)
        .order_by()
        .values_list("entry_id", "at", "by_id")
    }
    tables: dict[int | None, TableCheck] = {}
    order = {p: i for i, p in enumerate("WNES")}
    for seat in sorted(
        seats,
        key=lambda s: (
            s.table_id is None,
            s.table.number if s.table_id else 0,
            order.get(s.position, 9),
            s.participant,
        ),
    ):
        number = seat.table.number if seat.table_id else None
        mark = marks.get(seat.entry_id)
        tables.setdefault(number, TableCheck(number)).seats.append(
            SeatCheck(
                position=seat.position,
                entry_id=seat.entry_id,
                number=seat.entry.number,
                name=seat.entry.full_name,
                at=mark[0] if mark else None,
                by_hand=bool(mark and mark[1]),
                replaced=seat.entry.status == Entry.Status.REPLACED,
            )
        )
    found.tables = list(tables.values())
    return found


def substitute_candidates(session: Session) -> list[Entry]:
    """Who may come in for a missing player: the event's playing entries with no seat in
    this session (reserves, players not seated). One query."""
    seated = Seat.objects.filter(round__room__session=session).values("entry_id")
    return list(
        Entry.objects.filter(event_id=session.event_id, status=Entry.Status.ACTIVE)
        .exclude(pk__in=seated)
        .order_by("last_name", "first_name", "pk")
    )


def table_checkins(table_id: int, session: Session, round_number: int, seating_round: int):
    """The positions of a table's players in ``seating_round`` with whether each has checked
    in for ``round_number`` (the table's gate: no names). Two queries."""
    seats = list(
        Seat.objects.filter(table_id=table_id, round__number=seating_round)
        .select_related("entry")
        .order_by()
    )
    done = set(
        CheckIn.objects.filter(
            session=session, round=round_number, entry_id__in=[s.entry_id for s in seats]
        ).values_list("entry_id", flat=True)
    )
    return seats, done
