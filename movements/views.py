"""The director's movement pages: the planner, the seating and its cards, custom schemes.

Views only translate: the planner and the cards compute, services write.
"""

from collections import Counter
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from events import dealing, spreadsheet
from events.access import director_event
from events.forms import apply_service_error
from events.links import table_url
from events.meanwhile import refusal
from events.models import Room, Session, Table
from events.params import query_errors, query_int
from events.qr import qr_svg
from movements import cards, engine, meanwhile, planner, schemes, seating, services
from movements.forms import PlanChooseForm, PlanSeatsForm, SchemeForm, SubstituteForm
from movements.models import Scheme, builtin_title

PAPERS = ("a4", "a5")


def _session(event, number) -> Session:
    return get_object_or_404(event.sessions.prefetch_related("rooms"), number=number)


def _sessions(event):
    return event.sessions.annotate(room_count=Count("rooms")).order_by("number")


# --- readable planner figures -------------------------------------------------------------


def kind_label(kind: str) -> str:
    try:
        return str(Room.Kind(kind).label)
    except ValueError:
        return kind


def movement_name(room: dict) -> str:
    """The one name a room's movement goes by on every page: the prime rule, the skip
    procedure, the special scheme for N (its participant count, not the scheme's long
    description), or the director's own scheme by its name."""
    if room.get("kind") == "scheme":
        if room.get("scheme_id"):
            return _("your scheme «%(name)s»") % {"name": room.get("name", "")}
        return _("special scheme for %(n)d") % {"n": room.get("participants", 0)}
    return kind_label(room.get("kind", ""))


def option_name(option: dict) -> str:
    """The option's movement: its rooms' names, identical rooms counted once («2 × …»)."""
    names = Counter(movement_name(r) for r in option["rooms"])
    return " + ".join(
        name if times == 1 else _("%(times)d × %(name)s") % {"times": times, "name": name}
        for name, times in names.items()
    )


def room_line(room: dict) -> str:
    tables, seats, rounds = room.get("tables"), room.get("seats"), room.get("rounds")
    shape = ngettext(
        "%(tables)d table × %(seats)d players", "%(tables)d tables × %(seats)d players", tables
    ) % {"tables": tables, "seats": seats}
    if room.get("kind") == "scheme":
        shape = ngettext(
            "%(tables)d table of up to %(seats)d players",
            "%(tables)d tables of up to %(seats)d players",
            tables,
        ) % {"tables": tables, "seats": seats}
    return _("%(kind)s — %(shape)s, %(rounds)s, %(participants)d participants") % {
        "kind": movement_name(room),
        "shape": shape,
        "rounds": ngettext("%(n)d round", "%(n)d rounds", rounds) % {"n": rounds},
        "participants": room.get("participants", 0),
    }


def meetings_line(histogram: dict) -> str:
    parts = []
    for times, pairs in sorted(((int(k), v) for k, v in histogram.items()), key=lambda x: x[0]):
        if times == 0:
            label = _("never")
        else:
            label = ngettext("%(k)d time", "%(k)d times", times) % {"k": times}
        parts.append(
            ngettext("%(label)s: %(pairs)d pair", "%(label)s: %(pairs)d pairs", pairs)
            % {"label": label, "pairs": pairs}
        )
    return "; ".join(parts)


def _spread(span: dict) -> str:
    low, high = span.get("min"), span.get("max")
    return str(low) if low == high else f"{low}–{high}"


def _tables_per_deal(option: dict) -> dict:
    """The option's ``tables_per_deal``; a plan stored before it existed gets it from its
    rooms (rooms with the same movement play copies of the same sets)."""
    m = option["metrics"]
    if "tables_per_deal" in m:
        return m["tables_per_deal"]
    rooms = option.get("rooms", [])
    twins = Counter(_movement_of(r) for r in rooms)
    spans = [
        (r.get("metrics", {}).get("tables_per_set", {}), twins[_movement_of(r)]) for r in rooms
    ]
    if not spans:
        return m.get("tables_per_set", {})
    return {
        "min": min(span.get("min", 0) * k for span, k in spans),
        "max": max(span.get("max", 0) * k for span, k in spans),
    }


def _movement_of(room: dict) -> tuple:
    return tuple(room.get(key) for key in ("kind", "tables", "seats", "participants", "rounds"))


