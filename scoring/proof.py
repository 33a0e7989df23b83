"""Who writes on a table's page: the two-person rule.

A table's round page (/t/<round key>/) is opened on a phone the table shares: from the QR
code on the table card, whose gate asks a seat of the round and its player's PIN, or from a
player's own page. Once open, that link says nothing about who holds the phone, so a player
writing there names his seat and shows that he is that seat's player by something of his
own:

- his **own private link** (his phone, «Протоколы моего стола»: the page carries his key), or
- his **PIN**, printed on his name card, typed on the shared phone.

What each proof allows (``scoring.services`` decides; this module only finds who it is):

- *Entering* a sheet: any seat of the table. Without proof (the seat merely chosen) the
  sheet is marked for the director as entered unproven, and only while the round is the
  one at the table now (on the clock, or over and the table's next round not started): a
  round the director opens again later is written with a proof only.
- *Confirming*: only with a proof, and only by a player of another seat than the one who
  entered. So a confirmed sheet always carries a second person's own proof.

Wrong PINs are counted per player in the database (:class:`scoring.models.PinFailures`, so
the rule holds with Redis down): after ``PIN_FAILURES_ALLOWED`` within ``PIN_LOCK_SECONDS``
of the first of them that player's PIN is refused (even when right) until the window is
over; his own link still works. Four digits, five tries in fifteen minutes: a guesser has
about one chance in two thousand per window.

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


def seconds_locked(entry_pk: int) -> int:
    """How long this player's PIN is still refused; 0 when it may be tried (one query)."""
    now = timezone.now()
    until = (
        PinFailures.objects.filter(
            entry_id=entry_pk, count__gte=_setting("PIN_FAILURES_ALLOWED", 5), until__gt=now
        )
        .values_list("until", flat=True)
        .first()
    )
    return max(0, math.ceil((until - now).total_seconds())) if until else 0


def _count_failure(entry_pk: int) -> None:
    """One more wrong PIN for this player, in the window that began with the first of them;
    one past its end begins a new window. The row, made once, is changed by one conditional
    UPDATE, so that phones failing at once each count (the row lock orders them). Counted in
    autocommit (:func:`identify` runs in the views, before any write's transaction), so the
    refusal that follows cannot roll it back."""
    now = timezone.now()
    window = timedelta(seconds=_setting("PIN_LOCK_SECONDS", 900))
    # Made with a window already closed (long before any phone's «now»): the first UPDATE
    # opens it, whichever of several phones failing at once comes first. (With «until=now»
    # a phone whose «now» was read a moment earlier found that window open, counted in it,
    # and the next one, its own «now» no longer inside, began the window again: one lost.)
    PinFailures.objects.bulk_create(
        [PinFailures(entry_id=entry_pk, count=0, until=now - window)], ignore_conflicts=True
    )
    open_window = Q(until__gt=now)
    PinFailures.objects.filter(entry_id=entry_pk).update(
        count=Case(When(open_window, then=F("count") + 1), default=Value(1)),
        until=Case(When(open_window, then=F("until")), default=Value(now + window)),
    )


def _locked_text(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many wrong PINs for this player: try again in %(m)d minute, confirm from your "
        "own page, or ask the director.",
        "Too many wrong PINs for this player: try again in %(m)d minutes, confirm from your "
        "own page, or ask the director.",
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
) -> Identity | None:
    """Who writes: the seat named (``position``, from the page's choice) or, without one,
    the seat of the player whose own key the page carries (``key``); None when neither
    names a seat of ``seats`` (the table-round's seats, entries selected). ``access``: the
    table-round's :class:`scoring.services.PlayersAccess`, asked by the caller first.

    The proof: the key, when it is that seat's player's own; else the PIN, when given;
    else none (:attr:`Proof.SEAT`). A PIN while the round may not be written is a
    ValidationError on ``pin`` with the round's reason, neither compared nor counted. A PIN
    that is not the seat's player's is a ValidationError on ``pin`` (and counted); so is
    any PIN while his is locked. ``named``: whether the words may name the seat's player
    (not on the table's gate, which shows nobody's name)."""
    seats = list(seats)
    by_key = next((s for s in seats if key and s.entry.key == key), None)
    seat = next((s for s in seats if s.position == position), None) if position else by_key
    if seat is None:
        return None
    if by_key is not None and by_key.pk == seat.pk:
        return Identity(seat, Proof.LINK)
    pin = (pin or "").strip()
    if not pin:
        return Identity(seat, Proof.SEAT)
    if access is None or not access.open:
        # Not his to write now: nothing to prove, so nothing compared and nothing counted.
        raise ValidationError(
            {"pin": access.reason if access is not None and access.reason else _closed_text()}
        )
    locked = seconds_locked(seat.entry_id)
    if locked:
        raise ValidationError({"pin": _locked_text(locked)})
    if not hmac.compare_digest(pin.encode(), (seat.entry.pin or "").encode()):
        _count_failure(seat.entry_id)
        locked = seconds_locked(seat.entry_id)
        if locked:
            raise ValidationError({"pin": _locked_text(locked)})
        if not named:
            raise ValidationError(
                {
                    "pin": _(
                        "This is not the PIN of the player at seat %(seat)s: type the %(n)d "
                        "digits printed on your name card."
                    )
                    % {"seat": seat.position, "n": PIN_DIGITS}
                }
            )
        raise ValidationError(
            {
                "pin": _(
                    "This is not the PIN of %(seat)s %(name)s: type the %(n)d digits printed on "
                    "the name card of the player who is writing."
                )
                % {"seat": seat.position, "name": seat.entry.full_name, "n": PIN_DIGITS}
            }
        )
    return Identity(seat, Proof.PIN)
