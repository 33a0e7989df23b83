"""Special movement schemes: the seed's table of routes, read as plain data.

Pure Python (no Django): the command line and the engine read the built-in schemes
straight from ``movements/fixtures/schemes.json``, the same file ``loaddata`` puts into
the ``Scheme`` model.

A scheme is a dict::

    {"participants": 8, "name": "…",
     "groups": [{"route": ["1S", "1W", …], "fixed": {"8": "1N"}}],
     "set_groups": [[1, 2]]}

Reading (docs/game.md §6.3): participant k of a group sits in round r at route
entry ((k − 1) + (r − 1)) mod L, L = route length; ``P`` is a pause; a fixed participant
never moves. Route participants of a group are numbered on from the previous group
(for 16: participants 9–15 take entries 1–7 of the second route); fixed participants
carry their own numbers. Tables listed together in ``set_groups`` share a set in a
round; each such group plays a fresh set every round.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

from events.catalogue import gettext_noop, ngettext, translated

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "schemes.json"
POSITIONS = ("N", "E", "S", "W")
PAUSE = "P"
_SEAT = re.compile(r"^([1-9][0-9]*)([NESW])$")


@dataclass(frozen=True, slots=True)
class SchemeError:
    """One broken rule of a scheme; ``round``/``table``/``position`` locate it when they can."""

    code: str
    message: str  # Russian, shown to directors
    message_en: str
    round: int | None = None
    table: int | None = None
    position: str | None = None

    def as_dict(self) -> dict:
        return asdict(self)

    def __str__(self) -> str:
        return self.message


class SchemeInvalid(ValueError):
    def __init__(self, errors: list[SchemeError]):
        self.errors = errors
        super().__init__("; ".join(e.message for e in errors))


def parse_seat(text: str) -> tuple[int, str] | None:
    """``"12S"`` → ``(12, "S")``; ``"P"`` or anything else → ``None``."""
    match = _SEAT.match(str(text).strip().upper())
    return (int(match.group(1)), match.group(2)) if match else None


def seat_label(table: int, position: str) -> str:
    return f"{table}{position}"


# --- loading the built-in schemes ----------------------------------------------------


def scheme_from_fixture_fields(fields: dict) -> dict:
    """The plain scheme dict from one fixture/model row (participants, name + data)."""
    data = dict(fields.get("data") or {})
    return {
        "participants": fields.get("participants", data.get("participants")),
        "name": fields.get("name", data.get("name", "")),
        "groups": data.get("groups", []),
        "set_groups": data.get("set_groups", []),
    }


@lru_cache(maxsize=4)
def _load(path: str) -> tuple[tuple[int, str], ...]:
    rows = json.loads(Path(path).read_text(encoding="utf-8"))
    out = []
    for row in rows:
        if row.get("model") != "movements.scheme":
            continue
        scheme = scheme_from_fixture_fields(row["fields"])
        out.append((int(scheme["participants"]), json.dumps(scheme)))
    return tuple(out)


def load_schemes(path: str | Path | None = None) -> dict[int, dict]:
    """Built-in schemes by number of participants, read from the fixture file."""
    return {n: json.loads(text) for n, text in _load(str(path or FIXTURE))}


def builtin_scheme(participants: int) -> dict | None:
    return load_schemes().get(participants)


def builtin_counts() -> list[int]:
    return sorted(load_schemes())


# --- seating ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Group:
    first: int  # number of the participant on route entry 1
    route: tuple[tuple[int, str] | None, ...]  # None = pause
    fixed: tuple[tuple[int, tuple[int, str]], ...]

    @property
    def size(self) -> int:
        return len(self.route) + len(self.fixed)


def _groups(data: dict) -> list[_Group]:
    """Parse a scheme that already passed the structural checks."""
    groups, first = [], 1
    for raw in data["groups"]:
        route = tuple(parse_seat(e) for e in raw["route"])
        fixed = tuple(sorted((int(k), parse_seat(v)) for k, v in (raw.get("fixed") or {}).items()))
        group = _Group(first, route, fixed)
        groups.append(group)
        first += group.size
    return groups


def scheme_rounds(data: dict) -> list[tuple[list[tuple[int, tuple[int, str]]], list[int]]]:
    """Per round: the (participant, (table, position)) sittings and the pausing participants.

    Collisions are kept (two sittings on one seat) so the validator can name them.
    """
    groups = _groups(data)
    length = len(groups[0].route)
    rounds = []
    for r in range(length):
        sittings, pauses = [], []
        for g in groups:
            for k in range(len(g.route)):
                seat = g.route[(k + r) % len(g.route)]
                who = g.first + k
                if seat is None:
                    pauses.append(who)
                else:
                    sittings.append((who, seat))
            sittings.extend(g.fixed)
        rounds.append((sittings, sorted(pauses)))
    return rounds


def scheme_tables(data: dict) -> list[int]:
    tables = set()
    for g in _groups(data):
        tables.update(seat[0] for seat in g.route if seat is not None)
        tables.update(seat[0] for _, seat in g.fixed)
    return sorted(tables)


def set_of_table(data: dict) -> dict[int, int]:
    """Table → 1-based index of its set group."""
    return {t: i for i, group in enumerate(data["set_groups"], 1) for t in group}


# --- validation ---------------------------------------------------------------------


def _err(code, text: str, round=None, table=None, position=None, **params: object) -> SchemeError:
    """A broken rule: ``text`` is its English (a msgid of the project's catalogue, with
    ``{name}`` parameters, ``{round}``, ``{table}`` and ``{position}`` among them); the
    Russian comes from the catalogue (events.catalogue)."""

    def said(lang: str) -> str:
        values = {"round": round, "table": table, "position": position, **params}
        values = {k: v.render(lang) if isinstance(v, _Where) else v for k, v in values.items()}
        return translated(text, lang).format(**values)

    return SchemeError(code, said("ru"), said("en"), round, table, position)


@dataclass(frozen=True)
class _Where:
    """Where a broken rule is: «round 2, table 1 N», in the reader's language."""

    round: int | None
    table: int
    position: str | None = None

    def render(self, lang: str) -> str:
        seat = f"{self.table} {self.position}" if self.position else str(self.table)
        if self.round is None:
            return translated(gettext_noop("table {seat}"), lang).format(seat=seat)
        return translated(gettext_noop("round {round}, table {seat}"), lang).format(
            round=self.round, seat=seat
        )


