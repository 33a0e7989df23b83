"""The double-dummy analysis of a session's deals (``scoring.solver``), kept on the deal.

``Deal.analysis`` holds the solver's whole table (seat → trump → with / without the talon)
and, under ``"positions"``, the declarer's tricks in the position each table actually played
(declarer, trump, talon taken or not, both defenders or the lone whister; the keys are
``scoring.hand_records.position_key``). The worker fills it one deal at a time, so the
session page can count the progress; a deal whose cards change is analysed again.
"""

from __future__ import annotations

from django.utils import timezone

from events.dealing import deal_cards, session_deals
from events.models import Deal, Session
from scoring.boxes import deal_play_versions
from scoring.hand_records import position_key
from scoring.models import ScoreSheet


def _solver():
    from scoring import solver  # numpy and the compiled engine: only the worker needs them

    return solver


def _sheets_positions(deal: Deal) -> set[str]:
    """The positions the tables played with the cards as dealt (version 1): a fouled box's
    later plays are played with other cards (docs/game.md §2.7, the comparison's rule)."""
    versions = deal_play_versions(deal)
    sheets = ScoreSheet.objects.filter(deal=deal, current__isnull=False).select_related(
        "current", "play__round"
    )
    keys = set()
    for sheet in sheets:
        if versions.get(sheet.play_id, 1) != 1:
            continue
        key = position_key((sheet.current.result or {}).get("sheet"))
        if key:
            keys.add(key)
    return keys


def deal_analyse(deal: Deal, *, table: bool = True) -> bool:
    """Analyse one deal; False when its cards are unknown (or changed meanwhile)."""
    dealt = deal_cards(deal)
    if dealt is None:
        return False
    solver = _solver()
    hands = {seat: list(hand) for seat, hand in dealt.by_seat()}
    talon = list(dealt.talon)
    analysis = dict(deal.analysis or {}) if not table else {}
    if table or not analysis:
        analysis = dict(solver.deal_table(hands, talon))
    positions = dict(analysis.get("positions") or {})
    new = _sheets_positions(deal) - set(positions)
    if not table and not new and "positions" in analysis:
        return True  # nothing played since: the analysis stands
    for key in new:
        declarer, trump, taken, defence = key.split(".")
        try:
            tricks, _ = solver.solve(
                hands, declarer, trump, defence, talon=talon if taken == "talon" else None
            )
        except ValueError:  # PositionError: a sheet that does not fit the cards' seats
            continue
        positions[key] = tricks
    analysis["positions"] = positions
    # Saved only if the cards are still the ones analysed.
    return bool(
        Deal.objects.filter(pk=deal.pk, cards=deal.cards).update(
            analysis=analysis, analysed_at=timezone.now()
        )
    )


def session_analyse(session_id: int, deal_ids: list[int] | None = None) -> int:
    """Analyse the session's deals with known cards not analysed yet (or ``deal_ids``
    again), one by one; a deal already analysed only gets the positions of new sheets."""
    session = Session.objects.filter(pk=session_id).first()
    if session is None:
        return 0
    deals = session_deals(session).exclude(cards="")
    done = 0
    for deal in deals:
        fresh = deal.analysed_at is None or (deal_ids is not None and deal.pk in deal_ids)
        if deal_ids is not None and deal.pk not in deal_ids and deal.analysed_at is not None:
            continue
        if deal_analyse(deal, table=fresh):
            done += 1
    return done
