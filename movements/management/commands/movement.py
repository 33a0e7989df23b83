"""Show a movement's cards or plan how to seat N participants.

    python manage.py movement show --tables T --seats S [--rounds R] [--skip] [--json]
    python manage.py movement show --scheme N [--json]
    python manage.py movement plan --participants N [--seats 3|4] [--json]

Reads built-in schemes from ``movements/fixtures/schemes.json``: no database needed.
"""

import argparse
import json
import textwrap

from django.core.management.base import BaseCommand, CommandError

from movements import engine, planner
from movements.schemes import SchemeInvalid

POSITIONS = engine.POSITIONS


class Command(BaseCommand):
    help = "Movement cards (who sits where, which set each table plays) and seating plans."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", metavar="{show,plan}")
        show = actions.add_parser(
            "show",
            help="the cards of one movement",
            description="Prime rule (--tables T prime ≥ 5), skip procedure (--skip, T ≥ 4) "
            "or a special scheme (--scheme N participants).",
        )
        show.add_argument("--tables", type=int, help="number of tables")
        show.add_argument("--seats", type=int, default=None, help="players per table: 3 or 4")
        show.add_argument("--rounds", type=int, help="stop after R rounds (1 … T)")
        show.add_argument("--skip", action="store_true", help="skip procedure: any T ≥ 4 tables")
        show.add_argument(
            "--scheme", type=int, metavar="N", help="special scheme for N participants"
        )
        show.add_argument("--json", action="store_true", help="print JSON")
        plan = actions.add_parser(
            "plan",
            help="ways to seat exactly N participants, best first",
            description=textwrap.fill(
                "Ways to seat exactly N participants in one room or several (at most 4), "
                "best first, as a table of options. " + ranking_text() + " The legend "
                "below says what each term and column means.",
                88,
            ),
            epilog=LEGEND,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        plan.add_argument(
            "--participants", type=int, required=True, metavar="N", help="players to seat"
        )
        plan.add_argument(
            "--seats",
            type=int,
            choices=planner.SEATS[::-1],
            default=None,
            help="only rooms whose tables all seat 3 (or all 4) players; any by default",
        )
        plan.add_argument("--limit", type=int, default=20, help="options to list (20)")
        plan.add_argument(
            "--minutes-per-deal",
            type=int,
            default=planner.MINUTES_PER_DEAL,
            metavar="M",
            help=f"for the length column ({planner.MINUTES_PER_DEAL}; an event sets its own)",
        )
        plan.add_argument(
            "--json",
            action="store_true",
            help="print JSON: participants, options (rooms, metrics, promises), nearest, "
            "single_room, seats, ranking, one_room",
        )

    def handle(self, *args, **options):
        action = options.get("action")
        if action == "show":
            return self._show(options)
        if action == "plan":
            return self._plan(options)
        raise CommandError(
            "say what to do: `movement show --tables 5 --seats 4`, "
            "`movement show --scheme 8` or `movement plan --participants 20`"
        )

    # --- show -------------------------------------------------------------------------

    def _show(self, options):
        if options["scheme"] is not None:
            if options["tables"] is not None or options["skip"] or options["rounds"] is not None:
                raise CommandError(
                    "--scheme takes no --tables/--seats/--rounds/--skip: a special scheme "
                    "fixes its own tables and rounds"
                )
            schedule = self._build(engine.builtin_scheme_schedule, options["scheme"])
        else:
            if options["tables"] is None:
                raise CommandError(
                    "give --tables T (and --seats 3 or 4), or --scheme N; "
                    "e.g. `movement show --tables 5 --seats 4`"
                )
            seats = 4 if options["seats"] is None else options["seats"]
            schedule = self._build(
                engine.movement, options["tables"], seats, options["rounds"], skip=options["skip"]
            )
        doc = schedule.as_dict()
        if options["json"]:
            self.stdout.write(json.dumps(doc, ensure_ascii=False))
        else:
            self.stdout.write(render_cards(schedule, doc["metrics"]))

    @staticmethod
    def _build(factory, *args, **kwargs):
        try:
            return factory(*args, **kwargs)
        except (engine.MovementError, SchemeInvalid) as error:
            raise CommandError(str(error)) from None

    # --- plan -------------------------------------------------------------------------

    def _plan(self, options):
        n = options["participants"]
        if n < 1:
            raise CommandError(f"{n} participants: give a positive number, e.g. 20")
        if options["limit"] < 1:
            raise CommandError("--limit must be at least 1")
        minutes = options.get("minutes_per_deal") or planner.MINUTES_PER_DEAL
        if minutes < 1:
            raise CommandError("--minutes-per-deal must be at least 1")
        result = planner.plan(n, limit=options["limit"], seats=options.get("seats"))
        if options["json"]:
            self.stdout.write(json.dumps(result.as_dict(minutes), ensure_ascii=False))
        else:
            self.stdout.write(render_plan(result, minutes))


# --- text rendering ---------------------------------------------------------------------


def _move_note(schedule: engine.Schedule, round_no: int) -> str:
    """How lines and sets move at the change to ``round_no``."""
    if schedule.kind == "scheme":
        return "players follow the scheme's routes; every group of tables takes a fresh set"
    extra = {s.line: s.extra for s in schedule.skips if s.round == round_no}
    parts = []
    for line in engine.lines_for(schedule.seats):
        step = engine.LINE_STEP[line]
        if step == 0:
            parts.append(f"{line} stays")
            continue
        sign = 1 if step > 0 else -1
        total = step + sign * extra.get(line, 0)
        note = f" (skip +{extra[line]})" if line in extra else ""
        parts.append(f"{line} {total:+d}{note}")
    return ", ".join(parts) + ", sets -1"


def render_cards(schedule: engine.Schedule, metrics: dict) -> str:
    title = {
        "prime": f"Prime movement: {schedule.tables} tables × {schedule.seats}",
        "skip": f"Skip movement: {schedule.tables} tables × {schedule.seats}",
        "scheme": f"Special scheme: {schedule.name or schedule.participants}",
    }[schedule.kind]
    lines = [
        title,
        f"{schedule.participants} participants, {schedule.rounds} rounds",
        "",
    ]
    positions = [
        p for p in POSITIONS if any(p in t.seats for rp in schedule.round_plans for t in rp.tables)
    ]
    header = "  table  set  " + "  ".join(f"{p:>4}" for p in positions) + "   set goes to"
    for rp in schedule.round_plans:
        last = rp.number == schedule.rounds
        lines.append(f"Round {rp.number}")
        if rp.number > 1:
            lines.append(f"  moves: {_move_note(schedule, rp.number)}")
        lines.append(header)
        for tp in rp.tables:
            seats = "  ".join(f"{tp.seats.get(p, '—')!s:>4}" for p in positions)
            if last or schedule.kind == "scheme":
                goes = "—"
            else:
                goes = f"table {(tp.table - 2) % schedule.tables + 1}"
            lines.append(f"  {tp.table:>5}  {tp.set:>3}  {seats}   {goes}")
        if rp.pauses:
            lines.append("  pause: " + ", ".join(str(p) for p in rp.pauses))
        lines.append("")
    lines.append(render_metrics(metrics))
    return "\n".join(lines)


def render_metrics(m: dict) -> str:
    meetings = ", ".join(f"{k}×: {v}" for k, v in m["pair_meetings"].items())
    tps = m["tables_per_set"]
    return "\n".join(
        [
            "Balance",
            f"  pairs meeting (times: pairs): {meetings}",
            f"  coverage: {m['coverage'] * 100:.1f} % of pairs meet; opponents met "
            f"{m['opponents_met']['min']}–{m['opponents_met']['max']} of "
            f"{m['opponents_met']['possible']}",
            f"  set repeats: {m['set_repeats']}; pauses: {m['pauses']}; skips: {m['skips']}",
            f"  tables per set: {tps['min']}–{tps['max']} ({tps['sets']} sets)",
        ]
    )


# --- the plan: one name per movement, the ranking and the legend -------------------------

#: Each of planner.RANKING's steps in words, in its order.
RANKING_WORDS = {
    "set_repeats": "nobody plays a set twice",
    "compared": "every deal is compared (each set is played at two tables or more)",
    "coverage": "more pairs of players meet (coverage)",
    "rooms": "fewer rooms",
    "pauses": "fewer pauses",
    "skips": "fewer skips",
    "kind": "prime rule, then special scheme, then skip procedure",
    "shape": "larger rooms, tables of 4 before 3, fewer tables",
}

LEGEND = """\
Movements (one name each, as on the planner page):
  prime rule          T tables, T prime ≥ 5 (5, 7, 11, 13…), of 3 or 4 players: each
                      round N stays, E moves +1 table, S +2, W −2, the sets −1; every two
                      players of different lines meet exactly once, same-line players never
  skip procedure      any T ≥ 4 tables: as the prime rule, but in a round where a line
                      would meet a set it has played, it moves one table further (a skip)
  special scheme for N
                      the seed's fixed routes for N participants (8, 9, 12, 13, 16, 18, 24),
                      tables of 4; the schemes for 9, 13 and 18 have pauses
Columns:
  rooms               rooms, each with its own movement and clock; players of different
                      rooms never meet (33 = 24 + 9 gives the players per room)
  tables × seats      tables of each room × players per table
  rounds, deals       rounds of a full session and deals a table plays (rounds × deals per
                      set; a set has one deal per player of the table); min–max over rooms
  length              playing time h:mm of the longest room at --minutes-per-deal; the
                      moves between rounds are not counted
  pauses              player-rounds of rest, summed over all players
  skips               extra table moves of the skip procedure, summed over the lines
  coverage            pairs of players who meet at least once / all pairs
  notes               what defeats a duplicate session: set repeats (a player meets a set
                      again), one-table deals (nothing to compare their results with)
"""


def ranking_text(codes=planner.RANKING) -> str:
    steps = "; ".join(f"{i}. {RANKING_WORDS[code]}" for i, code in enumerate(codes, 1))
    return f"Ranking, best first: {steps}."


def movement_name(room: dict) -> str:
    if room["kind"] == "scheme":
        return f"special scheme for {room['participants']}"
    return {"prime": "prime rule", "skip": "skip procedure"}[room["kind"]]


def _option_name(option: dict) -> str:
    names: dict[str, int] = {}
    for room in option["rooms"]:
        names[movement_name(room)] = names.get(movement_name(room), 0) + 1
    return " + ".join(name if k == 1 else f"{k} × {name}" for name, k in names.items())


def _span(values) -> str:
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}–{high}"


