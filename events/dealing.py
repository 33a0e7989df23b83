"""The cards of a session's boxes: dealing them from a seed, entering them in full, and
checking a dealt session against its revealed seed (docs/hand-records.md, docs/game.md §5).

- ``session_deal``: a computer-dealt session gets a fresh seed; every deal of every set is
  dealt from it (``events.cards.deal_from_seed``) in the caller's transaction. The seed's
  SHA-256 is shown from the start; the seed itself only once the results are published.
- ``deal_cards_enter``: the director writes a by-hand box's cards (each active pocket's ten
  cards and the talon, or one PPN string); every problem names its field and the rule.
- ``session_check``: the session dealt again from its seed, deal by deal, for anyone to see
  that nobody chose the cards.

The double-dummy analysis is the scoring layer's: it is queued by name after commit.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from celery import current_app
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from events import afterwards, cards, clockdoc
from events.models import Deal, Session

ANALYSE_TASK = "scoring.deals_analyse"

logger = logging.getLogger(__name__)


def analysis_queue(session_id: int, deal_ids: list[int] | None = None) -> None:
    """The double-dummy analysis of the session's deals, after commit and response (by
    name: the task is the scoring layer's). Optional work: a broker that cannot take it is
    logged, and «Проанализировать» on the session page queues it again."""

    # The cards changed: the public hand records and travellers show them (once played out).
    event_id = Session.objects.filter(pk=session_id).values_list("event_id", flat=True).first()
    if event_id is not None:
        clockdoc.results_changed(event_id)

    def send():
        try:
            current_app.send_task(ANALYSE_TASK, args=(session_id, deal_ids))
        except Exception:
            logger.warning("could not queue the analysis of session %s", session_id)

    afterwards.after_commit_and_response(send)


def deal_cards(deal: Deal) -> cards.DealCards | None:
    """The deal's cards (version 1, as dealt), or None while they are unknown."""
    if not deal.cards:
        return None
    try:
        return cards.from_ppn(deal.cards, tuple(deal.active_seats))
    except cards.CardError:
        return None


def talon_names(dealt: cards.DealCards) -> str:
    """``Deal.talon`` as the sheets store it: names in the suit order S C D H (``"SA H7"``)."""
    return " ".join(cards.card_name(c) for c in cards.sorted_cards(dealt.talon, (0, 1, 2, 3)))


def session_deal(session: Session) -> None:
    """Deal every box of ``session`` from a fresh seed (inside the caller's transaction)."""
    seed = cards.new_seed()
    session.dealing = Session.Dealing.APP
    session.deal_seed = seed
    session.deal_seed_hash = cards.seed_hash(seed)
    session.save(update_fields=["dealing", "deal_seed", "deal_seed_hash"])
    deals = list(Deal.objects.filter(board_set__session=session).select_related("board_set"))
    for deal in deals:
        dealt = cards.deal_from_seed(
            seed,
            deal.board_set.family,
            deal.board_set.number,
            deal.number,
            tuple(deal.active_seats),
        )
        deal.cards = dealt.ppn()
        deal.cards_source = Deal.Source.APP
        deal.talon = talon_names(dealt)
        deal.analysis = None
        deal.analysed_at = None
    Deal.objects.bulk_update(
        deals, ["cards", "cards_source", "talon", "analysis", "analysed_at"], batch_size=500
    )
    analysis_queue(session.pk)


# --- entering a box's cards -----------------------------------------------------------------


def _field_label(field: str) -> str:
    if field == "talon":
        return _("Talon")
    if field == "ppn":
        return _("PPN string")
    return _("Pocket %(seat)s") % {"seat": field}


def _parse_list(field: str, text: str, size: int, errors: dict) -> list[int] | None:
    tokens = (text or "").replace(",", " ").split()
    found: list[int] = []
    for token in tokens:
        try:
            found.append(cards.parse_card(token.upper()))
        except cards.CardError:
            errors[field] = _(
                "%(field)s: «%(card)s» is not a card. Write the suit S, C, D or H and the "
                "rank 7, 8, 9, 10, J, Q, K or A, e.g. SA H10 D7."
            ) % {"field": _field_label(field), "card": token}
            return None
    if len(found) != size:
        if size == cards.TALON_SIZE:
            errors[field] = _("%(field)s: %(count)d cards typed; the talon has 2.") % {
                "field": _field_label(field),
                "count": len(found),
            }
        else:
            errors[field] = _("%(field)s: %(count)d cards typed; a hand has 10.") % {
                "field": _field_label(field),
                "count": len(found),
            }
        return None
    return found


def _twice_errors(fields: list[tuple[str, list[int]]], errors: dict) -> None:
    """Every card once: a card met again is named on the field where it is met again."""
    seen: dict[int, str] = {}
    for field, found in fields:
        for card in found:
            if card in seen and field not in errors:
                first = seen[card]
                errors[field] = (
                    _("%(field)s: %(card)s is typed twice.")
                    % {"field": _field_label(field), "card": cards.card_text(card, get_language())}
                    if first == field
                    else _(
                        "%(field)s: %(card)s is already in «%(other)s»; every card is dealt once."
                    )
                    % {
                        "field": _field_label(field),
                        "card": cards.card_text(card, get_language()),
                        "other": _field_label(first),
                    }
                )
            seen.setdefault(card, field)


