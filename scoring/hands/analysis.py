"""The double-dummy analysis of a session's deals (``scoring.solver``), kept on the deal.

``Deal.analysis`` holds the solver's whole table under the event's game's play rules
(seat → column → with / without the talon: the suits, and in the Russian game БК and
мизер, first hand leading), the rules it was computed under (``"play"``:
``PlayRules.as_json``) and the first trick's leader (``"leader"``: first hand, or None
where the declarer leads), and, under ``"positions"``, the declarer's tricks in the
position each table actually played (``Game.position`` of its sheet; the keys are
``Position.key``: declarer, strain, talon taken or not, the defence). The worker fills it
one deal at a time, so the session page can count the progress; a deal whose cards change,
or whose table was computed under other play rules (an event whose game changed), is
analysed again.

The game is asked of the event (``scoring.games.of_event``), never named here.
"""

from __future__ import annotations

from django.utils import timezone

from events import clockdoc
from events.dealing import deal_cards, session_deals
from events.models import Deal, Session
from scoring import games
from scoring.games import Game, Position
from scoring.hands.records import current_analysis
from scoring.models import ScoreSheet
from scoring.sheets.boxes import deal_play_versions


def _solver():
    from scoring import solver  # numpy and the compiled engine: only the worker needs them

    return solver


def _sheets_positions(deal: Deal, game: Game) -> set[str]:
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
        position = game.position((sheet.current.result or {}).get("sheet"))
        if isinstance(position, Position):
            keys.add(position.key)
    return keys


def deal_analyse(deal: Deal, *, table: bool = True, game: Game | None = None) -> bool:
    """Analyse one deal under its event's game (``game``, or the event's); False when its
    cards are unknown (or changed meanwhile). ``table`` False: only the positions of new
    sheets, unless the stored table is missing or of other play rules."""
    dealt = deal_cards(deal)
    if dealt is None:
        return False
    if game is None:
        game = games.of_event(deal.board_set.session.event)
    solver = _solver()
    play = game.play
    leader = play.leader(deal.first_hand)
    hands = {seat: list(hand) for seat, hand in dealt.by_seat()}
    talon = list(dealt.talon)
    analysis = {} if table else dict(current_analysis(deal, game) or {})
    fresh = not analysis
    if fresh:
        analysis = dict(solver.deal_table(hands, talon, rules=play, leader=leader))
        analysis["play"] = play.as_json()
        analysis["leader"] = leader
    positions = dict(analysis.get("positions") or {})
    new = _sheets_positions(deal, game) - set(positions)
    if not fresh and not new and "positions" in analysis:
        return True  # nothing played since: the analysis stands
    for key in new:
        position = Position.from_key(key)
        tricks = position.table_cell(analysis)  # the whole table holds it already
        if tricks is None:
            try:
                tricks, _ = solver.solve(
                    hands,
                    position.declarer,
                    position.trump,
                    position.defence,
                    talon=talon if position.talon else None,
                    rules=play,
                    leader=leader,
                    misere=position.misere,
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
    again), one by one, under the event's game; a deal already analysed only gets the
    positions of new sheets (its whole table again if it was computed under other play
    rules)."""
    session = Session.objects.select_related("event").filter(pk=session_id).first()
    if session is None:
        return 0
    game = games.of_event(session.event)
    deals = session_deals(session).exclude(cards="")
    done = 0
    for deal in deals:
        fresh = deal.analysed_at is None or (deal_ids is not None and deal.pk in deal_ids)
        if deal_ids is not None and deal.pk not in deal_ids and deal.analysed_at is not None:
            continue
        if deal_analyse(deal, table=fresh, game=game):
            done += 1
            # The public hand records and travellers show it (once the deal is played out).
            clockdoc.results_changed(session.event_id)
    return done