def _clock(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60:02d}"


def _room_text(room: dict) -> str:
    return f"{movement_name(room)}, {room['tables']} tables of {room['seats']}"


def _one_room_text(doc: dict) -> list[str]:
    """Why no single room seats N, and the nearest counts one room seats."""
    one = doc["one_room"]
    if one["fits"]:
        return []
    n, seats = doc["participants"], one["seats"]
    sizes = "3 or 4" if seats is None else str(seats)
    counts = ", ".join(map(str, one["scheme_counts"])) or "none"
    if one["reason"] == "indivisible":
        why = (
            f"{n} is divisible by neither 3 nor 4"
            if seats is None
            else f"{n} is not divisible by {seats}"
        )
    else:
        least = 4 * (3 if seats is None else seats)
        why = f"{n} is fewer than 4 tables of {least // 4} ({least} players)"
    lines = [
        f"No single room: one room is 4 tables or more of {sizes} players (prime rule or "
        f"skip procedure) or a special scheme (for {counts}); {why}, and there is no "
        f"special scheme for {n}."
    ]
    near = [
        f"{r['participants']} ({r['participants'] - n:+d}): {_room_text(r)}"
        + (" (with pauses)" if r["metrics"]["pauses"] else "")
        for r in (one["below"], one["above"])
        if r
    ]
    if near:
        lines.append("Nearest counts one room seats: " + "; ".join(near) + ".")
    return lines


