"""Turning a chosen planner option into seating: the only writer of Seat/Set/Deal rows."""

import contextlib
from dataclasses import dataclass, replace

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from events import boards, checkin, clockdoc
from events import dealing as deal_cards
from events import rounds as round_clock
from events.actionlog import log_action
from events.models import (
    BoardSet,
    Deal,
    Entry,
    Event,
    Room,
    Round,
    Seat,
    Session,
    Substitution,
    Table,
    TablePlay,
)
from movements import engine, meanwhile, planner, schemes, seating, signals
from movements.models import Scheme

MAX_ROOMS = 8
MAX_SCHEME_PARTICIPANTS = 200


def room_schedule(
    room: dict, rounds: int | None = None, *, scheme: dict | None = None
) -> engine.Schedule:
    """The engine's schedule for one room of a planner option (kind, tables, seats…).

    ``scheme``: the routes of a director's own scheme, for a room that names one.
    """
    kind = room.get("kind")
    try:
        if kind == "scheme":
            if scheme is not None:
                schedule = engine.scheme_schedule(scheme)
            else:
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
    return replace(schedule, rounds=rounds, round_plans=schedule.round_plans[:rounds])


def _entries_by_number(event: Event, participants: int, *, later: bool = False) -> list[Entry]:
    """The playing entries in participant order (participant k = the k-th).

    The first session needs numbers 1…n without gaps (the draw gives them). A later session
    seats whoever plays now (docs/game.md §6.4): withdrawn and replaced players are out, late
    arrivals in, in number order (the unnumbered last), gaps and all.
    """
    playing = seating.playing_in_order(event)
    if len(playing) != participants:
        raise ValidationError(
            _("This movement seats %(want)d participants but %(have)d players are playing.")
            % {"want": participants, "have": len(playing)}
        )
    numbers = [e.number for e in playing]
    if not later and numbers != list(range(1, participants + 1)):
        raise ValidationError(
            _("Playing players must be numbered 1–%(n)d without gaps: draw the numbers first.")
            % {"n": participants}
        )
    return playing


def _listed_entries(rooms: list[dict], sizes: list[int], playing: list[Entry]):
    """Each room's own players, when the option lists them (``"entries"``: entry ids in
    participant order, as the planner's «by lines» options do); None when no room does."""
    listed = [room.get("entries") for room in rooms]
    if all(ids is None for ids in listed):
        return None
    by_pk = {e.pk: e for e in playing}
    seen: set[int] = set()
    out = []
    for index, (ids, size) in enumerate(zip(listed, sizes, strict=True), start=1):
        if not isinstance(ids, list) or not all(
            isinstance(pk, int) and not isinstance(pk, bool) for pk in ids
        ):
            raise _option_error(
                index, _("list the room's players as entry ids, or no room's players at all")
            )
        if len(ids) != size:
            raise _option_error(
                index,
                _("%(listed)d players are listed but the room seats %(size)d")
                % {"listed": len(ids), "size": size},
            )
        for pk in ids:
            if pk not in by_pk:
                raise _option_error(
                    index, _("player %(id)d is not playing in this event") % {"id": pk}
                )
            if pk in seen:
                raise _option_error(
                    index, _("%(name)s is listed twice") % {"name": by_pk[pk].full_name}
                )
            seen.add(pk)
        out.append([by_pk[pk] for pk in ids])
    return out


def _option_error(index: int, why) -> ValidationError:
    return ValidationError({"option": _("Room %(room)d: %(why)s") % {"room": index, "why": why}})


def _room_docs(option) -> list[dict]:
    rooms = option.get("rooms") if isinstance(option, dict) else None
    if not rooms:
        raise ValidationError({"option": _("The option has no rooms.")})
    if not isinstance(rooms, list) or len(rooms) > MAX_ROOMS:
        raise ValidationError(
            {"option": _("An option is a list of 1–%(max)d rooms.") % {"max": MAX_ROOMS}}
        )
    for index, room in enumerate(rooms, start=1):
        if not isinstance(room, dict):
            raise _option_error(index, _("a room must be an object with kind, tables and seats"))
    return rooms


def _own_schemes(event: Event, rooms: list[dict]) -> dict[int, Scheme]:
    """The director's own schemes the option names; another director's are unknown here."""
    wanted = {}
    for index, room in enumerate(rooms, start=1):
        if room.get("kind") == "scheme" and room.get("scheme_id") is not None:
            try:
                wanted[index] = int(room["scheme_id"])
            except (TypeError, ValueError):
                raise _option_error(index, _("unknown movement scheme")) from None
    found = Scheme.objects.filter(owner=event.owner_id, pk__in=wanted.values()).in_bulk()
    out = {}
    for index, pk in wanted.items():
        if pk not in found:
            raise _option_error(index, _("unknown movement scheme"))
        out[index] = found[pk]
    return out


