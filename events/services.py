"""Every write to events, entries and draws goes through here (views only translate)."""

import random
import secrets
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from events import clockdoc, meanwhile, roster, signals
from events.actionlog import log_action
from events.models import GAME_FIELDS, Draw, Entry, Event, Round, Seat, Session, Substitution
from events.names import clean_name

EVENT_FIELDS = (
    "name",
    "date",
    "venue",
    "minutes_per_deal",
    "scoring_method",
    "pot_rule",
    "stake",
    "suit_order",
    "average_plus",
    "average",
    "average_minus",
    *GAME_FIELDS,
)


def event_create(*, owner, **fields) -> Event:
    """A new event of ``owner`` (its chief director); its log's first line says so, written
    with it."""
    event = Event(owner=owner, **{k: v for k, v in fields.items() if k in EVENT_FIELDS})
    event.full_clean()
    with transaction.atomic():
        event.save()
        log_action(event, owner, "event.create", after={"name": event.name})
    return event


# Changing these would change settlements already stored with the sheets.
SETTLED_FIELDS = ("pot_rule", "suit_order", *GAME_FIELDS)


def event_update(event: Event, **fields) -> Event:
    changing = [n for n in SETTLED_FIELDS if n in fields and fields[n] != getattr(event, n)]
    if changing and signals.any_answer(signals.results_recorded, sender=Event, event=event):
        raise ValidationError(
            {
                name: _("Sheets are already recorded with this rule; it can no longer change.")
                for name in changing
            }
        )
    for name, value in fields.items():
        if name in EVENT_FIELDS:
            setattr(event, name, value)
    event.full_clean()
    event.save()
    clockdoc.setup_changed()  # its name and minutes per deal are on every clock
    return event


def event_set_results_public(event: Event, public: bool, *, by_user=None) -> Event:
    """Publish the event's results (or hide them again); the director's action, logged."""
    with transaction.atomic():
        was = Event.objects.filter(pk=event.pk).values_list("results_public", flat=True).first()
        event.results_public = public
        event.save(update_fields=["results_public", "updated_at"])
        log_action(event, by_user, "publish", before={"public": was}, after={"public": public})
    clockdoc.results_changed(event.pk)  # its public pages: shown now, or hidden again
    return event


def _number_taken_error(entry_number: int, holder: Entry) -> ValidationError:
    return ValidationError(
        {
            "number": _("Participant number %(number)d is already taken by %(name)s.")
            % {"number": entry_number, "name": holder.full_name}
        }
    )


def _check_number_free(event: Event, number: int | None, exclude_pk: int | None = None) -> None:
    if number is None:
        return
    others = event.entries.filter(number=number).exclude(pk=exclude_pk)
    holder = others.holding_numbers().first() or others.first()
    if holder:
        raise _number_taken_error(number, holder)


def _entry_state(entry: Entry) -> dict:
    """A player's entry as a log line keeps it."""
    return {
        "entry": entry.pk,
        "name": entry.full_name,
        "club": entry.club or None,
        "player": entry.number,
        "status": entry.status,
    }


def entry_create(
    event: Event,
    *,
    last_name: str,
    first_name: str,
    club: str = "",
    number: int | None = None,
    by_user=None,
) -> Entry:
    entry = Entry(
        event=event,
        last_name=clean_name(last_name),
        first_name=clean_name(first_name),
        club=clean_name(club),
        number=number,
    )
    entry.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            _check_number_free(event, number)
            entry.save()
            log_action(event, by_user, "entries.change", after=_entry_state(entry))
    except IntegrityError:
        # Another request took the number between the check and the insert: say whose.
        _check_number_free(event, number)
        raise
    return entry


def entry_update(entry: Entry, *, by_user=None, expected=None, **fields) -> Entry:
    """Change a player's names, club or number. ``expected``: his fields as the writer's
    page showed them (``events.meanwhile.entry_token``); changed meanwhile by someone else,
    nothing is saved and the refusal names each field, old → new, and who changed it."""
    old = Entry.objects.filter(pk=entry.pk).first()
    if old is not None:
        meanwhile.check_entry(old, expected)
    was = old.number if old is not None else None
    for name in ("last_name", "first_name", "club", "number"):
        if name in fields:
            value = fields[name]
            setattr(entry, name, clean_name(value) if isinstance(value, str) else value)
    entry.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            if expected is not None and old is not None:
                # Again under the row's lock: two saves at once, the second one is refused.
                meanwhile.check_entry(Entry.objects.select_for_update().get(pk=old.pk), expected)
            if entry.number != was:
                _check_number_unseated(entry, was)
                _check_number_free(entry.event, entry.number, exclude_pk=entry.pk)
            entry.save()
            clockdoc.setup_changed()  # his name is on the director's console
            before, after = _entry_state(old) if old else None, _entry_state(entry)
            if before != after:
                log_action(entry.event, by_user, "entries.change", before=before, after=after)
    except IntegrityError:
        # Another request took the number between the check and the write: say whose.
        _check_number_free(entry.event, entry.number, exclude_pk=entry.pk)
        raise
    return entry


