"""Reading a session's seating out of the database as plain card data (no writes here)."""

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _

from events.boards import set_label
from events.models import Room, Seat, Session, TablePlay
from movements import cards, engine, meetings, planner
from movements.models import Scheme


def room_label(room: Room) -> str:
    return str(room)


def session_seating(session: Session, *, room: Room | None = None) -> list[cards.RoomSeating]:
    """Every room of the session (or just ``room``) with its rounds, tables, sets, seats."""
    rooms = list(session.rooms.order_by("number")) if room is None else [room]
    ids = [r.pk for r in rooms]
    sets: dict[tuple[int, int, int], tuple[int, str]] = {}
    for room_id, rnd, table, letter, number in TablePlay.objects.filter(
        round__room_id__in=ids
    ).values_list(
        "round__room_id", "round__number", "table__number", "board_set__letter", "board_set__number"
    ):
        # The set as every surface names it (events.boards.set_label): «3», «A3».
        sets[(room_id, rnd, table)] = (number, set_label(letter, number))
    seats: dict[tuple[int, int, int], dict[str, cards.Sitter]] = defaultdict(dict)
    pauses: dict[tuple[int, int], list[cards.Sitter]] = defaultdict(list)
    round_numbers: dict[int, set[int]] = defaultdict(set)
    rows = list(
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
            "entry__number",
        )
    )
    # A seat is shown by the own number of whoever held it first in the session (a
    # substitute plays under the number of the player he replaces, docs/game.md §6.4).
    own: dict[int, int | None] = {}
    for row in rows:
        own.setdefault(row[4], row[8])
    for room_id, rnd, table, position, participant, entry, last, first, _number in rows:
        who = cards.Sitter(participant, f"{last} {first}".strip(), entry, own[participant])
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


def playing_in_order(event) -> list:
    """The entries who play now, in participant order: by number, the unnumbered last (by
    name). Withdrawn and replaced players are out; late arrivals are in."""
    active = list(event.entries.active())
    return sorted(
        active,
        key=lambda e: (e.number is None, e.number or 0, e.last_name, e.first_name, e.pk),
    )


@dataclass(frozen=True)
class History:
    """What the event's earlier sessions did: the pairs of entries who met at a table, the
    lines of the last session (position → entry ids) and its number (0: no session yet)."""

    met: set
    lines: dict
    last_session: int = 0


def event_history(event) -> History:
    """Read from the seats of every earlier session in one query (pauses meet nobody)."""
    by_session: dict[int, dict] = defaultdict(lambda: defaultdict(lambda: defaultdict(dict)))
    for session, rnd, table, position, entry in Seat.objects.filter(
        round__room__session__event=event, table__isnull=False
    ).values_list(
        "round__room__session__number", "round__number", "table_id", "position", "entry_id"
    ):
        by_session[session][rnd][table][position] = entry
    if not by_session:
        return History(set(), {}, 0)
    met = set()
    for seating in by_session.values():
        met |= meetings.met_pairs(seating)
    last = max(by_session)
    return History(met, meetings.player_lines(by_session[last]), last)


def _lines_now(history: History, playing: list) -> dict[str, list]:
    """The last session's lines among the players who play now, in participant order. A
    player who did not play in it (a late arrival) joins the smallest line, the first in
    N, E, S, W order on a tie (docs/game.md §6.4)."""
    index = {e.pk: i for i, e in enumerate(playing)}
    by_pk = {e.pk: e for e in playing}
    lines = {
        line: sorted((by_pk[pk] for pk in members if pk in by_pk), key=lambda e: index[e.pk])
        for line, members in history.lines.items()
    }
    placed = {e.pk for members in lines.values() for e in members}
    for entry in playing:
        if entry.pk not in placed and lines:
            smallest = min(lines, key=lambda line: len(lines[line]))
            lines[smallest].append(entry)
    return lines


def _custom_schedule(scheme: Scheme):
    try:
        return engine.scheme_schedule(scheme.as_scheme())
    except ValueError:  # stored before a rule changed: not offered
        return None