def _room_size(index: int, room: dict, scheme: Scheme | None) -> int:
    """Participants a room seats, from its shape alone (before anything is built)."""
    if room.get("kind") not in engine.KINDS:
        raise _option_error(
            index,
            _("unknown kind of movement «%(kind)s»: use prime, skip or scheme")
            % {"kind": room.get("kind")},
        )
    try:
        if scheme is not None:
            return scheme.participants
        if room.get("kind") == "scheme":
            return int(room["participants"])
        return int(room["tables"]) * int(room["seats"])
    except (KeyError, TypeError, ValueError):
        raise _option_error(
            index, _("give the kind and the tables and seats (a scheme: participants)")
        ) from None


def _summary(index: int, room: dict, scheme: Scheme | None) -> planner.RoomSummary:
    try:
        if scheme is not None:
            return planner.scheme_summary(engine.scheme_schedule(scheme.as_scheme()), scheme.pk)
        return planner.room_from_dict(room)
    except ValueError as error:  # MovementError, SchemeInvalid
        raise _option_error(index, error) from None


def next_session_number(event: Event) -> int:
    last = event.sessions.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


@transaction.atomic
def session_create(
    event: Event,
    option: dict,
    *,
    by=None,
    rounds: int | None = None,
    number: int | None = None,
    dealing: str = "",
) -> Session:
    """Rooms, tables, rounds, seats, sets and deals for the chosen option, in one go.

    ``option`` names rooms as the planner does (``plan(n).as_dict()["options"][i]``); the
    figures stored with the session are recomputed, never taken from the caller.
    ``rounds`` stops every room after that many rounds (announced before the session).
    ``number``: the session the caller means to create; when another one took that number
    meanwhile (a second click, a second tab), nothing is created.
    ``dealing="app"``: every deal is dealt from a fresh seed (``events.dealing``) in the
    same transaction.
    """
    if dealing not in Session.Dealing.values:
        raise ValidationError({"dealing": _("Choose who deals the boxes: by hand or the app.")})
    Event.objects.select_for_update().get(pk=event.pk)
    expected = next_session_number(event)
    if number is not None and number < expected:
        raise ValidationError(
            {
                "number": _("Session %(number)d of this event already exists; nothing was created.")
                % {"number": number}
                + meanwhile.session_author(event, number)
            }
        )
    if number is not None and number > expected:
        raise ValidationError(
            {
                "number": _("The next session of this event is session %(number)d.")
                % {"number": expected}
            }
        )
    rooms = _room_docs(option)
    own = _own_schemes(event, rooms)
    sizes = [_room_size(i, room, own.get(i)) for i, room in enumerate(rooms, start=1)]
    playing = _entries_by_number(event, sum(sizes), later=expected > 1)
    listed = _listed_entries(rooms, sizes, playing)
    summaries = [_summary(i, room, own.get(i)) for i, room in enumerate(rooms, start=1)]
    if rounds is not None:
        most = min(s.rounds for s in summaries)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= most:
            raise ValidationError(
                {
                    "rounds": _(
                        "Choose 1–%(max)d rounds for this option (a full session is %(full)s)."
                    )
                    % {"max": most, "full": _full_rounds(summaries)}
                }
            )
    plan = planner.option_of(summaries).as_dict(event.minutes_per_deal)
    schedules = []
    for i, room_doc in enumerate(plan["rooms"], start=1):
        scheme = own.get(i)
        if scheme is not None:
            room_doc["scheme"] = scheme.as_scheme()
        schedules.append(
            room_schedule(room_doc, rounds, scheme=scheme.as_scheme() if scheme else None)
        )
    if rounds is not None:
        plan["rounds"] = rounds
    # Session-wide participant numbers: room i seats first…first + size − 1 (as on the cards).
    entries: dict[int, Entry] = {}
    first = 1
    for i, size in enumerate(sizes):
        members = listed[i] if listed is not None else playing[first - 1 : first - 1 + size]
        entries.update({first + k: entry for k, entry in enumerate(members)})
        if listed is not None:
            plan["rooms"][i]["entries"] = [e.pk for e in members]
            lines = rooms[i].get("lines")
            if isinstance(lines, list) and all(line in Seat.Position.values for line in lines):
                plan["rooms"][i]["lines"] = lines
        first += size
    if listed is not None:
        plan["by_lines"] = any("lines" in room for room in plan["rooms"])
    session = Session.objects.create(
        event=event,
        number=expected,
        participants=sum(s.participants for s in schedules),
        plan=plan,
        created_by=by,
    )
    first = 1
    # Twin rooms (same movement) play duplicated boxes of one family of sets; with several
    # families each set's label carries its family's letter (events.boards.deal_label).
    twins = [
        (
            schedule.kind,
            schedule.tables,
            schedule.seats,
            schedule.participants,
            schedule.rounds,
            room_doc.get("scheme_id"),
        )
        for room_doc, schedule in zip(plan["rooms"], schedules, strict=True)
    ]
    families: dict[tuple, int] = {}
    for twin in twins:
        families.setdefault(twin, len(families) + 1)
    shared_sets: dict[int, dict[int, BoardSet]] = {}
    for index, (room_doc, schedule, twin) in enumerate(
        zip(plan["rooms"], schedules, twins, strict=True), 1
    ):
        family = families[twin]
        sets = shared_sets.setdefault(family, {})
        letter = boards.family_letter(family, families=len(families))
        _room_create(session, index, room_doc, schedule, first, entries, family, letter, sets)
        first += schedule.participants
    if dealing == Session.Dealing.APP:
        deal_cards.session_deal(session)
    log_action(
        event,
        by,
        "seating.change",
        after={"session": session.number, "rooms": len(plan["rooms"]), "rounds": rounds},
    )
    clockdoc.setup_changed()  # new rooms, and the players' phones now show them
    return session