def _where(round_no, table, position) -> _Where:
    return _Where(round_no, table, position)


def _check_structure(data) -> list[SchemeError]:
    errors: list[SchemeError] = []
    if not isinstance(data, dict):
        return [_err("structure", gettext_noop("a scheme must be an object"))]
    groups = data.get("groups")
    if not isinstance(groups, list) or not groups:
        return [_err("no_groups", gettext_noop("the scheme has no group with a route"))]
    for gi, group in enumerate(groups, 1):
        if (
            not isinstance(group, dict)
            or not isinstance(group.get("route"), list)
            or not group["route"]
        ):
            errors.append(
                _err(
                    "no_route",
                    gettext_noop("group {group}: the route is empty or missing"),
                    group=gi,
                )
            )
            continue
        for ei, entry in enumerate(group["route"], 1):
            if str(entry).strip().upper() != PAUSE and parse_seat(entry) is None:
                errors.append(
                    _err(
                        "bad_seat",
                        gettext_noop(
                            "group {group}, step {step}: «{entry}» is not a seat (a table and "
                            "N/E/S/W, or P)"
                        ),
                        group=gi,
                        step=ei,
                        entry=entry,
                    )
                )
        fixed = group.get("fixed") or {}
        if not isinstance(fixed, dict):
            errors.append(
                _err("bad_fixed", gettext_noop("group {group}: fixed must be a mapping"), group=gi)
            )
            continue
        for who, seat in fixed.items():
            if not (str(who).isascii() and str(who).isdigit()) or int(who) < 1:
                errors.append(
                    _err(
                        "bad_fixed",
                        gettext_noop("group {group}: «{who}» is not a participant number"),
                        group=gi,
                        who=who,
                    )
                )
            elif parse_seat(seat) is None:
                errors.append(
                    _err(
                        "fixed_pause" if str(seat).strip().upper() == PAUSE else "bad_seat",
                        gettext_noop(
                            "group {group}: fixed participant {who} needs a seat, not «{seat}»"
                        ),
                        group=gi,
                        who=who,
                        seat=seat,
                    )
                )
    set_groups = data.get("set_groups")
    if not isinstance(set_groups, list) or not all(
        isinstance(sg, list)
        and sg
        and all(isinstance(t, int) and not isinstance(t, bool) for t in sg)
        for sg in set_groups
    ):
        errors.append(
            _err(
                "bad_set_groups",
                gettext_noop("set_groups: need a list of table groups, e.g. [[1, 2], [3]]"),
            )
        )
    return errors


