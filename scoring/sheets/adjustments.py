"""Adjustments (docs/game.md §5): a player's artificial score or time penalty at one table-round, and a whole table-round's scores set at once; each marks the deals it touches stale."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from events import meanwhile
from events.models import Event, Round, Seat
from scoring.models import Adjustment, Deal, TablePlay
from scoring.sheets.access import _check_director, _console_changed, _locked_play, _log_play
from scoring.sheets.adjustment_tokens import changes_since, check_adjustments, token_of
from scoring.sheets.check import _event_of

# --- adjustments ----------------------------------------------------------------------------


def _adjustment_state(adjustment: Adjustment) -> dict:
    """An adjustment as its log line keeps it: whose, on which deal, what."""
    entry = adjustment.entry
    state = {
        "adjustment": adjustment.pk,
        "play": adjustment.play_id,
        "round": adjustment.play.round.number,
        "player": entry.number,
        "name": entry.full_name,
        "deal": adjustment.deal.code if adjustment.deal is not None else None,
    }
    if adjustment.kind == Adjustment.Kind.ARTIFICIAL:
        state["score"] = adjustment.score
    else:
        state["penalty"] = adjustment.penalty
    return state


def _adjustment_kind(adjustment: Adjustment) -> str:
    return "adjust.set" if adjustment.kind == Adjustment.Kind.ARTIFICIAL else "penalty.set"


def _decimal(value) -> Decimal | None:
    if value in (None, ""):
        return None
    try:
        parsed = Decimal(str(value).strip().replace(",", "."))
    except InvalidOperation:
        return None
    return parsed if parsed.is_finite() else None


def adjustment_create(
    play: TablePlay,
    *,
    entry,
    kind: str,
    by_user,
    deal: Deal | None = None,
    score: str = "",
    penalty=None,
    reason: str = "",
    expected=None,
) -> Adjustment:
    """An artificial score (on a deal) or a time penalty (on a deal or the whole table-round)
    for a player who sat at that table in that round. ``expected``: the adjustments the
    writer's page showed (``adjustment_tokens``); changed meanwhile, nothing is saved."""
    with transaction.atomic():
        play = _locked_play(play)
        _check_director(by_user, _event_of(play), "adjust", play.round.room)
        check_adjustments(play, expected)
        errors: dict[str, str] = {}
        seat = (
            Seat.objects.filter(round_id=play.round_id, table_id=play.table_id, entry=entry)
            .order_by()
            .first()
        )
        if seat is None:
            errors["entry"] = _("%(name)s does not sit at table %(table)d in round %(round)d.") % {
                "name": entry.full_name,
                "table": play.table.number,
                "round": play.round.number,
            }
        if deal is not None and deal.board_set_id != play.board_set_id:
            errors["deal"] = _(
                "Deal %(code)s is not in the set table %(table)d plays in round %(round)d."
            ) % {"code": deal.code, "table": play.table.number, "round": play.round.number}
        reason = (reason or "").strip()
        if not reason:
            errors["reason"] = _("Say why: the players will see it.")
        amount = None
        if kind == Adjustment.Kind.ARTIFICIAL:
            if deal is None:
                errors.setdefault("deal", _("An artificial score is given on a deal."))
            if score not in Adjustment.Score.values:
                errors["score"] = _("Choose A+, A or A−.")
            if seat is not None and deal is not None and "deal" not in errors:
                if seat.position not in deal.active_seats:
                    errors["entry"] = _(
                        "%(name)s sits deal %(code)s out: there is nothing to score."
                    ) % {"name": entry.full_name, "code": deal.code}
                elif Adjustment.objects.filter(
                    play=play, deal=deal, entry=entry, kind=Adjustment.Kind.ARTIFICIAL
                ).exists():
                    errors["deal"] = _(
                        "%(name)s already has an artificial score on deal %(code)s: "
                        "delete it first."
                    ) % {"name": entry.full_name, "code": deal.code}
        elif kind == Adjustment.Kind.PENALTY:
            amount = _decimal(penalty)
            if amount is None or amount <= 0 or amount >= Decimal("1000000"):
                errors["penalty"] = _("A penalty is a number above 0, e.g. 2.5.")
            elif amount != amount.quantize(Decimal("0.01")):
                errors["penalty"] = _("At most two decimals, e.g. 2.5.")
            if (
                seat is not None
                and deal is not None
                and "deal" not in errors
                and seat.position not in deal.active_seats
            ):
                errors["entry"] = _(
                    "%(name)s sits deal %(code)s out: there is nothing to score."
                ) % {"name": entry.full_name, "code": deal.code}
            score = ""
        else:
            errors["kind"] = _("Choose an artificial score or a time penalty.")
        if errors:
            raise ValidationError(errors)
        adjustment = Adjustment.objects.create(
            play=play,
            deal=deal,
            entry=entry,
            kind=kind,
            score=score if kind == Adjustment.Kind.ARTIFICIAL else "",
            penalty=amount,
            reason=reason[:200],
            created_by=by_user,
        )
        _console_changed(play, [deal.pk] if deal is not None else [])
        _log_play(
            play,
            by_user,
            _adjustment_kind(adjustment),
            summary=adjustment.reason,
            after=_adjustment_state(adjustment),
        )
        return adjustment