def duration_text(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    if hours and rest:
        return _("%(hours)d h %(minutes)d min") % {"hours": hours, "minutes": rest}
    if hours:
        return _("%(hours)d h") % {"hours": hours}
    return _("%(minutes)d min") % {"minutes": rest}


def _length_formula(room: dict, minutes_per_deal: int) -> str:
    rounds, deals = room["rounds"], room.get("deals_per_set", room["seats"])
    return _("%(rounds)s × %(deals)s × %(minutes)d min per deal") % {
        "rounds": ngettext("%(n)d round", "%(n)d rounds", rounds) % {"n": rounds},
        "deals": ngettext("%(n)d deal", "%(n)d deals", deals) % {"n": deals},
        "minutes": minutes_per_deal,
    }


def _room_minutes(room: dict, minutes_per_deal: int) -> int:
    return room["rounds"] * room.get("deals_per_set", room["seats"]) * minutes_per_deal


def _utc_offset(moment) -> str:
    offset = int(moment.utcoffset().total_seconds() // 60)
    sign, offset = ("+" if offset >= 0 else "−"), abs(offset)
    hours, minutes = divmod(offset, 60)
    return f"UTC{sign}{hours}" + (f":{minutes:02d}" if minutes else "")


def length_figures(option: dict, minutes_per_deal: int, now) -> list[tuple[str, str, str]]:
    """The session's playing time and, if it started at ``now``, when it would end."""
    rooms = option["rooms"]
    lengths = [_room_minutes(r, minutes_per_deal) for r in rooms]
    longest = max(lengths)
    if len({(r["rounds"], r.get("deals_per_set", r["seats"])) for r in rooms}) == 1:
        value = _("%(length)s: %(formula)s") % {
            "length": duration_text(longest),
            "formula": _length_formula(rooms[0], minutes_per_deal),
        }
    else:
        value = "; ".join(
            _("room %(number)d — %(length)s: %(formula)s")
            % {
                "number": i,
                "length": duration_text(length),
                "formula": _length_formula(room, minutes_per_deal),
            }
            for i, (room, length) in enumerate(zip(rooms, lengths, strict=True), 1)
        )
    value += " " + _("(play only: the moves between rounds are not counted)")
    start = timezone.localtime(now)
    end = start + timedelta(minutes=longest)
    words = {"end": date_format(end, "H:i"), "now": date_format(start, "H:i")}
    words["zone"] = _utc_offset(start)
    if end.date() == start.date():
        ends = _("at %(end)s if started now (now %(now)s, the event's time, %(zone)s)") % words
    else:  # «2 декабря в 02:10», not «в 2 декабря, 02:10»
        words["day"] = date_format(end, "j E")
        ends = (
            _("on %(day)s at %(end)s if started now (now %(now)s, the event's time, %(zone)s)")
            % words
        )
    return [(_("Session length"), value, ""), (_("Session ends"), ends, "")]


def room_shape(room: dict) -> str:
    """«11 tables of 3»: how many tables and how many players each."""
    tables = room.get("tables", 0)
    return ngettext("%(tables)d table of %(seats)d", "%(tables)d tables of %(seats)d", tables) % {
        "tables": tables,
        "seats": room.get("seats", 0),
    }


def _single_option(options: list[dict]) -> dict | None:
    return next((o for o in options if len(o["rooms"]) == 1), None)


def _option_ref(options: list[dict], kind: str) -> str:
    """« (option k)» for the first one-room option of ``kind``, if the list has one."""
    found = next(
        (o for o in options if len(o["rooms"]) == 1 and o["rooms"][0].get("kind") == kind), None
    )
    return " " + _("(option %(number)d)") % {"number": found["index"] + 1} if found else ""


def count_reason(participants: int, options: list[dict]) -> str:
    """Why one room seats this count, but not on the prime rule ("" when a prime room
    seats it, or no single room does: :func:`one_room_reason` says why then)."""
    single = planner.single_rooms(participants)
    if single["prime"] or not options or _single_option(options) is None:
        return ""
    n = {"n": participants}
    parts = [
        _(
            "No prime number of tables (5, 7, 11, 13…) holds exactly %(n)d players "
            "at 3 or 4 per table."
        )
        % n
    ]
    if single["skip"]:
        tables, seats = single["skip"][0]
        parts.append(
            _("One room is possible: %(movement)s, %(shape)s%(ref)s.")
            % {
                "movement": kind_label("skip"),
                "shape": room_shape({"tables": tables, "seats": seats}),
                "ref": _option_ref(options, "skip"),
            }
        )
    if single["scheme"]:
        parts.append(
            _("One room is possible: %(movement)s%(ref)s.")
            % {
                "movement": movement_name({"kind": "scheme", "participants": participants}),
                "ref": _option_ref(options, "scheme"),
            }
        )
    return " ".join(parts)


def one_room_reason(one_room: dict, participants: int) -> str:
    """One sentence: why no single room seats ``participants`` ("" when one does), from the
    planner's reason code and the table sizes and scheme counts it allows."""
    if one_room.get("fits", True):
        return ""
    seats, counts = one_room.get("seats"), one_room.get("scheme_counts", [])
    words = {"n": participants, "counts": ", ".join(map(str, counts)), "seats": seats}
    if seats is None:
        if one_room["reason"] == "indivisible":
            return (
                ngettext(
                    "No prime number of tables (5, 7, 11, 13…), nor any other number of "
                    "tables from 4 up on the skip procedure, holds exactly %(n)d player at 3 "
                    "or 4 per table: %(n)d is divisible by neither 3 nor 4, and the special "
                    "schemes are for %(counts)s players only — one room cannot seat them.",
                    "No prime number of tables (5, 7, 11, 13…), nor any other number of "
                    "tables from 4 up on the skip procedure, holds exactly %(n)d players at 3 "
                    "or 4 per table: %(n)d is divisible by neither 3 nor 4, and the special "
                    "schemes are for %(counts)s players only — one room cannot seat them.",
                    participants,
                )
                % words
            )
        return (
            _(
                "One room needs at least 4 tables of 3 or 4 players (12 players or more) or a "
                "special scheme, and the special schemes are for %(counts)s players only — "
                "one room cannot seat %(n)d."
            )
            % words
        )
    words["least"] = 4 * seats
    if counts:
        schemes = _("or a special scheme (for %(counts)s players)") % words
    else:
        schemes = _("(no special scheme has tables of %(seats)d)") % words
    words["schemes"] = schemes
    if one_room["reason"] == "indivisible":
        return (
            _(
                "With tables of %(seats)d only, one room is 4 tables or more of %(seats)d "
                "players %(schemes)s, and %(n)d is not divisible by %(seats)d: one room cannot "
                "seat them."
            )
            % words
        )
    return (
        _(
            "With tables of %(seats)d only, one room is 4 tables or more of %(seats)d players "
            "(%(least)d players or more) %(schemes)s: one room cannot seat %(n)d."
        )
        % words
    )


def one_room_alternative(one_room: dict, participants: int) -> str:
    """The nearest smaller and larger counts one room seats, each with its best movement
    ("" when one room seats the count, or none is near)."""
    if one_room.get("fits", True):
        return ""
    parts = []
    for room in (one_room.get("below"), one_room.get("above")):
        if not room:
            continue
        count, diff = room["participants"], room["participants"] - participants
        words = {
            "count": count,
            "diff": abs(diff),
            "movement": movement_name(room),
            "shape": room_shape(room),
        }
        if diff < 0:
            text = ngettext(
                "%(count)d player (%(diff)d fewer) — %(movement)s, %(shape)s",
                "%(count)d players (%(diff)d fewer) — %(movement)s, %(shape)s",
                count,
            )
        else:
            text = ngettext(
                "%(count)d player (%(diff)d more) — %(movement)s, %(shape)s",
                "%(count)d players (%(diff)d more) — %(movement)s, %(shape)s",
                count,
            )
        text %= words
        if room.get("metrics", {}).get("pauses"):
            text += " " + _("(with pauses)")
        parts.append(text)
    if not parts:
        return ""
    return _("One room seats the nearest counts: %(counts)s.") % {"counts": "; ".join(parts)}


def split_reason(option: dict, options: list[dict], participants: int) -> str:
    """What seating the players in several rooms means for this option ("" for one room)."""
    rooms = option["rooms"]
    if len(rooms) < 2:
        return ""
    sizes = " + ".join(str(r["participants"]) for r in rooms)
    parts = [f"{participants} = {sizes}."]
    single = _single_option(options)
    if single is not None:
        room = single["rooms"][0]
        parts.append(
            _("One room would do too: %(movement)s, %(shape)s (option %(number)d).")
            % {
                "movement": movement_name(room),
                "shape": room_shape(room),
                "number": single["index"] + 1,
            }
        )
    parts.append(
        _("Each room has its own movement and clock; players of different rooms never meet.")
    )
    if len({_movement_of(r) for r in rooms}) < len(rooms):
        parts.append(
            _(
                "Rooms on the same movement play copies of the same sets, so their deals "
                "are compared across the rooms."
            )
        )
    return " ".join(parts)


def option_figures(option: dict, minutes_per_deal: int | None = None, now=None) -> list:
    """(metric, value, class) rows of one option, in the order the ranking weighs them;
    with ``minutes_per_deal`` also the session's length and its end if started ``now``."""
    m = option["metrics"]
    rows = []
    repeats = m.get("set_repeats", 0)
    rows.append(
        (
            _("Set repeats"),
            _("none: nobody plays a set twice")
            if not repeats
            else ngettext(
                "%(count)d time a player meets a set again",
                "%(count)d times a player meets a set again",
                repeats,
            )
            % {"count": repeats},
            "good" if not repeats else "bad",
        )
    )
    # Tables that play each deal over the session, twin rooms counted: what the comparison
    # really uses (``tables_per_set`` counts one room and would say 1 for 13 + 13).
    tpd = _tables_per_deal(option)
    compared = m.get("every_deal_compared", tpd.get("min", 0) >= 2)
    spread = _spread(tpd)
    rows.append(
        (
            _("Tables per deal"),
            (
                _("%(tables)s; every deal is compared") % {"tables": spread}
                if compared
                else _("%(tables)s; some deals are played at one table only") % {"tables": spread}
            ),
            "good" if compared else "bad",
        )
    )
    rows.append(
        (
            _("Coverage"),
            _("%(percent)s%% of all pairs of players meet") % {"percent": _percent(m["coverage"])},
            "",
        )
    )
    rows.append((_("Pair meetings"), meetings_line(m.get("pair_meetings", {})), ""))
    rounds = m.get("rounds", {})
    if rounds:
        rows.append(
            (
                _("Rounds"),
                str(rounds["min"])
                if rounds["min"] == rounds["max"]
                else _("%(min)d to %(max)d, by room") % rounds,
                "",
            )
        )
    deals = m.get("deals_per_set")
    if deals is None and option.get("rooms"):  # a plan stored before the figure existed
        seats = [r["seats"] for r in option["rooms"]]
        deals = {"min": min(seats), "max": max(seats)}
    if deals:
        rows.append(
            (
                _("Deals per set"),
                _spread(deals)
                if deals["min"] == deals["max"]
                else _("%(spread)s, by room") % {"spread": _spread(deals)},
                "",
            )
        )
    if minutes_per_deal is not None:
        rows.extend(length_figures(option, minutes_per_deal, now or timezone.now()))
    pauses, skips = m.get("pauses", 0), m.get("skips", 0)
    rows.append(
        (
            _("Pauses"),
            ngettext("%(count)d player-round of rest", "%(count)d player-rounds of rest", pauses)
            % {"count": pauses}
            if pauses
            else _("none"),
            "",
        )
    )
    rows.append(
        (
            _("Skips"),
            ngettext("%(count)d extra table move", "%(count)d extra table moves", skips)
            % {"count": skips}
            if skips
            else _("none"),
            "",
        )
    )
    return rows


def _percent(value: float) -> str:
    return f"{value * 100:.1f}".rstrip("0").rstrip(".")


def clock_text(minutes: int) -> str:
    """A length as h:mm (1:39), as a clock shows it."""
    hours, rest = divmod(minutes, 60)
    return f"{hours}:{rest:02d}"


def _room_span(rooms: list[dict], figure) -> str:
    return _spread({"min": min(figure(r) for r in rooms), "max": max(figure(r) for r in rooms)})


def _room_deals(room: dict) -> int:
    return room.get("deals", room["rounds"] * room.get("deals_per_set", room["seats"]))


def _promise_texts(option: dict) -> list[str]:
    """What the option promises, in the planner's words turned into ours (its codes)."""
    kept = set(option.get("promises", ()))
    rooms = option["rooms"]
    texts = []
    if "other_lines_once" in kept:
        texts.append(_("every player meets every player of the other lines exactly once"))
    if "every_set" in kept:
        if len(rooms) == 1:
            sets = rooms[0]["rounds"]
            texts.append(
                ngettext(
                    "every player plays all %(count)d set: every deal of the session",
                    "every player plays all %(count)d sets: every deal of the session",
                    sets,
                )
                % {"count": sets}
            )
        else:
            texts.append(_("every player plays every set of his room"))
    if "no_set_repeats" in kept and "every_set" not in kept:
        texts.append(_("nobody plays a set twice"))
    if "every_deal_compared" in kept:
        texts.append(
            _("every deal is compared (tables per deal: %(tables)s)")
            % {"tables": _spread(_tables_per_deal(option))}
        )
    if "no_pauses" in kept:
        texts.append(_("no pauses: everybody plays every round"))
    if "no_skips" in kept and all(r.get("kind") != "scheme" for r in rooms):
        texts.append(_("no skips: the lines move the same way every round"))
    return texts


def _flag_texts(option: dict) -> list[str]:
    """What defeats a duplicate session: a set played twice, a deal nobody can compare."""
    m, texts = option["metrics"], []
    if m.get("set_repeats"):
        texts.append(
            ngettext(
                "%(count)d time a player meets a set again",
                "%(count)d times a player meets a set again",
                m["set_repeats"],
            )
            % {"count": m["set_repeats"]}
        )
    if not m.get("every_deal_compared", True):
        texts.append(_("some deals have nothing to compare with: one table plays them"))
    return texts


def _warning_texts(option: dict) -> list[str]:
    """What the option does not promise, said plainly."""
    m, texts = option["metrics"], _flag_texts(option)
    if len(option["rooms"]) > 1:
        texts.append(_("players of different rooms never meet"))
    if m.get("pauses"):
        texts.append(
            ngettext(
                "%(count)d player-round of rest", "%(count)d player-rounds of rest", m["pauses"]
            )
            % {"count": m["pauses"]}
        )
    return texts


def option_summary(option: dict, minutes_per_deal: int, now) -> dict:
    """The few figures the planner's card and comparison table show for an option."""
    rooms = option["rooms"]
    m = option["metrics"]
    count = len(rooms)
    minutes = max(_room_minutes(r, minutes_per_deal) for r in rooms)
    room_count = ngettext("%(count)d room", "%(count)d rooms", count) % {"count": count}
    if count > 1:
        room_count += ": " + " + ".join(str(r["participants"]) for r in rooms)
    deals_per_set = _room_span(rooms, lambda r: r.get("deals_per_set", r["seats"]))
    start = timezone.localtime(now)
    end = start + timedelta(minutes=minutes)
    ends = date_format(end, "H:i") if end.date() == start.date() else date_format(end, "j E H:i")
    return {
        "name": option_name(option),
        "rooms": room_count,
        "room_total": count,
        "tables": " + ".join(room_shape(r) for r in rooms),
        # «6 × 4 + 2 × 4» breaks only between rooms.
        "tables_short": " + ".join(f"{r['tables']}\u00a0×\u00a0{r['seats']}" for r in rooms),
        "rounds": _room_span(rooms, lambda r: r["rounds"]),
        "deals": _room_span(rooms, _room_deals),
        "deals_note": _("at each table, %(per_set)s a set") % {"per_set": deals_per_set},
        "length": clock_text(minutes),
        "length_note": _("%(minutes)d min per deal (the event's setting)")
        % {"minutes": minutes_per_deal},
        "ends": ends,
        "ends_note": _("if started now (now %(now)s, %(zone)s)")
        % {"now": date_format(start, "H:i"), "zone": _utc_offset(start)},
        "pauses": m.get("pauses", 0),
        "coverage": f"{_percent(m['coverage'])}%",
        "promises": _promise_texts(option),
        "warnings": _warning_texts(option),
        "flags": _flag_texts(option),
        "first_time": (option.get("meetings") or {}).get("first_time"),
    }


def ranking_text(codes: list[str]) -> str:
    """The order the options are listed in, from the planner's ranking codes."""
    words = {
        "first_meetings": _("most pairs meeting for the first time"),
        "set_repeats": _("nobody plays a set twice"),
        "compared": _("every deal is compared"),
        "coverage": _("more pairs of players meet"),
        "rooms": _("fewer rooms"),
        "pauses": _("fewer pauses"),
        "skips": _("fewer skips"),
        "kind": _("%(prime)s, then %(scheme)s, then %(skip)s")
        % {
            "prime": kind_label("prime"),
            "scheme": kind_label("scheme"),
            "skip": kind_label("skip"),
        },
        "shape": _("larger rooms and tables of 4 first"),
    }
    return _("Ranked by, in turn: %(rules)s.") % {
        "rules": "; ".join(str(words[c]) for c in codes if c in words)
    }


def _described(plan: dict, minutes_per_deal: int, now) -> list[dict]:
    return [
        {
            "index": o["index"],
            "number": o["index"] + 1,
            "rooms": [_room_text(r) for r in o["rooms"]],
            "split": ""
            if o.get("by_lines")
            else split_reason(o, plan["options"], plan["participants"]),
            "figures": meeting_figures(o) + option_figures(o, minutes_per_deal, now),
            "summary": option_summary(o, minutes_per_deal, now),
            "max_rounds": o["metrics"]["rounds"]["min"],
            "custom": any(r.get("scheme_id") for r in o["rooms"]),
            "by_lines": bool(o.get("by_lines")),
        }
        for o in plan["options"]
    ]


def _room_text(room: dict) -> str:
    """A room's line; a «by lines» room says which lines of the last session it seats."""
    lines = room.get("lines")
    if not lines:
        return room_line(room)
    named = ngettext("line %(lines)s", "lines %(lines)s", len(lines)) % {"lines": " + ".join(lines)}
    return f"{named}: {room_line(room)}"


def meeting_figures(option: dict) -> list:
    """Who meets whom in this option, counted against the earlier sessions (docs/game.md
    §6.4): pairs meeting for the first time, meeting again, and still never met after it."""
    m = option.get("meetings")
    if not m:
        return []

    def pairs(count):
        return ngettext("%(count)d pair", "%(count)d pairs", count) % {"count": count}

    return [
        (
            _("Meeting for the first time"),
            pairs(m["first_time"]),
            "good" if m["first_time"] else "",
        ),
        (_("Meeting again"), pairs(m["again"]), "bad" if m["again"] else ""),
        (_("Still never met after it"), pairs(m["never_after"]), ""),
    ]


# --- the planner ----------------------------------------------------------------------------


@director_event
def plan(request, event):
    # The seats choice is read from the address for the page and for its POST alike (the
    # form posts to the address it was shown at), so an option's number means the same.
    seats_form = PlanSeatsForm(request.GET)
    seats = seats_form.chosen_seats() if seats_form.is_valid() else None
    doc = seating.event_plan(event, seats=seats)
    next_number = services.next_session_number(event)
    form = PlanChooseForm(request.POST or None, plan=doc, next_number=next_number)
    if request.method == "POST" and form.is_valid():
        try:
            session = services.session_create(
                event,
                form.chosen,
                by=request.user,
                rounds=form.cleaned_data.get("rounds"),
                number=form.cleaned_data["number"],
                dealing=form.cleaned_data.get("dealing") or "",
            )
        except ValidationError as error:
            apply_service_error(form, error)
        else:
            messages.success(
                request,
                _("Session %(number)d is seated: %(participants)d participants.")
                % {"number": session.number, "participants": session.participants},
            )
            return redirect("director:session", pk=event.pk, number=session.number)
    unnumbered = event.entries.active().filter(number__isnull=True).count()
    described = _described(doc, event.minutes_per_deal, timezone.now())
    return render(
        request,
        "movements/plan.html",
        {
            "event": event,
            "plan": doc,
            "options": described,
            "recommended": described[0] if described else None,
            "others": described[1:],
            "count_reason": count_reason(doc["participants"], doc["options"]),
            "one_room_reason": one_room_reason(doc["one_room"], doc["participants"]),
            "one_room_alternative": one_room_alternative(doc["one_room"], doc["participants"]),
            "ranking": ranking_text(doc["ranking"]),
            "seats_form": seats_form,
            "seats": seats,
            "history": doc.get("history"),
            "form": form,
            "sessions": _sessions(event),
            "next_number": next_number,
            "unnumbered": unnumbered,
        },
        status=400 if form.errors else 200,
    )


# --- the seating ----------------------------------------------------------------------------


def _session_context(event, session, rooms_seating, form):
    return {
        "event": event,
        "session": session,
        "rooms": [
            {"room": room, "seating": seat_room, "grid": cards.grid(seat_room)}
            for room, seat_room in zip(session.rooms.order_by("number"), rooms_seating, strict=True)
        ],
        "room_lines": [_room_text(r) for r in session.plan.get("rooms", [])],
        "figures": option_figures(session.plan) if session.plan.get("metrics") else [],
        "form": form,
        "sessions": _sessions(event),
        "cards_state": dealing.session_cards_state(session),
    }


def analysis_text(state: dealing.CardsState) -> str:
    return ngettext(
        "Analysis: %(done)s of %(counter)s deal",
        "Analysis: %(done)s of %(counter)s deals",
        state.known,
    ) % {"done": state.analysed, "counter": state.known}


@director_event
def session_analysis(request, event, number):
    """The analysis' progress, for the session page to follow without a reload: three
    counts of one session, read by the director's page every few seconds while it runs."""
    state = dealing.session_cards_state(_session(event, number))
    return JsonResponse(
        {
            "known": state.known,
            "analysed": state.analysed,
            "analysing": state.analysing,
            "text": analysis_text(state),
        }
    )


@director_event
def session_detail(request, event, number):
    session = _session(event, number)
    form = SubstituteForm(request.POST or None, session=session)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            changed = services.seat_substitute(
                session,
                leaving=data["leaving"],
                arriving=data["arriving"],
                from_round=data["from_round"],
                by=request.user,
                expected=request.POST.get("expected"),
            )
        except ValidationError as error:
            apply_service_error(form, error)
        else:
            messages.success(
                request,
                services.substitution_text(
                    arriving=event.entries.get(pk=data["arriving"].pk),
                    leaving=data["leaving"],
                    from_round=data["from_round"],
                    changed=changed,
                ),
            )
            return redirect("director:session", pk=event.pk, number=session.number)
    if request.method == "POST" and form.errors and request.POST.get("expected") is not None:
        # Refused for another reason (the player chosen is replaced already…): say why, if
        # another director's substitution since the page was drawn is the cause.
        try:
            changes = meanwhile.changes_since(session, request.POST["expected"], None)
        except ValidationError:
            changes = []
        if changes and "expected" not in form.errors:
            form.add_error(None, refusal(changes))
    context = _session_context(event, session, seating.session_seating(session), form)
    context["substitution_token"] = meanwhile.substitution_token(session)
    return render(request, "movements/session.html", context, status=400 if form.errors else 200)


def _paper(request) -> str:
    paper = request.GET.get("paper", "a4").lower()
    return paper if paper in PAPERS else "a4"


def _int_param(request, name) -> int | None:
    return query_int(request.GET, name)


@director_event
@query_errors
def table_cards(request, event, number):
    session = _session(event, number)
    room_no, table_no = _int_param(request, "room"), _int_param(request, "table")
    found = []
    for room in seating.session_seating(session):
        if room_no is not None and room.number != room_no:
            continue
        found += [c for c in cards.table_cards(room) if table_no is None or c.table == table_no]
    if (room_no is not None or table_no is not None) and not found:
        raise Http404(_("No such table in this session."))
    # Each card carries the table's scoring QR: players open the table's sheets with it.
    keys = {
        (room, table): key
        for room, table, key in Table.objects.filter(room__session=session).values_list(
            "room__number", "number", "key"
        )
    }
    items = []
    for card in found:
        url = table_url(request, keys[(card.room, card.table)])
        items.append((card, url, qr_svg(url, scale=3)))
    return render(
        request,
        "movements/table_cards.html",
        {
            "event": event,
            "session": session,
            "items": items,
            "paper": _paper(request),
            "several_rooms": session.rooms.count() > 1,
        },
    )


@director_event
@query_errors
def participant_cards(request, event, number):
    session = _session(event, number)
    who = _int_param(request, "participant")
    found = [
        c
        for c in cards.participant_cards(seating.session_seating(session))
        if who is None or c.number == who
    ]
    if who is not None and not found:
        raise Http404(_("No such participant in this session."))
    return render(
        request,
        "movements/participant_cards.html",
        {
            "event": event,
            "session": session,
            "cards": found,
            "paper": _paper(request),
            "several_rooms": session.rooms.count() > 1,
        },
    )


# --- files: CSV and XLSX (movements.spreadsheet) ---------------------------------------------


def _seat_header() -> list[str]:
    header = []
    for position in cards.POSITIONS:
        header += [f"{position} №", position]
    return header


def _file(event, session, kind: str, what: str, title: str, header, rows) -> HttpResponse:
    name = f"{slugify(event.name) or 'event'}-session-{session.number}-{what}"
    return spreadsheet.file_response(kind, [header, *rows], name, title)


@director_event
def grid_file(request, event, number, kind):
    session = _session(event, number)
    header = [_("Room"), _("Round"), _("Table"), _("Set"), *_seat_header(), _("Pause")]
    rows = cards.grid_csv_rows(seating.session_seating(session))
    return _file(event, session, kind, "grid", _("Whole grid"), header, rows)


@director_event
def table_file(request, event, number, kind):
    session = _session(event, number)
    header = [_("Room"), _("Table"), _("Round"), _("Set"), *_seat_header(), _("Set goes to")]
    found = [c for room in seating.session_seating(session) for c in cards.table_cards(room)]
    rows = cards.table_csv_rows(found, director=_("director"))
    return _file(event, session, kind, "tables", _("Table cards"), header, rows)


@director_event
def participant_file(request, event, number, kind):
    session = _session(event, number)
    header = [
        _("Participant"),
        _("Player"),
        _("Round"),
        _("Room"),
        _("Table"),
        _("Position"),
        _("Set"),
    ]
    found = cards.participant_cards(seating.session_seating(session))
    rows = cards.participant_csv_rows(found, pause=_("pause"))
    return _file(event, session, kind, "participants", _("Participant cards"), header, rows)


# --- custom schemes ---------------------------------------------------------------------------


def _scheme_balance(data: dict) -> dict:
    schedule = engine.scheme_schedule(data)
    room = cards.room_from_schedule(schedule)
    return {
        "schedule": schedule,
        "room": room,
        "grid": cards.grid(room),
        "figures": option_figures(
            {
                "metrics": engine.metrics(schedule)
                | {"rounds": {"min": schedule.rounds, "max": schedule.rounds}}
            }
        ),
    }


@login_required
def scheme_list(request):
    own = Scheme.objects.filter(owner=request.user).order_by("participants", "name")
    builtin = [
        {"participants": n, "title": builtin_title(n, data.get("name", ""))}
        for n, data in sorted(schemes.load_schemes().items())
    ]
    return render(request, "movements/scheme_list.html", {"schemes": own, "builtin": builtin})


@login_required
def scheme_create(request):
    form = SchemeForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            scheme = services.scheme_create(
                request.user, name=form.cleaned_data["name"], data=form.cleaned_data["scheme"]
            )
        except ValidationError as error:
            source = form.cleaned_data.get("source", "text")
            fields = error.error_dict if hasattr(error, "error_dict") else {None: error.messages}
            for field, errors in fields.items():
                form.add_error(source if field == "data" else field, errors)
        else:
            messages.success(
                request,
                _("Scheme «%(name)s» for %(count)d participants saved.")
                % {"name": scheme.name, "count": scheme.participants},
            )
            return redirect("director:scheme_detail", scheme_pk=scheme.pk)
    return render(
        request,
        "movements/scheme_form.html",
        {"form": form, "example": EXAMPLE_SCHEME},
        status=400 if form.errors else 200,
    )


@login_required
def scheme_detail(request, scheme_pk):
    scheme = get_object_or_404(Scheme, pk=scheme_pk, owner=request.user)
    context = {"scheme": scheme}
    try:
        context |= _scheme_balance(scheme.as_scheme())
    except ValueError as error:
        context["broken"] = str(error)
    return render(request, "movements/scheme_detail.html", context)


EXAMPLE_SCHEME = """{
  "groups": [
    {"route": ["1S", "1W", "2W", "1E", "2N", "2S", "2E"], "fixed": {"8": "1N"}}
  ],
  "set_groups": [[1, 2]]
}"""