def _check_number_unseated(entry: Entry, was: int | None) -> None:
    """A seated player's number is on the grid, the cards and the phones: it stays."""
    seat = (
        Seat.objects.filter(entry=entry)
        .order_by("round__room__session__number")
        .values_list("participant", "round__room__session__number")
        .first()
    )
    if seat is not None:
        raise ValidationError(
            {
                "number": _(
                    "%(name)s is seated as participant %(number)d in session %(session)d: the "
                    "number is printed on the grid and the cards and cannot change."
                )
                % {"name": entry.full_name, "number": seat[0], "session": seat[1]}
            }
        )


@dataclass(frozen=True)
class WithdrawalEffect:
    """What withdrawing a player means, for the confirmation page and the refusal."""

    number: int | None
    session: int | None  # the session he still has seats in (rounds not over), if any
    from_round: int | None  # his first such round
    seats: int  # how many such seats

    @property
    def seated(self) -> bool:
        return self.seats > 0


def withdrawal_effect(entry: Entry) -> WithdrawalEffect:
    pending = Seat.objects.filter(entry=entry).exclude(round__state=Round.State.FINISHED)
    first = (
        pending.order_by("round__room__session__number", "round__number")
        .values_list("round__room__session__number", "round__number")
        .first()
    )
    if first is None:
        return WithdrawalEffect(entry.number, None, None, 0)
    return WithdrawalEffect(
        entry.number,
        first[0],
        first[1],
        pending.filter(round__room__session__number=first[0]).count(),
    )


def withdrawal_warning(entry: Entry, effect: WithdrawalEffect) -> str:
    return _(
        "%(name)s is seated as participant %(number)s in session %(session)d from round "
        "%(round)d on. His seats stay in the movement: unless a substitute takes his place "
        "(on the session page), his table plays without him. His results so far stay in the "
        "standings, and he is not counted for the next session."
    ) % {
        "name": entry.full_name,
        "number": effect.number if effect.number is not None else "—",
        "session": effect.session,
        "round": effect.from_round,
    }


def entry_withdraw(entry: Entry, *, confirmed: bool = False, by_user=None) -> Entry:
    """Take a player out of the event. A player still seated in rounds not yet over is
    withdrawn only on confirmation (``confirmed``), which the page and the API ask for."""
    entry = Entry.objects.get(pk=entry.pk)
    if entry.status == Entry.Status.REPLACED:
        raise ValidationError({"status": _replaced_text(entry)})
    if entry.status == Entry.Status.WITHDRAWN:
        return entry
    effect = withdrawal_effect(entry)
    if effect.seated and not confirmed:
        raise ValidationError(
            {
                "confirm": _("Confirm the withdrawal. %(warning)s")
                % {"warning": withdrawal_warning(entry, effect)}
            }
        )
    before = _entry_state(entry)
    entry.status = Entry.Status.WITHDRAWN
    with transaction.atomic():
        entry.save(update_fields=["status"])
        log_action(entry.event, by_user, "entries.change", before=before, after=_entry_state(entry))
    return entry


def entry_reinstate(entry: Entry, *, by_user=None) -> Entry:
    entry = Entry.objects.get(pk=entry.pk)
    if entry.status == Entry.Status.REPLACED:
        raise ValidationError(
            {
                "status": _(
                    "%(replaced)s To bring him back, put him in as a substitute on the "
                    "session page."
                )
                % {"replaced": _replaced_text(entry)}
            }
        )
    if entry.status == Entry.Status.ACTIVE:
        return entry
    before = _entry_state(entry)
    entry.status = Entry.Status.ACTIVE
    with transaction.atomic():
        entry.save(update_fields=["status"])
        log_action(entry.event, by_user, "entries.change", before=before, after=_entry_state(entry))
    return entry


def last_substitution(entry: Entry) -> Substitution | None:
    """The substitution that took this player out, if he is replaced."""
    return (
        Substitution.objects.filter(leaving=entry)
        .select_related("arriving", "session")
        .order_by("-session__number", "-from_round", "-id")
        .first()
    )


