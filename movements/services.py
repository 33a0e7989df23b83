"""Turning a chosen planner option into seating: the only writer of Seat/Set/Deal rows."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from events.models import Entry, Event, Room, Round, Seat, Session, Table
from movements import engine
from scoring import boards
from scoring.models import BoardSet, Deal, TablePlay


def room_schedule(room: dict, rounds: int | None = None) -> engine.Schedule:
    """The engine's schedule for one room of a planner option (kind, tables, seats…)."""
    kind = room.get("kind")
    try:
        if kind == "scheme":
            schedule = engine.builtin_scheme_schedule(int(room["participants"]))
            if rounds is not None:
                if not 1 <= rounds <= schedule.rounds:
                    raise engine.MovementError(
                        f"this scheme has {schedule.rounds} rounds; choose 1–{schedule.rounds}"
                    )
                schedule = _truncated(schedule, rounds)
            return schedule
        if kind in ("prime", "skip"):
            return engine.movement(
                int(room["tables"]), int(room["seats"]), rounds, skip=kind == "skip"
            )
    except (KeyError, TypeError, ValueError) as error:
        raise ValidationError(
            {"option": _("The movement cannot be built: %(why)s") % {"why": error}}
        ) from None
    raise ValidationError({"option": _("Unknown kind of movement «%(kind)s».") % {"kind": kind}})


def _truncated(schedule: engine.Schedule, rounds: int) -> engine.Schedule:
    from dataclasses import replace

    return replace(schedule, rounds=rounds, round_plans=schedule.round_plans[:rounds])


def _entries_by_number(event: Event, participants: int) -> dict[int, Entry]:
    active = list(event.entries.active())
    numbers = sorted(e.number for e in active if e.number is not None)
    if len(active) != participants:
        raise ValidationError(
            _("This movement seats %(want)d participants but %(have)d players are playing.")
            % {"want": participants, "have": len(active)}
        )
    if numbers != list(range(1, participants + 1)):
        raise ValidationError(
            _("Playing players must be numbered 1–%(n)d without gaps: draw the numbers first.")
            % {"n": participants}
        )
    return {e.number: e for e in active}


@transaction.atomic
def session_create(event: Event, option: dict, *, by=None, rounds: int | None = None) -> Session:
    """Rooms, tables, rounds, seats, sets and deals for the chosen option, in one go."""
    Event.objects.select_for_update().get(pk=event.pk)
    rooms = option.get("rooms") or []
    if not rooms:
        raise ValidationError({"option": _("The option has no rooms.")})
    schedules = [room_schedule(room, rounds) for room in rooms]
    participants = sum(s.participants for s in schedules)
    entries = _entries_by_number(event, participants)
    number = (event.sessions.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    session = Session.objects.create(
        event=event, number=number, participants=participants, plan=option, created_by=by
    )
    first = 1
    families: dict[tuple, int] = {}
    shared_sets: dict[int, dict[int, BoardSet]] = {}
    for index, (room_doc, schedule) in enumerate(zip(rooms, schedules, strict=True), start=1):
        # Twin rooms (same movement) play duplicated boxes of one family of sets.
        twin = (
            schedule.kind,
            schedule.tables,
            schedule.seats,
            schedule.participants,
            schedule.rounds,
        )
        family = families.setdefault(twin, len(families) + 1)
        sets = shared_sets.setdefault(family, {})
        _room_create(session, index, room_doc, schedule, first, entries, family, sets)
        first += schedule.participants
    return session


def _room_create(session, number, room_doc, schedule, first, entries, family, sets) -> Room:
    room = Room.objects.create(
        session=session,
        number=number,
        kind=schedule.kind,
        seats=schedule.seats,
        rounds_planned=schedule.rounds,
        first_participant=first,
        participants=schedule.participants,
        scheme=schedule.participants if schedule.kind == "scheme" else None,
        metrics=room_doc.get("metrics") or {},
    )
    players_at: dict[int, int] = {}
    for plan in schedule.round_plans:
        for tp in plan.tables:
            players_at[tp.table] = max(players_at.get(tp.table, 0), len(tp.seats))
    tables = {
        t.number: t
        for t in Table.objects.bulk_create(
            Table(room=room, number=n, seats=players_at[n]) for n in sorted(players_at)
        )
    }
    set_players: dict[int, int] = {}
    for plan in schedule.round_plans:
        for tp in plan.tables:
            set_players.setdefault(tp.set, players_at[tp.table])
    new_sets = BoardSet.objects.bulk_create(
        BoardSet(session=session, family=family, number=n, players=p)
        for n, p in sorted(set_players.items())
        if n not in sets
    )
    sets.update({s.number: s for s in new_sets})
    Deal.objects.bulk_create(
        Deal(
            board_set=board_set,
            number=layout.number,
            dealer=layout.dealer.value if layout.dealer else "",
            first_hand=layout.first_hand.value,
            talon_pocket=layout.talon_pocket.value,
            active_seats="".join(seat.value for seat in layout.active_seats),
        )
        for board_set in new_sets
        for layout in boards.set_layout(board_set.players)
    )
    rounds = {
        r.number: r
        for r in Round.objects.bulk_create(
            Round(room=room, number=plan.number) for plan in schedule.round_plans
        )
    }
    seats, plays = [], []
    for plan in schedule.round_plans:
        rnd = rounds[plan.number]
        for tp in plan.tables:
            plays.append(TablePlay(round=rnd, table=tables[tp.table], board_set=sets[tp.set]))
            for position, p in tp.seats.items():
                who = first + p - 1
                seats.append(
                    Seat(
                        round=rnd,
                        participant=who,
                        entry=entries[who],
                        table=tables[tp.table],
                        position=position,
                    )
                )
        for p in plan.pauses:
            who = first + p - 1
            seats.append(Seat(round=rnd, participant=who, entry=entries[who]))
    Seat.objects.bulk_create(seats)
    TablePlay.objects.bulk_create(plays)
    return room


@transaction.atomic
def seat_substitute(session: Session, *, leaving: Entry, arriving: Entry, from_round: int) -> int:
    """Put ``arriving`` into ``leaving``'s place from round ``from_round`` on.

    Nobody else's seat changes. Returns how many seats changed hands.
    """
    if leaving.event_id != session.event_id or arriving.event_id != session.event_id:
        raise ValidationError(_("Both players must be entered in this event."))
    if leaving.pk == arriving.pk:
        raise ValidationError({"arriving": _("A player cannot replace himself.")})
    if from_round < 1:
        raise ValidationError({"from_round": _("Rounds are numbered from 1.")})
    seats = Seat.objects.filter(
        round__room__session=session, entry=leaving, round__number__gte=from_round
    )
    busy = Seat.objects.filter(
        round__room__session=session, entry=arriving, round__number__gte=from_round
    )
    if busy.exists():
        raise ValidationError(
            {
                "arriving": _(
                    "%(name)s already has a seat in this session from round %(round)d on."
                )
                % {"name": arriving.full_name, "round": from_round}
            }
        )
    changed = seats.update(entry=arriving)
    if not changed:
        raise ValidationError(
            {
                "leaving": _("%(name)s has no seat in this session from round %(round)d on.")
                % {"name": leaving.full_name, "round": from_round}
            }
        )
    if arriving.status != Entry.Status.ACTIVE:
        arriving.status = Entry.Status.ACTIVE
        arriving.save(update_fields=["status"])
    return changed
