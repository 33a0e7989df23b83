"""Show a movement's cards or plan how to seat N participants.

    python manage.py movement show --tables T --seats S [--rounds R] [--skip] [--json]
    python manage.py movement show --scheme N [--json]
    python manage.py movement plan --participants N [--json]

Reads built-in schemes from ``movements/fixtures/schemes.json``: no database needed.
"""

import json

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
        plan = actions.add_parser("plan", help="ways to seat exactly N participants")
        plan.add_argument("--participants", type=int, required=True, metavar="N")
        plan.add_argument("--limit", type=int, default=20, help="options to list (20)")
        plan.add_argument("--json", action="store_true", help="print JSON")

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
        result = planner.plan(n, limit=options["limit"])
        if options["json"]:
            self.stdout.write(json.dumps(result.as_dict(), ensure_ascii=False))
        else:
            self.stdout.write(render_plan(result))


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


def _room_text(room: dict) -> str:
    if room["kind"] == "scheme":
        return f"scheme {room['participants']} ({room['tables']} tables, {room['rounds']} rounds)"
    return (
        f"{room['kind']} {room['tables']} tables × {room['seats']} "
        f"({room['participants']} participants, {room['rounds']} rounds)"
    )


def render_plan(result: planner.Plan) -> str:
    doc = result.as_dict()
    if not doc["options"]:
        near = " or ".join(str(m) for m in doc["nearest"])
        return f"{result.participants} participants: no exact seating; nearest: {near}"
    lines = [f"{result.participants} participants: best {len(doc['options'])} options"]
    for i, option in enumerate(doc["options"], 1):
        m = option["metrics"]
        rooms = " + ".join(_room_text(r) for r in option["rooms"])
        flags = []
        if m["set_repeats"]:
            flags.append(f"{m['set_repeats']} set repeats")
        if not m["every_deal_compared"]:
            flags.append("some deals played at one table only")
        if m["pauses"]:
            flags.append(f"{m['pauses']} pauses")
        if m["skips"]:
            flags.append(f"{m['skips']} skip" + ("s" if m["skips"] != 1 else ""))
        note = ("; " + ", ".join(flags)) if flags else ""
        lines.append(f"{i:>3}. {rooms} — coverage {m['coverage'] * 100:.1f} %{note}")
    return "\n".join(lines)