def _replaced_text(entry: Entry) -> str:
    sub = last_substitution(entry)
    if sub is None:
        return _("%(name)s was replaced by a substitute.") % {"name": entry.full_name}
    return _(
        "%(name)s was replaced by %(substitute)s from round %(round)d of session %(session)d; "
        "number %(number)d is the substitute's now."
    ) % {
        "name": entry.full_name,
        "substitute": sub.arriving.full_name,
        "round": sub.from_round,
        "session": sub.session.number,
        "number": sub.number,
    }


@dataclass
class RosterCheck:
    rows: list[roster.RosterRow]

    @property
    def ok(self) -> bool:
        return all(row.ok for row in self.rows)

    @property
    def problem_count(self) -> int:
        return sum(1 for row in self.rows if not row.ok)


def roster_check(event: Event, rows: list[roster.RosterRow]) -> RosterCheck:
    taken = {e.number: e.full_name for e in event.entries.numbered()}
    people = {
        (e.last_name.lower(), e.first_name.lower(), e.club.lower()) for e in event.entries.all()
    }
    roster.check_against_event(rows, taken, people)
    return RosterCheck(rows=rows)


def entries_import(event: Event, rows: list[roster.RosterRow], *, by_user=None) -> list[Entry]:
    """Save every row, or none: any problem in any row refuses the whole list."""
    with transaction.atomic():
        # Lock the event so two imports cannot both take the same numbers.
        Event.objects.select_for_update().get(pk=event.pk)
        check = roster_check(event, rows)
        if not check.ok:
            raise ValidationError(
                _("%(count)d rows have problems; nothing was saved.")
                % {"count": check.problem_count}
            )
        entries = [
            Entry(
                event=event,
                last_name=r.last_name,
                first_name=r.first_name,
                club=r.club,
                number=r.number,
            )
            for r in rows
        ]
        made = Entry.objects.bulk_create(entries)
        log_action(event, by_user, "entries.change", after={"imported": len(made)})
        return made


def draw_numbers(entries: list[Entry], seed: str) -> dict[int, int]:
    """Numbers 1..n for the entries, shuffled by the seed: same seed and list, same draw."""
    ordered = sorted(entries, key=lambda e: e.pk)
    numbers = list(range(1, len(ordered) + 1))
    random.Random(f"preference-draw:{seed}").shuffle(numbers)
    return {entry.pk: number for entry, number in zip(ordered, numbers, strict=True)}


def seated_sessions(event: Event) -> list[int]:
    """Numbers of the sessions in which players have seats (by their numbers)."""
    return list(
        Session.objects.filter(event=event, rooms__rounds__placements__isnull=False)
        .distinct()
        .order_by("number")
        .values_list("number", flat=True)
    )


def draw_refusal(event: Event) -> str | None:
    """Why the numbers cannot be drawn again, or None. Once players are seated the grid, the
    cards and the phones show them by number: a new draw would silently disagree with all."""
    sessions = seated_sessions(event)
    if not sessions:
        return None
    return ngettext(
        "Numbers cannot be drawn again: the players are seated in session %(sessions)s by "
        "these numbers, which the grid, the printed cards and the players' phones show. Keep "
        "the numbers; for a player who cannot go on, put a substitute in his place on the "
        "session page.",
        "Numbers cannot be drawn again: the players are seated in sessions %(sessions)s by "
        "these numbers, which the grid, the printed cards and the players' phones show. Keep "
        "the numbers; for a player who cannot go on, put a substitute in his place on the "
        "session page.",
        len(sessions),
    ) % {"sessions": ", ".join(str(n) for n in sessions)}


def draw_make(event: Event, *, by=None, seed: str | None = None) -> Draw:
    """Give every playing entry a number by lot; withdrawn players lose theirs.

    Refused once players are seated (see :func:`draw_refusal`)."""
    seed = (seed or "").strip() or secrets.token_hex(4)
    if len(seed) > 64:
        raise ValidationError({"seed": _("The seed is longer than 64 characters.")})
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)
        refusal = draw_refusal(event)
        if refusal:
            raise ValidationError({"numbers": refusal})
        active = list(event.entries.active())
        if not active:
            raise ValidationError(_("There are no playing players to draw numbers for."))
        numbers = draw_numbers(active, seed)
        # Clear first so the unique (event, number) constraint never sees a swap half-done.
        event.entries.update(number=None)
        for entry in active:
            entry.number = numbers[entry.pk]
        Entry.objects.bulk_update(active, ["number"])
        log_action(event, by, "entries.change", after={"drawn": len(active), "seed": seed})
        return Draw.objects.create(
            event=event, seed=seed, made_by=by, numbers={str(k): v for k, v in numbers.items()}
        )
