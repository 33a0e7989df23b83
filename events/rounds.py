"""The round lifecycle and its clock: every state change of a Round goes through here.

Director actions lock the round row; timer tasks never lock and never trust their own
arguments: a conditional UPDATE on the round's state and end instant decides who fires,
so a late, duplicated or stale task (after a pause or an extension) changes nothing.
"""

import logging
import threading
from dataclasses import dataclass
from datetime import timedelta

from celery import current_app
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Case, F, IntegerField, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from events import clock, signals
from events.actionlog import log_action
from events.models import Announcement, Round, Seat, TablePlay

State = Round.State

logger = logging.getLogger(__name__)


def round_length(rnd: Round) -> timedelta:
    room = rnd.room
    return clock.round_length(
        deals=room.seats,
        minutes_per_deal=room.session.event.minutes_per_deal,
        session_seconds=room.session.round_seconds,
        round_seconds=rnd.length_seconds,
    )


def round_remaining(rnd: Round, now=None) -> timedelta:
    return clock.remaining(
        rnd.state,
        ends_at=rnd.ends_at,
        paused_remaining=rnd.paused_remaining,
        now=now or timezone.now(),
        length=round_length(rnd),
    )


def _locked(rnd: Round) -> Round:
    return Round.objects.select_for_update().select_related("room__session__event").get(pk=rnd.pk)


def _schedule_timers(rnd: Round) -> None:
    """Queue the end (and warning) tasks after commit; stale ones will find nothing to do.
    By name (events.tasks calls this module; this module does not import the tasks)."""
    ends_at = rnd.ends_at
    warning = clock.warning_at(ends_at, rnd.room.session.event.warning_minutes)
    pk = rnd.pk

    def queue():
        current_app.send_task("events.round_end_due", args=(pk,), eta=ends_at)
        if warning is not None and rnd.warned_at is None and warning > timezone.now():
            current_app.send_task("events.round_warning_due", args=(pk,), eta=warning)

    _queue_after_commit(queue, f"the timers of round {pk}")


_unqueued = threading.local()


def _queue_after_commit(queue, what: str) -> None:
    """Hand timer tasks to the broker once the change is committed. A broker that cannot
    take them neither undoes the change nor turns it into an error page: the round's end
    still comes — from the first read of the room's clock after its time
    (``events.clockdoc``) or the worker's sweep once the broker is back — and
    :func:`timers_unqueued` tells the director's page to say so."""

    def guarded():
        try:
            queue()
        except Exception:
            logger.warning("could not queue %s: the broker does not answer", what, exc_info=True)
            _unqueued.happened = True

    transaction.on_commit(guarded)


def timers_unqueued() -> bool:
    """Whether a timer task of this thread's changes since the last call could not be
    queued (the broker is down); the answer is cleared by asking."""
    happened = getattr(_unqueued, "happened", False)
    _unqueued.happened = False
    return happened


def _clock_changed(room_id: int) -> None:
    """The room's clock changed: its clock documents and console are stale (events.clockdoc
    hears it and rebuilds them after commit; it reads the rounds through this module, so it
    is told by a signal, not called)."""
    signals.clock_changed.send(sender=Round, room_id=room_id)


def _announce(rnd: Round, kind: str, now, *, due_at=None, **data) -> Announcement:
    """Every change of a round's clock is announced: so it is also where the clock documents
    learn of it (start, pause, resume, adjust, end, warning, auto-start)."""
    _clock_changed(rnd.room_id)
    return Announcement.objects.create(
        room_id=rnd.room_id, round=rnd, kind=kind, data=data, due_at=due_at, fired_at=now
    )


def _log(rnd: Round, by_user, kind: str, before=None, **after) -> None:
    """The event's log line of a director's change of the round's clock (issue 34)."""
    log_action(
        rnd.room.session.event,
        by_user,
        kind,
        room=rnd.room,
        before={"round": rnd.number, **before} if before is not None else None,
        after={"round": rnd.number, **after},
    )


@transaction.atomic
def round_start(rnd: Round, *, length_seconds: int | None = None, by_user=None) -> Round:
    """«Начало тура!»: the round runs; the previous one of the room must be over. The
    director's action (``by_user``: who), so it is written in the event's log."""
    rnd = _start(rnd, length_seconds=length_seconds)
    _log(rnd, by_user, "round.start", length_seconds=int(round_length(rnd).total_seconds()))
    return rnd