def render_plan(result: planner.Plan, minutes_per_deal: int = planner.MINUTES_PER_DEAL) -> str:
    doc = result.as_dict(minutes_per_deal)
    only = f" at tables of {result.seats} only" if result.seats else ""
    if not doc["options"]:
        near = " or ".join(str(m) for m in doc["nearest"])
        lines = [f"{result.participants} participants{only}: no exact seating; nearest: {near}"]
        return "\n".join(lines + [textwrap.fill(line, 88) for line in _one_room_text(doc)])
    lines = [
        f"{result.participants} participants{only}: best {len(doc['options'])} options",
        textwrap.fill(ranking_text(doc["ranking"]), 88),
        *(textwrap.fill(line, 88) for line in _one_room_text(doc)),
        "",
    ]
    header = (
        "  #", "movement", "rooms", "tables × seats", "rounds", "deals", "length",
        "pauses", "skips", "coverage", "notes",
    )  # fmt: skip
    rows = [header]
    for i, option in enumerate(doc["options"], 1):
        m, rooms = option["metrics"], option["rooms"]
        notes = []
        if m["set_repeats"]:
            notes.append(f"{m['set_repeats']} set repeats")
        if not m["every_deal_compared"]:
            notes.append("one-table deals")
        rows.append(
            (
                f"{i:>3}",
                _option_name(option),
                str(len(rooms))
                + (
                    ": " + " + ".join(str(r["participants"]) for r in rooms)
                    if len(rooms) > 1
                    else ""
                ),
                " + ".join(f"{r['tables']} × {r['seats']}" for r in rooms),
                _span([r["rounds"] for r in rooms]),
                _span([r["deals"] for r in rooms]),
                _clock(m["session"]["minutes"]),
                str(m["pauses"]),
                str(m["skips"]),
                f"{m['coverage'] * 100:.1f} %",
                ", ".join(notes),
            )
        )
    widths = [max(len(row[c]) for row in rows) for c in range(len(header))]
    numeric = {0, 4, 5, 6, 7, 8, 9}
    for row in rows:
        cells = [
            cell.rjust(widths[c]) if c in numeric else cell.ljust(widths[c])
            for c, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    lines += ["", f"Length at {minutes_per_deal} min per deal.", LEGEND.rstrip()]
    return "\n".join(lines)