def _check_numbering(data: dict, groups: list[_Group]) -> list[SchemeError]:
    errors = []
    lengths = {len(g.route) for g in groups}
    if len(lengths) > 1:
        errors.append(
            _err(
                "route_lengths",
                gettext_noop(
                    "the groups' routes differ in length ({lengths}); the number of rounds is "
                    "the route length"
                ),
                lengths=", ".join(str(len(g.route)) for g in groups),
            )
        )
    total = sum(g.size for g in groups)
    declared = data.get("participants")
    if declared is not None and declared != total:
        errors.append(
            _err(
                "participants",
                gettext_noop(
                    "{declared} participants declared, the routes and fixed seats give {total}"
                ),
                declared=declared,
                total=total,
            )
        )
    for g in groups:
        for who, (table, position) in g.fixed:
            if who > total:
                errors.append(
                    _err(
                        "fixed_number",
                        gettext_noop("{where}: fixed participant {who} is outside 1–{total}"),
                        table=table,
                        position=position,
                        where=_where(None, table, position),
                        who=who,
                        total=total,
                    )
                )
    return errors


def _check_rounds(data: dict, groups: list[_Group]) -> list[SchemeError]:
    errors: list[SchemeError] = []
    fixed_at = {seat: who for g in groups for who, seat in g.fixed}
    everybody = set(range(1, sum(g.size for g in groups) + 1))
    reported_seats: set[tuple[int, str]] = set()
    reported_people: set[int] = set()
    for r, (sittings, pauses) in enumerate(scheme_rounds(data), 1):
        on_seat: dict[tuple[int, str], int] = {}
        seat_of: dict[int, tuple[int, str]] = {}
        for who, seat in sittings:
            table, position = seat
            if seat in on_seat and seat not in reported_seats:
                reported_seats.add(seat)
                where = _where(r, table, position)
                if seat in fixed_at:
                    other = who if who != fixed_at[seat] else on_seat[seat]
                    errors.append(
                        _err(
                            "fixed_on_route",
                            gettext_noop(
                                "{where}: fixed participant {fixed} and participant {other} "
                                "both sit here — a fixed seat must not be on a route"
                            ),
                            r,
                            table,
                            position,
                            where=where,
                            fixed=fixed_at[seat],
                            other=other,
                        )
                    )
                else:
                    errors.append(
                        _err(
                            "seat_taken",
                            gettext_noop(
                                "{where}: participants {first} and {second} both sit here"
                            ),
                            r,
                            table,
                            position,
                            where=where,
                            first=on_seat[seat],
                            second=who,
                        )
                    )
            on_seat.setdefault(seat, who)
            if who in seat_of and who not in reported_people:
                reported_people.add(who)
                first = seat_label(*seat_of[who])
                errors.append(
                    _err(
                        "seated_twice",
                        gettext_noop(
                            "{where}: participant {who} already sits at {first} in this round"
                        ),
                        r,
                        table,
                        position,
                        where=_where(r, table, position),
                        who=who,
                        first=first,
                    )
                )
            seat_of.setdefault(who, seat)
        for who in pauses:
            if who in seat_of and who not in reported_people:
                reported_people.add(who)
                table, position = seat_of[who]
                errors.append(
                    _err(
                        "seated_and_paused",
                        gettext_noop("{where}: participant {who} both sits and pauses"),
                        r,
                        table,
                        position,
                        where=_where(r, table, position),
                        who=who,
                    )
                )
        for who in sorted(everybody - set(seat_of) - set(pauses) - reported_people):
            reported_people.add(who)
            errors.append(
                _err(
                    "unseated",
                    gettext_noop(
                        "round {round}: participant {who} neither sits nor pauses (number "
                        "participants 1–{count} without gaps)"
                    ),
                    r,
                    who=who,
                    count=len(everybody),
                )
            )
        if r == 1:
            errors.extend(_check_tables(on_seat))
    return errors