def _full_rounds(summaries) -> str:
    return " / ".join(str(r) for r in dict.fromkeys(s.rounds for s in summaries))


def _room_create(session, number, room_doc, schedule, first, entries, family, letter, sets) -> Room:
    room = Room.objects.create(
        session=session,
        number=number,
        kind=schedule.kind,
        seats=schedule.seats,
        rounds_planned=schedule.rounds,
        first_participant=first,
        participants=schedule.participants,
        scheme=schedule.participants if schedule.kind == "scheme" else None,
        # The figures of the session as it will be played (fewer rounds change them).
        metrics=engine.metrics(schedule),
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
        BoardSet(session=session, family=family, letter=letter, number=n, players=p)
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
def seat_substitute(
    session: Session,
    *,
    leaving: Entry,
    arriving: Entry,
    from_round: int,
    by=None,
    expected=None,
) -> int:
    """Put ``arriving`` into ``leaving``'s place from round ``from_round`` on.

    The substitute plays under the participant's number for the rest of the session: the
    seats of that number from the round on change hands (nobody else's seat changes), the
    substitute takes the number, and the replaced player keeps it only for the record (status
    «replaced»: out of the next session's planning). The standing belongs to the number.
    Returns how many seats changed hands. ``expected``: the session's latest substitution
    the writer's page showed (``movements.meanwhile``); one of these players or numbers made
    since refuses this one.
    """
    Event.objects.select_for_update().get(pk=session.event_id)
    leaving = Entry.objects.get(pk=leaving.pk)
    arriving = Entry.objects.get(pk=arriving.pk)
    meanwhile.check_substitution(session, expected, [leaving, arriving])
    if leaving.event_id != session.event_id or arriving.event_id != session.event_id:
        raise ValidationError(_("Both players must be entered in this event."))
    if leaving.pk == arriving.pk:
        raise ValidationError({"arriving": _("A player cannot replace himself.")})
    if from_round < 1:
        raise ValidationError({"from_round": _("Rounds are numbered from 1.")})
    in_session = Seat.objects.filter(round__room__session=session)
    seats = in_session.filter(entry=leaving, round__number__gte=from_round)
    numbers = set(seats.values_list("participant", flat=True))
    if not numbers:
        raise ValidationError(
            {
                "leaving": _("%(name)s has no seat in this session from round %(round)d on.")
                % {"name": leaving.full_name, "round": from_round}
            }
        )
    (seat_number,) = numbers  # one player, one seat number a session: seat_substitute keeps it so
    # The number the substitute takes is the player's own (the standing's): from session 2 on
    # the seat numbers of a session run 1…n per session and may differ from it (§6.4).
    number = leaving.number if leaving.number is not None else seat_number
    if in_session.filter(entry=arriving, round__number__gte=from_round).exists():
        raise ValidationError(
            {
                "arriving": _(
                    "%(name)s already has a seat in this session from round %(round)d on."
                )
                % {"name": arriving.full_name, "round": from_round}
            }
        )
    other = (
        arriving.number
        if arriving.number is not None
        and arriving.number != number
        and Seat.objects.filter(
            entry=arriving, round__room__session__event=session.event_id
        ).exists()
        else None
    )
    if other is not None:
        raise ValidationError(
            {
                "arriving": _(
                    "%(name)s plays as participant %(other)d; a substitute takes the number "
                    "%(number)d and cannot hold two numbers."
                )
                % {"name": arriving.full_name, "other": other, "number": number}
            }
        )
    changed = seats.update(entry=arriving)
    # The number passes to the substitute; the replaced player keeps it for the record, so
    # that his own page and the standing still show whose results came before.
    leaving.status = Entry.Status.REPLACED
    leaving.save(update_fields=["status"])
    arriving.number = number
    arriving.status = Entry.Status.ACTIVE
    arriving.save(update_fields=["number", "status"])
    Substitution.objects.create(
        session=session,
        number=number,
        from_round=from_round,
        leaving=leaving,
        arriving=arriving,
        made_by=by,
    )
    log_action(
        session.event,
        by,
        "substitution",
        before={"session": session.number, "player": number, "name": leaving.full_name},
        after={
            "session": session.number,
            "player": number,
            "name": arriving.full_name,
            "from_round": from_round,
            "seats": changed,
        },
    )
    # Results already recorded in those rounds now belong to the substitute (the scoring
    # side recomputes the standings).
    signals.seats_changed_hands.send(sender=Session, session=session)
    clockdoc.setup_changed()  # the seats changed hands: the phones find their rooms again
    return changed


def substitution_text(*, arriving: Entry, leaving: Entry, from_round: int, changed: int) -> str:
    """What a director reads once a substitute is seated (the session's page and the room's
    «Явка» alike). ``arriving`` as saved: he holds the participant's number now."""
    return ngettext(
        "%(arriving)s plays as participant %(number)d in place of %(leaving)s "
        "from round %(round)d (%(count)d seat).",
        "%(arriving)s plays as participant %(number)d in place of %(leaving)s "
        "from round %(round)d (%(count)d seats).",
        changed,
    ) % {
        "arriving": arriving.full_name,
        "leaving": leaving.full_name,
        "number": arriving.number or 0,
        "round": from_round,
        "count": changed,
    }


@dataclass(frozen=True)
class SubstitutePresent:
    """A substitute seated from a missing player's row: how many seats, from which round."""

    changed: int
    from_round: int
    arriving: Entry


@transaction.atomic
def seat_substitute_present(
    room: Room, *, leaving: Entry, arriving: Entry, checkin_round: int | None, by=None
) -> SubstitutePresent:
    """«Посадить замену» from the room's check-in (issue 34): ``arriving`` takes ``leaving``'s
    seats from the room's next round not started (``seat_substitute``), and — he is in the
    hall — is checked in for the check-in the room asks now (``checkin_round``; None: none
    asked). Both or neither. A check-in with no seat of his (before a round already begun)
    is not marked: the seating stands."""
    upcoming = round_clock.room_next_round(room)
    if upcoming is None:
        raise ValidationError(_("Every round of this room has started: no substitute now."))
    changed = seat_substitute(
        room.session, leaving=leaving, arriving=arriving, from_round=upcoming.number, by=by
    )
    arriving = Entry.objects.get(pk=arriving.pk)
    if checkin_round is not None:
        with contextlib.suppress(ValidationError):
            checkin.checkin_mark(room.session, arriving, round=checkin_round, by=by)
    return SubstitutePresent(changed=changed, from_round=upcoming.number, arriving=arriving)


# --- directors' own schemes -------------------------------------------------------------


def scheme_error_text(error: schemes.SchemeError) -> str:
    """The validator words every rule in Russian and English; speak the reader's language."""
    return error.message_en if (get_language() or "").startswith("en") else error.message


@transaction.atomic
def scheme_create(owner, *, name: str, data: dict) -> Scheme:
    """Store a director's own special scheme once the validator finds nothing wrong.

    Every broken rule is reported at once, each naming its round and seat where it can.
    """
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": _("The name cannot be empty.")})
    if _scheme_size(data) > MAX_SCHEME_PARTICIPANTS:
        raise ValidationError(
            {
                "data": _("A scheme seats at most %(max)d participants.")
                % {"max": MAX_SCHEME_PARTICIPANTS}
            }
        )
    errors = schemes.validate_scheme(data)
    if errors:
        raise ValidationError({"data": [scheme_error_text(e) for e in errors]})
    schedule = engine.scheme_schedule(data)
    return Scheme.objects.create(
        owner=owner,
        name=name,
        participants=schedule.participants,
        data={"groups": data["groups"], "set_groups": data["set_groups"]},
    )


def _scheme_size(data) -> int:
    """Route steps and fixed seats, counted before the validator walks every round."""
    groups = data.get("groups") if isinstance(data, dict) else None
    if not isinstance(groups, list):
        return 0
    size = 0
    for group in groups:
        if isinstance(group, dict):
            route, fixed = group.get("route"), group.get("fixed")
            size += len(route) if isinstance(route, list) else 0
            size += len(fixed) if isinstance(fixed, dict) else 0
    return size
