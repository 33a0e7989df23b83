"""Who writes on a table's page: the two-person rule.

A table's round page (/t/<round key>/) is opened on a phone the table shares: from the QR
code on the table card, whose gate asks a seat of the round and its player's PIN, or from a
player's own page. Once open, that link says nothing about who holds the phone, so a player
writing there names his seat and shows that he is that seat's player by something of his
own:

- his **own private link** (his phone, «Протоколы моего стола»: the page carries his key), or
- his **PIN**, printed on his name card, typed on the shared phone.

What each proof allows (``scoring.sheets.services`` decides; this module only finds who it is):

- *Entering* a sheet: any seat of the table. Without proof (the seat merely chosen) the
  sheet is marked for the director as entered unproven, and only while the round is the
  one at the table now (on the clock, or over and the table's next round not started): a
  round the director opens again later is written with a proof only.
- *Confirming*: only with a proof, and only by a player of another seat than the one who
  entered. So a confirmed sheet always carries a second person's own proof.

Wrong PINs are counted in the database (:class:`scoring.models.PinFailures`, so the rule
holds with Redis down), so that a guesser locks himself, not the player he guesses at:

- **per phone and player** (the phone: ``scoring.sheets.device.device_hash``): after
  ``PIN_FAILURES_ALLOWED`` wrong PINs for a player from one phone within
  ``PIN_LOCK_SECONDS`` of the first of them, that phone may not try his PIN (refused even
  when right) until the window is over. His right PIN from another phone still works, and
  so do his own link and the director.
- **per player, across phones**: after ``PIN_FAILURES_ALLOWED_PLAYER`` (more) within the
  same window, his PIN is refused on every phone until it is over, so that a guesser who
  drops his cookies (a new phone to the count) cannot guess without bound. His own link
  clears it (:func:`link_proven`: when he writes by it, or opens his own page).

Four digits, ten tries per window across phones: a guesser has about one chance in a
thousand per window — ten more each time the player opens his own page in it, since that
clears the count (the price of letting the player undo a lock by himself). A caller that
does not say which phone (``device`` empty) counts as one phone shared by all such callers.

A PIN is compared, and a wrong one counted, only where its player may write now: his seat
at a table-round whose sheets are open to its players (``services.players_access``). Sent
for a round that may not be written (closed, over and moved on, not started) it is refused
with that round's reason and counts nothing — else any table's phone could lock another
player's PIN from a closed sheet of his old table, and a closed round would be a place to
guess PINs without a count.
"""

from __future__ import annotations

import hmac
import math
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from events.models import PIN_DIGITS, Seat
from scoring.models import PinFailures, Proof


@dataclass(frozen=True)
class Identity:
    """The player writing on a table's page: his seat (with its entry) and how he showed
    it was he (:class:`scoring.models.Proof`)."""

    seat: Seat
    proof: str

    @property
    def entry(self):
        return self.seat.entry

    @property
    def proven(self) -> bool:
        return self.proof in (Proof.LINK, Proof.PIN)


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


#: The phone of a caller that does not say which: all such share one count, as one phone.
UNKNOWN_PHONE = "?"


@dataclass(frozen=True)
class Lock:
    """Why and how long a phone may not try a player's PIN: ``every_phone`` when the lock is
    the player's own (across phones), else the phone's for that player."""

    seconds: int
    every_phone: bool


def _phone(device: str) -> str:
    return device or UNKNOWN_PHONE


def lock_of(entry_pk: int, device: str = "") -> Lock | None:
    """The lock on this player's PIN from this phone, if any (one query): the player's own
    when both hold, since another phone would not help."""
    now = timezone.now()
    phone = _phone(device)
    allowed = {
        phone: _setting("PIN_FAILURES_ALLOWED", 5),
        PinFailures.EVERY_PHONE: _setting("PIN_FAILURES_ALLOWED_PLAYER", 10),
    }
    rows = PinFailures.objects.filter(
        entry_id=entry_pk, device__in=list(allowed), until__gt=now
    ).values_list("device", "count", "until")
    found = None
    for row_device, count, until in rows:
        if count < allowed[row_device]:
            continue
        lock = Lock(
            max(1, math.ceil((until - now).total_seconds())),
            every_phone=row_device == PinFailures.EVERY_PHONE,
        )
        if found is None or lock.every_phone:
            found = lock
    return found


def seconds_locked(entry_pk: int, device: str = "") -> int:
    """How long this player's PIN is still refused on this phone; 0 when it may be tried."""
    lock = lock_of(entry_pk, device)
    return lock.seconds if lock else 0


def _count_failure(entry_pk: int, device: str = "") -> None:
    """One more wrong PIN for this player, from this phone: on the phone's count and on the
    player's across phones, each in the window that began with its first failure; one past
    its end begins a new window. The rows, made once, are changed by one conditional UPDATE,
    so that phones failing at once each count (the row locks order them). Counted in
    autocommit (:func:`identify` runs in the views, before any write's transaction), so the
    refusal that follows cannot roll it back."""
    now = timezone.now()
    window = timedelta(seconds=_setting("PIN_LOCK_SECONDS", 900))
    devices = [_phone(device), PinFailures.EVERY_PHONE]
    # Made with a window already closed (long before any phone's «now»): the first UPDATE
    # opens it, whichever of several phones failing at once comes first. (With «until=now»
    # a phone whose «now» was read a moment earlier found that window open, counted in it,
    # and the next one, its own «now» no longer inside, began the window again: one lost.)
    PinFailures.objects.bulk_create(
        [PinFailures(entry_id=entry_pk, device=d, count=0, until=now - window) for d in devices],
        ignore_conflicts=True,
    )
    open_window = Q(until__gt=now)
    PinFailures.objects.filter(entry_id=entry_pk, device__in=devices).update(
        count=Case(When(open_window, then=F("count") + 1), default=Value(1)),
        until=Case(When(open_window, then=F("until")), default=Value(now + window)),
    )