def table_play_find(event: Event, *, round_id, table) -> TablePlay:
    """The table-round of ``event`` at table number ``table`` in the round ``round_id``
    (a round's id: table numbers repeat from room to room). ValidationError naming the field
    otherwise."""
    rnd = (
        Round.objects.filter(room__session__event=event, pk=round_id)
        .select_related("room__session")
        .order_by()
        .first()
        if str(round_id or "").isascii() and str(round_id or "").isdigit()
        else None
    )
    if rnd is None:
        raise ValidationError({"round": _("Choose a round of this event.")})
    try:
        number = int(str(table).strip())
    except (TypeError, ValueError):
        number = 0
    play = (
        TablePlay.objects.filter(round=rnd, table__number=number)
        .select_related("round__room__session__event", "table", "board_set")
        .order_by()
        .first()
        if number > 0
        else None
    )
    if play is None:
        raise ValidationError(
            {
                "table": _(
                    "No table %(table)s plays in round %(round)d of %(room)s: choose one of its "
                    "tables."
                )
                % {"table": str(table).strip() or "—", "round": rnd.number, "room": rnd.room}
            }
        )
    return play


def _score_code(value) -> str:
    """«A−» (the typographic minus shown on pages) is «A-»."""
    return str(value or "").strip().upper().replace("\u2212", "-")


@dataclass(frozen=True)
class TableScores:
    """What :func:`adjustments_table_create` gave: the new artificial scores, how many
    players and deals they cover."""

    adjustments: list[Adjustment]
    players: int
    deals: int


