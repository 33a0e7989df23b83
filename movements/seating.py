"""Reading a session's seating out of the database as plain card data (no writes here)."""

from collections import defaultdict

from events.models import Room, Seat, Session, TablePlay
from movements import cards, engine, planner
from movements.models import Scheme


def set_labeller(session: Session):
    """Set numbers as players read them; with several families of sets (rooms with
    different movements play different boxes) the family letter goes first: A3, B3."""
    families = set(session.board_sets.values_list("family", flat=True))
    if len(families) <= 1:
        return lambda family, number: str(number)
    return lambda family, number: f"{_letter(family)}{number}"


def _letter(family: int) -> str:
    return chr(ord("A") + family - 1) if 1 <= family <= 26 else f"{family}."


def room_label(room: Room) -> str:
    return str(room)


def session_seating(session: Session, *, room: Room | None = None) -> list[cards.RoomSeating]:
    """Every room of the session (or just ``room``) with its rounds, tables, sets, seats."""
    rooms = list(session.rooms.order_by("number")) if room is None else [room]
    ids = [r.pk for r in rooms]
    label = set_labeller(session)
    sets: dict[tuple[int, int, int], tuple[int, str]] = {}
    for room_id, rnd, table, family, number in TablePlay.objects.filter(
        round__room_id__in=ids
    ).values_list(
        "round__room_id", "round__number", "table__number", "board_set__family", "board_set__number"
    ):
        sets[(room_id, rnd, table)] = (number, label(family, number))
    seats: dict[tuple[int, int, int], dict[str, cards.Sitter]] = defaultdict(dict)
    pauses: dict[tuple[int, int], list[cards.Sitter]] = defaultdict(list)
    round_numbers: dict[int, set[int]] = defaultdict(set)
    for room_id, rnd, table, position, participant, entry, last, first in (
        Seat.objects.filter(round__room_id__in=ids)
        .order_by("round__number", "participant")
        .values_list(
            "round__room_id",
            "round__number",
            "table__number",
            "position",
            "participant",
            "entry_id",
            "entry__last_name",
            "entry__first_name",
        )
    ):
        who = cards.Sitter(participant, f"{last} {first}".strip(), entry)
        round_numbers[room_id].add(rnd)
        if table is None:
            pauses[(room_id, rnd)].append(who)
        else:
            seats[(room_id, rnd, table)][position] = who
    tables_of: dict[tuple[int, int], set[int]] = defaultdict(set)
    for room_id, rnd, table in [*sets, *seats]:
        round_numbers[room_id].add(rnd)
        tables_of[(room_id, rnd)].add(table)
    out = []
    for r in rooms:
        rounds = tuple(
            cards.RoomRound(
                number,
                tuple(
                    _table_round(t, sets.get((r.pk, number, t)), seats.get((r.pk, number, t), {}))
                    for t in sorted(tables_of[(r.pk, number)])
                ),
                tuple(pauses.get((r.pk, number), ())),
            )
            for number in sorted(round_numbers[r.pk])
        )
        out.append(
            cards.RoomSeating(
                r.number,
                room_label(r),
                r.kind,
                tuple(sorted({t.table for x in rounds for t in x.tables})),
                cards.positions_used(rounds),
                rounds,
            )
        )
    return out


def _table_round(table: int, board_set, seats: dict) -> cards.TableRound:
    number, label = board_set or (None, "")
    return cards.TableRound(
        table, number, label, {p: seats[p] for p in cards.POSITIONS if p in seats}
    )


# --- the planner, for an event ----------------------------------------------------------


def playing_count(event) -> int:
    return event.entries.active().count()


def event_plan(event, participants: int | None = None) -> dict:
    """The planner's options for the event's playing players, best first, with the
    director's own schemes for that count merged in; ``nearest`` when none seats N."""
    n = playing_count(event) if participants is None else participants
    result = planner.plan(n)
    options = list(result.options)
    for scheme in Scheme.objects.filter(owner=event.owner_id, participants=n).order_by("pk"):
        try:
            schedule = engine.scheme_schedule(scheme.as_scheme())
        except ValueError:  # stored before a rule changed: not offered
            continue
        options.append(planner.option_of([planner.scheme_summary(schedule, scheme.pk)]))
    options.sort(key=lambda o: o.key)
    docs = []
    for index, option in enumerate(options):
        doc = option.as_dict(event.minutes_per_deal)
        doc["index"] = index
        docs.append(doc)
    return {
        "participants": n,
        "options": docs,
        "nearest": [] if docs else list(result.nearest),
    }