def _start(rnd: Round, *, length_seconds: int | None = None) -> Round:
    rnd = _locked(rnd)
    if rnd.state != State.PENDING:
        raise ValidationError(_("Round %(n)d has already started.") % {"n": rnd.number})
    busy = rnd.room.rounds.exclude(pk=rnd.pk).on_clock().first()
    if busy:
        raise ValidationError(
            _("Round %(n)d is still on the clock: end it first.") % {"n": busy.number}
        )
    if rnd.room.rounds.filter(number__lt=rnd.number).exclude(state=State.FINISHED).exists():
        raise ValidationError(_("Earlier rounds of this room have not been played yet."))
    if length_seconds is not None:
        if not 1 <= length_seconds <= 4 * 3600:
            raise ValidationError({"length": _("A round lasts from 1 second to 4 hours.")})
        rnd.length_seconds = length_seconds
    now = timezone.now()
    rnd.state = State.RUNNING
    rnd.started_at = now
    rnd.ends_at = now + round_length(rnd)
    rnd.paused_remaining = None
    rnd.auto_start_at = None
    rnd.save()
    _announce(
        rnd, Announcement.Kind.START, now, length_seconds=int(round_length(rnd).total_seconds())
    )
    _schedule_timers(rnd)
    return rnd


def room_next_round(room) -> Round | None:
    return room.rounds.filter(state=State.PENDING).order_by("number").first()


def room_current_round(room) -> Round | None:
    """``clock.current_round`` of the room's rounds in one query that reads one row (the
    table's phone asks it on every page; a room may have a hundred rounds): the round on
    the clock, else the latest finished, else the first."""
    rank = Case(
        When(state__in=clock.ON_CLOCK, then=Value(0)),
        When(state=State.FINISHED, then=Value(1)),
        default=Value(2),
    )
    order = Case(
        When(state=State.FINISHED, then=-F("number")),
        default=F("number"),
        output_field=IntegerField(),
    )
    rnd = room.rounds.annotate(current_rank=rank, current_order=order)
    rnd = rnd.order_by("current_rank", "current_order").first()
    if rnd is not None:
        following = room.rounds.filter(number__gt=rnd.number).order_by("number").first()
        rnd.following_round = following  # who may still write a finished round asks it
    return rnd


def room_round(room, number: int) -> Round | None:
    """The room's round ``number`` (None if it has none), with its following round (who may
    still write a finished round's sheets asks it), both in one plain query."""
    found = list(room.rounds.filter(number__gte=number).order_by("number")[:2])
    if not found or found[0].number != number:
        return None
    rnd = found[0]
    rnd.following_round = found[1] if len(found) > 1 else None
    return rnd


@dataclass(frozen=True)
class RoomStart:
    """What «start the next round in every room» did in one room: ``started``, ``running``
    (a round is already on the clock: left alone), ``done`` (every round played) or
    ``refused`` (``message`` says why)."""

    room: object
    outcome: str
    round: int | None = None
    message: str = ""


@transaction.atomic
def session_start_rounds(
    session, *, length_seconds: int | None = None, by_user=None
) -> list[RoomStart]:
    """«Начало тура!» in every room of the session at once: each room's next round starts
    through :func:`round_start`. A room whose round is already on the clock, or that has
    played every round, is reported and left alone; a refusal in one room (its savepoint is
    rolled back) does not stop the others."""
    if length_seconds is not None and not 1 <= length_seconds <= 4 * 3600:
        raise ValidationError({"length": _("A round lasts from 1 second to 4 hours.")})
    done = []
    for room in session.rooms.select_related("session__event").order_by("number"):
        on_clock = room.rounds.on_clock().first()
        if on_clock is not None:
            done.append(RoomStart(room, "running", on_clock.number))
            continue
        following = room_next_round(room)
        if following is None:
            done.append(RoomStart(room, "done"))
            continue
        try:
            with transaction.atomic():
                round_start(following, length_seconds=length_seconds, by_user=by_user)
        except ValidationError as error:
            # Another director may have started it a moment ago: that is «running», not a fault.
            started = room.rounds.on_clock().first()
            if started is not None:
                done.append(RoomStart(room, "running", started.number))
            else:
                message = " ".join(error.messages)
                done.append(RoomStart(room, "refused", following.number, message))
        else:
            done.append(RoomStart(room, "started", following.number))
    return done


@transaction.atomic
def round_pause(rnd: Round, *, by_user=None) -> Round:
    rnd = _locked(rnd)
    now = timezone.now()
    if rnd.state != State.RUNNING or rnd.ends_at <= now:
        raise ValidationError(_("Only a running round can be paused."))
    rnd.state = State.PAUSED
    rnd.paused_remaining = rnd.ends_at - now
    rnd.ends_at = None
    rnd.save()
    _announce(
        rnd,
        Announcement.Kind.PAUSE,
        now,
        remaining_seconds=int(rnd.paused_remaining.total_seconds()),
    )
    _log(
        rnd,
        by_user,
        "round.pause",
        {"state": State.RUNNING},
        state=State.PAUSED,
        remaining_seconds=int(rnd.paused_remaining.total_seconds()),
    )
    return rnd