def adjustments_table_create(
    play: TablePlay,
    *,
    by_user,
    score: str,
    reason: str,
    deal: Deal | None = None,
    seat_scores: dict | None = None,
    expected=None,
) -> TableScores:
    """Artificial scores for a whole table in one round: on every deal of its set (or on the
    one ``deal``), each seated player who plays that deal gets ``score`` (A+, A, A−), or his
    seat's own score from ``seat_scores`` (position → score). A player who sits a deal out
    gets nothing on it. All or nothing: on any problem nothing is saved; a player who
    already has an artificial score on one of the deals is reported, not overwritten.
    ``expected`` as in :func:`adjustment_create`."""
    with transaction.atomic():
        play = _locked_play(play)
        _check_director(by_user, _event_of(play), "adjust", play.round.room)
        check_adjustments(play, expected)
        seats = {
            s.position: s
            for s in Seat.objects.filter(
                round_id=play.round_id, table_id=play.table_id
            ).select_related("entry")
        }
        errors: dict[str, str] = {}
        score = _score_code(score)
        if score not in Adjustment.Score.values:
            errors["score"] = _("Choose A+, A or A−.")
        per_seat: dict[str, str] = {}
        for position, given in (seat_scores or {}).items():
            position = str(position).strip().upper()
            given = _score_code(given)
            if not given:
                continue
            key = f"scores.{position}"
            if position not in seats:
                errors[key] = _(
                    "Nobody sits at %(position)s at table %(table)d in round %(round)d."
                ) % {
                    "position": position or "—",
                    "table": play.table.number,
                    "round": play.round.number,
                }
            elif given not in Adjustment.Score.values:
                errors[key] = _("Choose A+, A or A−.")
            elif deal is not None and position not in deal.active_seats:
                # The dealer at a table of four sits his deal out (docs/game.md): a score
                # for his seat on that deal alone would silently give nothing.
                errors[key] = _(
                    "%(position)s deals deal %(n)d and sits it out: that seat gets no score on it."
                ) % {"position": position, "n": deal.number}
            else:
                per_seat[position] = given
        if deal is not None and deal.board_set_id != play.board_set_id:
            errors["deal"] = _(
                "Deal %(code)s is not in the set table %(table)d plays in round %(round)d."
            ) % {"code": deal.code, "table": play.table.number, "round": play.round.number}
        reason = (reason or "").strip()
        if not reason:
            errors["reason"] = _("Say why: the players will see it.")
        if not seats:
            errors["table"] = _("Nobody sits at table %(table)d in round %(round)d.") % {
                "table": play.table.number,
                "round": play.round.number,
            }
        if errors:
            raise ValidationError(errors)
        deals = [deal] if deal is not None else list(play.board_set.deals.order_by("number"))
        wanted = [
            (d, seats[position])
            for d in deals
            for position in "WNES"
            if position in seats and position in d.active_seats
        ]
        taken = set(
            Adjustment.objects.filter(
                play=play, deal__in=deals, kind=Adjustment.Kind.ARTIFICIAL
            ).values_list("deal_id", "entry_id")
        )
        clashes = [(d, s) for d, s in wanted if (d.pk, s.entry_id) in taken]
        if clashes:
            names = ", ".join(f"{s.entry.full_name} ({d.code})" for d, s in clashes)
            raise ValidationError(
                {
                    "deal": _(
                        "Already given an artificial score: %(names)s. Delete those first, or "
                        "choose another deal."
                    )
                    % {"names": names}
                }
            )
        made = Adjustment.objects.bulk_create(
            [
                Adjustment(
                    play=play,
                    deal=d,
                    entry=s.entry,
                    kind=Adjustment.Kind.ARTIFICIAL,
                    score=per_seat.get(s.position, score),
                    reason=reason[:200],
                    created_by=by_user,
                )
                for d, s in wanted
            ]
        )
        _console_changed(play, [d.pk for d in deals])
        _log_play(
            play,
            by_user,
            "adjust.table",
            summary=reason[:200],
            after={
                "round": play.round.number,
                "deal": deal.code if deal is not None else None,
                "score": score,
                "scores": per_seat or None,
                "given": len(made),
            },
        )
        return TableScores(
            adjustments=made,
            players=len({s.entry_id for _d, s in wanted}),
            deals=len({d.pk for d, _s in wanted}),
        )


def adjustment_delete(adjustment: Adjustment, *, by_user, expected=None) -> None:
    """Delete an adjustment; ``expected`` as in :func:`adjustment_create`. One deleted
    meanwhile is refused saying by whom, never deleted «twice» in silence."""
    with transaction.atomic():
        play = _locked_play(
            TablePlay.objects.select_related("round__room__session__event", "table").get(
                pk=adjustment.play_id
            )
        )
        found = (
            Adjustment.objects.select_related(
                "play__round__room__session__event", "play__table", "entry", "deal"
            )
            .filter(pk=adjustment.pk)
            .first()
        )
        _check_director(by_user, _event_of(play), "adjust", play.round.room)
        check_adjustments(play, expected)
        if found is None:
            there = Adjustment.objects.filter(play=play).values_list("pk", flat=True)
            changes = changes_since(play, token_of([*there, adjustment.pk]))
            raise meanwhile.Changed(
                "expected", meanwhile.refusal(changes) if changes else _("No such adjustment.")
            )
        adjustment = found
        deal_id = adjustment.deal_id
        before = _adjustment_state(adjustment)
        adjustment.delete()
        _log_play(
            adjustment.play,
            by_user,
            _adjustment_kind(adjustment),
            summary=adjustment.reason,
            before=before,
        )
        _console_changed(adjustment.play, [deal_id] if deal_id is not None else [])