def cards_parse(
    active_seats: str, *, hands: dict[str, str] | None = None, ppn: str = ""
) -> cards.DealCards:
    """The cards as typed: each active pocket's names and the talon, or one PPN string.

    ValidationError with one message per field (``N`` … ``S``, ``talon``, ``ppn``)."""
    seats = tuple(active_seats)
    hands = {k: (v or "").strip() for k, v in (hands or {}).items()}
    ppn = (ppn or "").strip()
    typed = any(hands.get(s) for s in (*seats, "talon"))
    if ppn and typed:
        raise ValidationError(
            {"ppn": _("Type either the pockets' cards or one PPN string, not both.")}
        )
    if ppn:
        try:
            return cards.from_ppn(ppn, seats)
        except cards.CardError as error:
            message = {
                "ppn_length": _("PPN string: %(count)d characters typed; it has 32.")
                % {"count": len(ppn)},
                "unknown_card": _(
                    "PPN string: «%(char)s» is not a card of PPN (1–8 spades, 9–G diamonds, "
                    "H–O hearts, P–W clubs)."
                )
                % {"char": error.detail},
                "card_twice": _("PPN string: a card is written twice; every card is dealt once."),
            }.get(error.code, _("PPN string: not a deal of 32 different cards."))
            raise ValidationError({"ppn": message}) from None
    if not typed:
        raise ValidationError(
            {NON_FIELD_ERRORS: _("Type each pocket's ten cards and the talon, or one PPN string.")}
        )
    errors: dict[str, str] = {}
    parsed: list[tuple[str, list[int]]] = []
    for field in (*seats, "talon"):
        size = cards.TALON_SIZE if field == "talon" else cards.HAND_SIZE
        found = _parse_list(field, hands.get(field, ""), size, errors)
        if found is not None:
            parsed.append((field, found))
    _twice_errors(parsed, errors)
    if errors:
        raise ValidationError(errors)
    by_field = dict(parsed)
    return cards.check_deal(
        seats,
        [cards.sorted_cards(by_field[s]) for s in seats],
        cards.sorted_cards(by_field["talon"]),
    )


@transaction.atomic
def deal_cards_enter(deal: Deal, *, hands: dict[str, str] | None = None, ppn: str = "") -> Deal:
    """Write (or correct) a by-hand box's cards; an app-dealt box's cards are its seed's."""
    deal = Deal.objects.select_for_update().select_related("board_set__session").get(pk=deal.pk)
    if deal.cards_source == Deal.Source.APP:
        raise ValidationError(
            _(
                "Deal %(code)s was dealt by the app from the session's seed: its cards cannot "
                "be changed."
            )
            % {"code": deal.code}
        )
    dealt = cards_parse(deal.active_seats, hands=hands, ppn=ppn)
    deal.cards = dealt.ppn()
    deal.cards_source = Deal.Source.ENTERED
    deal.talon = talon_names(dealt)
    deal.analysis = None
    deal.analysed_at = None
    deal.save(update_fields=["cards", "cards_source", "talon", "analysis", "analysed_at"])
    analysis_queue(deal.board_set.session_id, [deal.pk])
    return deal


# --- checking a dealt session ---------------------------------------------------------------


@dataclass(frozen=True)
class DealCheck:
    deal: Deal
    stored: str  # PPN as dealt and kept
    again: str  # PPN dealt again from the revealed seed

    @property
    def equal(self) -> bool:
        return self.stored == self.again


@dataclass(frozen=True)
class SessionCheck:
    seed: str
    seed_hash: str
    hash_ok: bool
    deals: list[DealCheck]

    @property
    def first_card(self) -> str:
        """The shuffle's first card, as the page's language names it («♠7»)."""
        return cards.card_text(0, get_language())

    @property
    def last_card(self) -> str:
        """Its last («♥Т» in Russian, «♥A» in English)."""
        return cards.card_text(cards.DECK_SIZE - 1, get_language())

    @property
    def all_equal(self) -> bool:
        return self.hash_ok and all(d.equal for d in self.deals)


def session_check(session: Session) -> SessionCheck | None:
    """The session dealt again from its seed; None if the app did not deal it."""
    if session.dealing != Session.Dealing.APP or not session.deal_seed:
        return None
    found = []
    for deal in session_deals(session):
        again = cards.deal_from_seed(
            session.deal_seed,
            deal.board_set.family,
            deal.board_set.number,
            deal.number,
            tuple(deal.active_seats),
        )
        found.append(DealCheck(deal, deal.cards, again.ppn()))
    return SessionCheck(
        session.deal_seed,
        session.deal_seed_hash,
        cards.seed_matches(session.deal_seed, session.deal_seed_hash),
        found,
    )


def session_deals(session: Session):
    return (
        Deal.objects.filter(board_set__session=session)
        .select_related("board_set")
        .order_by("board_set__family", "board_set__number", "number")
    )


@dataclass(frozen=True)
class CardsState:
    """What the session page tells of the boxes' cards and their analysis."""

    total: int
    known: int
    analysed: int

    @property
    def analysing(self) -> bool:
        return self.analysed < self.known


def session_deals_known(session_id: int) -> bool:
    return Deal.objects.filter(board_set__session_id=session_id).exclude(cards="").exists()


def session_cards_state(session: Session) -> CardsState:
    deals = Deal.objects.filter(board_set__session=session)
    known = deals.exclude(cards="")
    return CardsState(deals.count(), known.count(), known.filter(analysed_at__isnull=False).count())