@transaction.atomic
def round_resume(rnd: Round, *, by_user=None) -> Round:
    rnd = _locked(rnd)
    if rnd.state != State.PAUSED:
        raise ValidationError(_("Only a paused round can be resumed."))
    now = timezone.now()
    rnd.state = State.RUNNING
    rnd.ends_at = now + rnd.paused_remaining
    rnd.paused_remaining = None
    rnd.save()
    _announce(
        rnd,
        Announcement.Kind.RESUME,
        now,
        remaining_seconds=int((rnd.ends_at - now).total_seconds()),
    )
    _log(
        rnd,
        by_user,
        "round.resume",
        {"state": State.PAUSED},
        state=State.RUNNING,
        remaining_seconds=int((rnd.ends_at - now).total_seconds()),
    )
    _schedule_timers(rnd)
    return rnd


@transaction.atomic
def round_adjust(rnd: Round, *, seconds: int, by_user=None) -> Round:
    """Add (or, negative, take off) time; the round never ends in the past because of it."""
    rnd = _locked(rnd)
    if not seconds or abs(seconds) > 4 * 3600:
        raise ValidationError({"seconds": _("Add or take off between 1 second and 4 hours.")})
    now = timezone.now()
    delta = timedelta(seconds=seconds)
    warning = timedelta(minutes=rnd.room.session.event.warning_minutes)
    if rnd.state == State.RUNNING:
        was = rnd.ends_at - now
        rnd.ends_at = max(rnd.ends_at + delta, now + timedelta(seconds=1))
        left = rnd.ends_at - now
    elif rnd.state == State.PAUSED:
        was = rnd.paused_remaining
        rnd.paused_remaining = max(rnd.paused_remaining + delta, timedelta(seconds=1))
        left = rnd.paused_remaining
    else:
        raise ValidationError(_("Time can be changed only while the round is on the clock."))
    if rnd.warned_at and left > warning:
        rnd.warned_at = None  # the warning will be given again at its new time
    rnd.save()
    _announce(
        rnd,
        Announcement.Kind.CHANGE,
        now,
        seconds=seconds,
        remaining_seconds=int(left.total_seconds()),
    )
    _log(
        rnd,
        by_user,
        "round.extend",
        {"remaining_seconds": max(0, int(was.total_seconds()))},
        remaining_seconds=int(left.total_seconds()),
        seconds=seconds,
    )
    if rnd.state == State.RUNNING:
        _schedule_timers(rnd)
    return rnd


@transaction.atomic
def round_end_now(rnd: Round, *, by_user=None) -> Round:
    """The director ends the round at once («Конец тура!» now)."""
    rnd = _locked(rnd)
    if not rnd.is_on_clock:
        raise ValidationError(_("Only a round on the clock can be ended."))
    now = timezone.now()
    before = {
        "state": rnd.state,
        "remaining_seconds": int(round_remaining(rnd, now).total_seconds()),
    }
    Round.objects.filter(pk=rnd.pk).update(state=State.RUNNING, ends_at=now, paused_remaining=None)
    if not round_fire_end(rnd.pk, now=now):
        raise ValidationError(_("The round has already ended."))
    _log(rnd, by_user, "round.end", before, state=State.FINISHED)  # its room as read
    rnd.refresh_from_db()
    return rnd


# --- what the timers call -------------------------------------------------------------


def round_fire_end(round_id: int, *, now=None) -> bool:
    """«Конец тура!» if the round is due; True only for the one caller that fired it."""
    now = now or timezone.now()
    with transaction.atomic():
        fired = Round.objects.filter(pk=round_id, state=State.RUNNING, ends_at__lte=now).update(
            state=State.FINISHED, ended_at=now
        )
        if not fired:
            return False
        rnd = Round.objects.select_related("room__session__event").get(pk=round_id)
        try:
            with transaction.atomic():
                _announce(rnd, Announcement.Kind.END, now, due_at=rnd.ends_at, **end_moves(rnd))
        except IntegrityError:
            return False
        _after_end(rnd, now)
    return True


def room_fire_overdue(room_id: int, *, now=None) -> bool:
    """«Конец тура!» for the room's running round if its time is up (the clock read finds it
    overdue: its timer task and the sweep may both be late, the broker down). The same
    conditional update as the timer's, so it still fires exactly once."""
    now = now or timezone.now()
    due = (
        Round.objects.filter(room_id=room_id, state=State.RUNNING, ends_at__lte=now)
        .values_list("pk", flat=True)
        .order_by()
        .first()
    )
    return due is not None and round_fire_end(due, now=now)