def _check_tables(on_seat: dict[tuple[int, str], int]) -> list[SchemeError]:
    """Every table holds 3 or 4 players; with 3 the W seat is the empty one (talon pocket)."""
    errors = []
    by_table: dict[int, set[str]] = {}
    for table, position in on_seat:
        by_table.setdefault(table, set()).add(position)
    tables = sorted(by_table)
    for missing in sorted(set(range(1, (tables[-1] if tables else 0) + 1)) - set(tables)):
        errors.append(
            _err(
                "table_gap",
                gettext_noop("table {table}: nobody sits there — number the tables without gaps"),
                table=missing,
            )
        )
    for table in tables:
        taken = by_table[table]
        if len(taken) < 3:
            empty = "".join(p for p in POSITIONS if p not in taken)
            errors.append(
                _err(
                    "too_few",
                    ngettext(
                        "table {table}: {count} player, a table needs 3 or 4 (empty: {empty})",
                        "table {table}: {count} players, a table needs 3 or 4 (empty: {empty})",
                        len(taken),
                    ),
                    table=table,
                    count=len(taken),
                    empty=empty,
                )
            )
        elif len(taken) == 3 and "W" in taken:
            empty = next(p for p in POSITIONS if p not in taken)
            errors.append(
                _err(
                    "three_without_w",
                    gettext_noop(
                        "table {table} {empty}: with three players the W seat must be the empty "
                        "one (the talon pocket)"
                    ),
                    table=table,
                    position=empty,
                    empty=empty,
                )
            )
    return errors


def _check_set_groups(data: dict, tables: list[int]) -> list[SchemeError]:
    errors = []
    seen: dict[int, int] = {}
    for gi, group in enumerate(data["set_groups"], 1):
        for table in group:
            if table not in tables:
                errors.append(
                    _err(
                        "set_group_table",
                        gettext_noop(
                            "sets, group {group}: there is no table {table} in the scheme"
                        ),
                        table=table,
                        group=gi,
                    )
                )
            elif table in seen:
                errors.append(
                    _err(
                        "set_group_twice",
                        gettext_noop("table {table}: listed in set groups {first} and {second}"),
                        table=table,
                        first=seen[table],
                        second=gi,
                    )
                )
            else:
                seen[table] = gi
    for table in tables:
        if table not in seen:
            errors.append(
                _err(
                    "set_group_missing",
                    gettext_noop(
                        "table {table}: no set group says which set it plays (add it to set_groups)"
                    ),
                    table=table,
                )
            )
    return errors


def validate_scheme(data) -> list[SchemeError]:
    """All broken rules of a scheme, each naming the round and the seat where it can.

    Rules: every route entry is a seat or P; routes are equally long; participants are
    numbered 1…N once each; a fixed participant sits on a seat no route passes through;
    no two participants on one seat in a round; nobody sits twice or sits and pauses in a
    round; each table holds 3 or 4 (with 3, W is empty); every table is in exactly one
    set group and set groups name existing tables. An empty list means valid.
    """
    errors = _check_structure(data)
    if errors:
        return errors
    groups = _groups(data)
    errors = _check_numbering(data, groups)
    if any(e.code == "route_lengths" for e in errors):
        return errors
    errors += _check_rounds(data, groups)
    errors += _check_set_groups(data, scheme_tables(data))
    return errors


def ensure_valid(data) -> dict:
    errors = validate_scheme(data)
    if errors:
        raise SchemeInvalid(errors)
    return data