def event_plan(event, participants: int | None = None, *, seats: int | None = None) -> dict:
    """The planner's options for the event's playing players, best first, with the
    director's own schemes for that count merged in; ``nearest`` when none seats N.
    ``seats`` (3 or 4) keeps only options whose tables all seat that many; ``one_room``
    says why no single room seats N, and the nearest counts one room seats.

    With earlier sessions (docs/game.md §6.4) the options also seat the session «by lines»
    (each line of the last session a room of its own, or lines joined or split as the
    counts allow), every option says how many pairs meet for the first time, meet again
    and are still never met after it, and the options are ranked by first meetings first
    among those where every deal is compared (``planner.rank_with_meetings``).
    """
    playing = playing_in_order(event)
    n = len(playing) if participants is None else participants
    result = planner.plan(n, seats=seats)
    options = [(option, None) for option in result.options]
    customs: dict[int, engine.Schedule] = {}
    for scheme in Scheme.objects.filter(owner=event.owner_id, participants=n).order_by("pk"):
        schedule = _custom_schedule(scheme)
        if schedule is None or seats not in (None, schedule.seats):
            continue
        customs[scheme.pk] = schedule
        options.append((planner.option_of([planner.scheme_summary(schedule, scheme.pk)]), None))
    history = event_history(event) if participants is None else History(set(), {}, 0)
    by_lines_reason = ""
    if history.last_session:
        lines = _lines_now(history, playing)
        groupings = planner.line_groupings({line: len(m) for line, m in lines.items()})
        for grouping in groupings:
            rooms, members = [], []
            for group, group_rooms in grouping:
                people = [e for line in group for e in lines[line]]
                first = 0
                for room in group_rooms:
                    rooms.append(room)
                    members.append((group, people[first : first + room.participants]))
                    first += room.participants
            if seats is None or all(room.seats == seats for room in rooms):
                options.append((planner.option_of(rooms), members))
        if not groupings:
            by_lines_reason = by_lines_refusal({line: len(m) for line, m in lines.items()})
    docs = []
    for option, members in options:
        doc = option.as_dict(event.minutes_per_deal)
        if members is not None:
            doc["by_lines"] = True
            for room_doc, (group, people) in zip(doc["rooms"], members, strict=True):
                room_doc["lines"] = list(group)
                room_doc["entries"] = [e.pk for e in people]
        if history.last_session:
            doc["meetings"] = _option_meetings(option, doc, playing, history, customs)
        docs.append((doc, option.key))
    if history.last_session:
        docs.sort(
            key=lambda pair: planner.rank_with_meetings(pair[1], pair[0]["meetings"]["first_time"])
        )
    else:
        docs.sort(key=lambda pair: pair[1])
    out = []
    for index, (doc, _key) in enumerate(docs):
        doc["index"] = index
        out.append(doc)
    one_room = planner.one_room(n, seats=seats).as_dict(event.minutes_per_deal)
    if any(len(doc["rooms"]) == 1 for doc in out):  # a director's own scheme seats N alone
        one_room |= {"fits": True, "reason": ""}
    plan = {
        "participants": n,
        "options": out,
        "nearest": [] if out else list(result.nearest),
        "seats": seats,
        "ranking": planner.ranking(later=bool(history.last_session)),
        "one_room": one_room,
    }
    if history.last_session:
        plan["history"] = {
            "sessions": history.last_session,
            "never_met": meetings.meeting_figures([e.pk for e in playing], history.met, set())[
                "never_before"
            ],
            "by_lines_reason": by_lines_reason,
        }
    return plan


def _option_meetings(option, doc, playing, history, customs) -> dict:
    """Who sits with whom in this option: «by lines» rooms seat their listed players, the
    others participant k → the k-th playing entry (as ``services.session_create`` does)."""
    rooms, first = [], 0
    for summary, room_doc in zip(option.rooms, doc["rooms"], strict=True):
        if summary.scheme_id is not None:
            pairs = meetings.schedule_pairs(customs[summary.scheme_id])
        else:
            pairs = meetings.room_pairs(
                summary.kind, summary.tables, summary.seats, summary.participants
            )
        if "entries" in room_doc:
            people = room_doc["entries"]
        else:
            people = [e.pk for e in playing[first : first + summary.participants]]
        first += summary.participants
        rooms.append((pairs, people))
    return meetings.meeting_figures(
        [e.pk for e in playing], history.met, meetings.seated_pairs(rooms)
    )


def by_lines_refusal(sizes: dict[str, int]) -> str:
    """Why the session cannot be seated «by lines», naming each line and its count."""
    if len([line for line in sizes if sizes[line]]) < 2:
        return _("The last session has fewer than two lines: there is nothing to seat by lines.")
    trouble = [
        _("line %(line)s: %(count)d") % {"line": line, "count": count}
        for line, count in sizes.items()
        if len(planner.group_rooms(count) or ()) != 1
    ]
    return _(
        "The session cannot be seated by lines: no movement seats such a line alone in one "
        "room (%(lines)s players), and no way of joining or splitting the lines seats them all."
    ) % {"lines": "; ".join(trouble) or "—"}
