"""Every write to events, entries and draws goes through here (views only translate)."""

import random
import secrets
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from events import roster
from events.models import Draw, Entry, Event

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
)


def event_create(*, owner, **fields) -> Event:
    event = Event(owner=owner, **{k: v for k, v in fields.items() if k in EVENT_FIELDS})
    event.full_clean()
    event.save()
    return event


# Changing these would change settlements already stored with the sheets.
SETTLED_FIELDS = ("pot_rule", "suit_order")


def event_update(event: Event, **fields) -> Event:
    from scoring.models import ScoreSheet

    changing = [n for n in SETTLED_FIELDS if n in fields and fields[n] != getattr(event, n)]
    if changing and ScoreSheet.objects.filter(play__round__room__session__event=event).exists():
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
    return event


def event_set_results_public(event: Event, public: bool) -> Event:
    event.results_public = public
    event.save(update_fields=["results_public", "updated_at"])
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
    holder = event.entries.filter(number=number).exclude(pk=exclude_pk).first()
    if holder:
        raise _number_taken_error(number, holder)


def entry_create(
    event: Event, *, last_name: str, first_name: str, club: str = "", number: int | None = None
) -> Entry:
    entry = Entry(
        event=event,
        last_name=last_name.strip(),
        first_name=first_name.strip(),
        club=club.strip(),
        number=number,
    )
    entry.full_clean(validate_constraints=False)
    with transaction.atomic():
        _check_number_free(event, number)
        entry.save()
    return entry


def entry_update(entry: Entry, **fields) -> Entry:
    for name in ("last_name", "first_name", "club", "number"):
        if name in fields:
            value = fields[name]
            setattr(entry, name, value.strip() if isinstance(value, str) else value)
    entry.full_clean(validate_constraints=False)
    with transaction.atomic():
        _check_number_free(entry.event, entry.number, exclude_pk=entry.pk)
        entry.save()
    return entry


def entry_withdraw(entry: Entry) -> Entry:
    entry.status = Entry.Status.WITHDRAWN
    entry.save(update_fields=["status"])
    return entry


def entry_reinstate(entry: Entry) -> Entry:
    entry.status = Entry.Status.ACTIVE
    entry.save(update_fields=["status"])
    return entry


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


def entries_import(event: Event, rows: list[roster.RosterRow]) -> list[Entry]:
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
        return Entry.objects.bulk_create(entries)


def draw_numbers(entries: list[Entry], seed: str) -> dict[int, int]:
    """Numbers 1..n for the entries, shuffled by the seed: same seed and list, same draw."""
    ordered = sorted(entries, key=lambda e: e.pk)
    numbers = list(range(1, len(ordered) + 1))
    random.Random(f"preference-draw:{seed}").shuffle(numbers)
    return {entry.pk: number for entry, number in zip(ordered, numbers, strict=True)}


def draw_make(event: Event, *, by=None, seed: str | None = None) -> Draw:
    """Give every playing entry a number by lot; withdrawn players lose theirs."""
    seed = (seed or "").strip() or secrets.token_hex(4)
    if len(seed) > 64:
        raise ValidationError({"seed": _("The seed is longer than 64 characters.")})
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)
        active = list(event.entries.active())
        if not active:
            raise ValidationError(_("There are no playing players to draw numbers for."))
        numbers = draw_numbers(active, seed)
        # Clear first so the unique (event, number) constraint never sees a swap half-done.
        event.entries.update(number=None)
        for entry in active:
            entry.number = numbers[entry.pk]
        Entry.objects.bulk_update(active, ["number"])
        return Draw.objects.create(
            event=event, seed=seed, made_by=by, numbers={str(k): v for k, v in numbers.items()}
        )