def link_proven(entry_pk: int) -> None:
    """The player has shown his own link: his PIN's lock across phones, and its count, are
    cleared (a phone's own lock for him stays: that phone guessed). One read; a write only
    when there is a count to clear, so that a page opened often does not write each time."""
    mine = PinFailures.objects.filter(entry_id=entry_pk, device=PinFailures.EVERY_PHONE)
    if mine.exists():
        mine.delete()


def _locked_text(lock: Lock) -> str:
    minutes = max(1, math.ceil(lock.seconds / 60))
    if lock.every_phone:
        return ngettext(
            "Too many wrong PINs for this player from several phones: his PIN is refused on "
            "every phone for %(m)d minute. Opening his own page (the QR code on his name card) "
            "clears it; or ask the director.",
            "Too many wrong PINs for this player from several phones: his PIN is refused on "
            "every phone for %(m)d minutes. Opening his own page (the QR code on his name card) "
            "clears it; or ask the director.",
            minutes,
        ) % {"m": minutes}
    return ngettext(
        "Too many wrong PINs for this player from this phone: it may try his PIN again in "
        "%(m)d minute. His own page or another phone still works, or ask the director.",
        "Too many wrong PINs for this player from this phone: it may try his PIN again in "
        "%(m)d minutes. His own page or another phone still works, or ask the director.",
        minutes,
    ) % {"m": minutes}


def _closed_text() -> str:
    return _("The sheets of this table-round cannot be written now: ask the director.")


def identify(
    seats,
    *,
    access,
    position: str | None = None,
    key: str | None = None,
    pin: str | None = None,
    named: bool = True,
    device: str = "",
) -> Identity | None:
    """Who writes: the seat named (``position``, from the page's choice) or, without one,
    the seat of the player whose own key the page carries (``key``); None when neither
    names a seat of ``seats`` (the table-round's seats, entries selected). ``access``: the
    table-round's :class:`scoring.sheets.services.PlayersAccess`, asked by the caller first.

    The proof: the key, when it is that seat's player's own; else the PIN, when given;
    else none (:attr:`Proof.SEAT`). A PIN while the round may not be written is a
    ValidationError on ``pin`` with the round's reason, neither compared nor counted. A PIN
    that is not the seat's player's is a ValidationError on ``pin`` (and counted); so is
    any PIN while his is locked for this phone (:func:`lock_of`). ``named``: whether the
    words may name the seat's player (not on the table's gate, which shows nobody's name).
    ``device``: the phone asking (``scoring.sheets.device.device_hash``); empty, one phone shared by
    every caller that does not say. His own key clears his lock across phones
    (:func:`link_proven`)."""
    seats = list(seats)
    by_key = next((s for s in seats if key and s.entry.key == key), None)
    seat = next((s for s in seats if s.position == position), None) if position else by_key
    if seat is None:
        return None
    if by_key is not None and by_key.pk == seat.pk:
        link_proven(seat.entry_id)
        return Identity(seat, Proof.LINK)
    pin = (pin or "").strip()
    if not pin:
        return Identity(seat, Proof.SEAT)
    if access is None or not access.open:
        # Not his to write now: nothing to prove, so nothing compared and nothing counted.
        raise ValidationError(
            {"pin": access.reason if access is not None and access.reason else _closed_text()}
        )
    _compare_pin(seat, pin, device, named=named)
    return Identity(seat, Proof.PIN)


def _wrong_pin_text(seat: Seat, *, named: bool) -> str:
    if not named:
        return _(
            "This is not the PIN of the player at seat %(seat)s: type the %(n)d "
            "digits printed on your name card."
        ) % {"seat": seat.position, "n": PIN_DIGITS}
    return _(
        "This is not the PIN of %(seat)s %(name)s: type the %(n)d digits printed on "
        "the name card of the player who is writing."
    ) % {"seat": seat.position, "name": seat.entry.full_name, "n": PIN_DIGITS}


def _compare_pin(seat: Seat, pin: str, device: str, *, named: bool) -> None:
    """The PIN typed for ``seat``'s player, compared on ``device``: refused while his PIN is
    locked for the phone; a wrong one counted (and locking once too many) and refused on
    ``pin``, naming the player when ``named``. The one comparison of sheets and check-in."""
    lock = lock_of(seat.entry_id, device)
    if lock:
        raise ValidationError({"pin": _locked_text(lock)})
    if not hmac.compare_digest(pin.encode(), (seat.entry.pin or "").encode()):
        _count_failure(seat.entry_id, device)
        lock = lock_of(seat.entry_id, device)
        if lock:
            raise ValidationError({"pin": _locked_text(lock)})
        raise ValidationError({"pin": _wrong_pin_text(seat, named=named)})


def checkin_pin(seat: Seat, pin: str, *, device: str = "") -> None:
    """A player's PIN for his check-in on the table's gate (``events.checkin``): his seat at
    that table in the round the check-in is about, asked only while that check-in is open
    (the caller asks it first) — what he may do now, so the PIN is compared there, a wrong
    one counted and locked as for a sheet (:func:`lock_of`). Wrong, missing or locked: a
    ValidationError on ``pin``, naming nobody (the gate shows no name)."""
    pin = (pin or "").strip()
    if not pin:
        raise ValidationError(
            {
                "pin": _("Type your PIN: the %(n)d digits printed on your name card.")
                % {"n": PIN_DIGITS}
            }
        )
    _compare_pin(seat, pin, device, named=False)