def _after_end(rnd: Round, now) -> None:
    signals.round_ended.send(sender=Round, round=rnd)  # the scoring side marks late tables
    changeover = rnd.room.session.event.changeover_minutes
    following = room_next_round(rnd.room)
    if changeover and following is not None:
        at = now + timedelta(minutes=changeover)
        Round.objects.filter(pk=following.pk).update(auto_start_at=at)
        _queue_after_commit(
            lambda: current_app.send_task("events.round_start_due", args=(following.pk,), eta=at),
            f"the automatic start of round {following.pk}",
        )


def round_fire_warning(round_id: int, *, now=None) -> bool:
    now = now or timezone.now()
    rnd = (
        Round.objects.select_related("room__session__event").filter(pk=round_id).order_by().first()
    )
    if rnd is None or not rnd.room.session.event.warning_minutes:
        return False
    window = timedelta(minutes=rnd.room.session.event.warning_minutes)
    with transaction.atomic():
        fired = Round.objects.filter(
            pk=round_id,
            state=State.RUNNING,
            warned_at__isnull=True,
            ends_at__gt=now,
            ends_at__lte=now + window,
            # A round no longer than the warning window gets no warning: it would only
            # drown «Начало тура!» at once.
            started_at__lt=F("ends_at") - window,
        ).update(warned_at=now)
        if fired:
            rnd.refresh_from_db()
            minutes = max(1, round((rnd.ends_at - now).total_seconds() / 60))
            _announce(
                rnd, Announcement.Kind.WARNING, now, due_at=rnd.ends_at - window, minutes=minutes
            )
    return bool(fired)


def round_fire_auto_start(round_id: int, *, now=None) -> bool:
    now = now or timezone.now()
    claimed = Round.objects.filter(
        pk=round_id, state=State.PENDING, auto_start_at__isnull=False, auto_start_at__lte=now
    ).update(auto_start_at=None)
    if not claimed:
        return False
    rnd = Round.objects.get(pk=round_id)
    try:
        with transaction.atomic():
            _start(rnd)  # the clock's own start: no director's action, no log line
    except ValidationError:
        _clock_changed(rnd.room_id)  # refused: still, no automatic start is due any more
        return False
    return True


def clock_sweep(now=None) -> dict:
    """Fire whatever is overdue (after a worker or broker restart nothing is lost)."""
    now = now or timezone.now()
    done = {"end": 0, "warning": 0, "start": 0}
    for pk in Round.objects.filter(state=State.RUNNING, ends_at__lte=now).values_list(
        "pk", flat=True
    ):
        done["end"] += round_fire_end(pk, now=now)
    running = Round.objects.filter(state=State.RUNNING, warned_at__isnull=True, ends_at__gt=now)
    for rnd in running.select_related("room__session__event"):
        minutes = rnd.room.session.event.warning_minutes
        if minutes and rnd.ends_at - timedelta(minutes=minutes) <= now:
            done["warning"] += round_fire_warning(rnd.pk, now=now)
    due = Round.objects.filter(state=State.PENDING, auto_start_at__lte=now)
    for pk in due.values_list("pk", flat=True):
        done["start"] += round_fire_auto_start(pk, now=now)
    return done


# --- what «Конец тура!» tells -----------------------------------------------------------


def end_moves(rnd: Round) -> dict:
    """Each line's move (when lines move as blocks) and where each table's set goes."""
    following = rnd.room.rounds.filter(number=rnd.number + 1).order_by().first()
    if following is None:
        return {"round": rnd.number, "last": True}
    seats = {}
    for seat in Seat.objects.filter(round__in=[rnd, following], table__isnull=False).select_related(
        "table"
    ):
        seats.setdefault(seat.round_id, {})[seat.participant] = (seat.table.number, seat.position)
    sets = {}
    for play in TablePlay.objects.filter(round__in=[rnd, following]).select_related(
        "table", "board_set"
    ):
        sets.setdefault(play.round_id, {})[play.table.number] = play.board_set.number
    tables = rnd.room.tables.count()
    lines = clock.line_moves(seats.get(rnd.pk, {}), seats.get(following.pk, {}), tables)
    destinations = clock.set_destinations(sets.get(rnd.pk, {}), sets.get(following.pk, {}))
    return {
        "round": rnd.number,
        "next_round": following.number,
        "lines": None if lines is None else [{"line": m.line, "tables": m.tables} for m in lines],
        "sets": {str(t): d for t, d in destinations.items()},
    }
