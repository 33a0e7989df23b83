"""The scoring API's results, public once published (docs/api.md): the standings, a deal's traveller, a player's card — each through the one rule of what anyone may see."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from events.params import api_query_int
from scoring import games, standings
from scoring.api.serializers import SCORE_PLACES, _figure, _readable_event, result_json
from scoring.models import Deal
from scoring.sheets import display
from scoring.standings import disclosure
from scoring.standings.traveller_note import pockets_of

# --- results (public once published) ------------------------------------------------------


def _standing_json(rows) -> list[dict]:
    return [
        {
            # The place every page writes (standings.Placed): none until a deal of his is
            # scored — a rank everyone without a deal shares («1–21») says nothing.
            "rank": row.rank if row.placed else None,
            "entry": row.entry.pk,
            "number": row.number,
            "name": row.name,
            "club": row.clubs,
            # Everyone who held the number: the first player, then each substitute.
            "players": [
                {"entry": h.entry.pk, "name": h.entry.full_name, "from_round": h.from_round}
                | ({"session": h.session} if h.session is not None else {})
                for h in row.holders
            ],
            "total": None if row.total is None else round(float(row.total), 4),
            "deals": row.deals,
            "penalty": float(row.penalty),
        }
        for row in rows
    ]


def _game_json(event) -> dict:
    """The game the results are of: its name (``game``, as the event's field), its rules in
    full (``rules``: the options, each convention's defaults filled in) and its line in the
    reader's language (``game_line``)."""
    return {"game": event.game, "rules": event.game_rules(), "game_line": event.game_line()}


def _score_json(score) -> dict | None:
    if score is None:
        return None
    return {
        # The seat's score on the deal, as the result's (score_number): 2 decimals.
        "points": None if score.points is None else round(float(score.points), SCORE_PLACES),
        "artificial": score.artificial or None,
        "figure": _figure(score.figure_num, score.figure_den),
        "penalty": float(score.penalty),
        "net": _figure(score.net_num, score.net_den),
        "second": score.second,
    }


def _written(result: dict | None, position: str) -> dict:
    """What ``position`` wrote on the deal: пуля, гора (numbers) and his whists on each seat
    (``{"N": 6}``); None where he wrote nothing (no result yet, sat out, a pause)."""
    pool = (result or {}).get("pool") or {}
    if position not in pool:
        return {"pool": None, "mountain": None, "whists": None}
    return {
        "pool": pool[position],
        "mountain": (result.get("mountain") or {}).get(position),
        "whists": dict((result.get("whists") or {}).get(position) or {}),
    }


GAME_HELP = (
    " The document names its game: «game» (austrian | sochi | leningrad | rostov), «rules» (the "
    "game with its options in full: «ten», «responsibility», «stalingrad», each convention's "
    "default filled in; «game» alone for the Austrian game) and «game_line» (the game in one "
    "line, in the reader's language)."
)
FIGURES_HELP = (
    " Each scored seat's «figures» / «score»: «points», his score on the deal as a JSON number "
    "(the Russian game's vist balance rounded to 2 decimals, as «manage.py settle --json» "
    "answers), «figure» and «net» (the method's figure: a percentage, points or IMPs, to 4 "
    "decimals), «penalty», «artificial» and «second» (the matchpoints, the rank or the "
    "difference, as text)."
)


class _PublicResult(APIView):
    """A results answer: the public's to anyone (a director too), his own with
    ``?view=director`` (``scoring.standings.disclosure``: every deal and total). An answer to a signed-in
    caller may be his own: never stored where another could be served it."""

    permission_classes = [AllowAny]

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if request.user.is_authenticated:
            add_never_cache_headers(response)
            patch_cache_control(response, no_store=True, private=True)
        return response


class Standings(_PublicResult):
    @extend_schema(
        description="The standing (the event's, or one session's), best first; ties share "
        "the rank («3–4»); «rank» is null for a player with no deal scored yet (the pages "
        "say «—»); «total» to 4 decimals. «total» and «deals» count only the deals "
        "played out, as the public pages do (docs/game.md §4.4); the event's director "
        "reads every deal with «?view=director»." + GAME_HELP,
        responses=None,
        parameters=[OpenApiParameter("session", int, description="a session's number")],
    )
    def get(self, request, event_pk):
        event = _readable_event(request, event_pk)
        wanted = api_query_int(request, "session")
        if wanted is not None:
            session = event.sessions.filter(number=wanted).first()
            if session is None:
                raise NotFound()
            rows = standings.session_standings(session, disclosure.viewer(request, event))
        else:
            rows = standings.event_standings(event, disclosure.viewer(request, event))
        return Response(
            {
                **_game_json(event),
                "method": event.scoring_method,
                "by": standings.BY[event.scoring_method],
                "session": wanted,
                "standings": _standing_json(rows),
            }
        )


class TravellerView(_PublicResult):
    @extend_schema(
        description="Every table's result on the deal and each pocket's figures; 403 while "
        "the deal is still being played (docs/game.md §4.5)." + FIGURES_HELP + GAME_HELP,
        responses=None,
    )
    def get(self, request, event_pk, deal_pk):
        event = _readable_event(request, event_pk)
        deal = get_object_or_404(
            Deal.objects.filter(board_set__session__event=event).select_related("board_set"),
            pk=deal_pk,
        )
        if not disclosure.viewer(request, event).shows(deal):
            # Not played out (scoring.standings.disclosure): nothing of it, not even the results.
            raise PermissionDenied(
                _(
                    "This deal is still being played: its cards, its analysis and the tables' "
                    "results on it are shown once every table that plays it has played it."
                )
            )
        found = standings.deal_traveller(deal)
        return Response(
            {
                "deal": deal.code,
                "session": found.session.number,
                **_game_json(event),
                "method": event.scoring_method,
                "active_seats": deal.active_seats,
                # The cards as dealt (PPN, docs/hand-records.md) and their double-dummy
                # table, when known; like everything here, only once the results are readable.
                "cards": deal.cards or None,
                "analysis": deal.analysis if deal.analysed_at else None,
                # Tables that play the deal, and real results per pocket: fewer than expected
                # means the percentages are Neuberg-restated.
                "expected": len(found.rows),
                "played": {p.position: p.played for p in pockets_of(found)},
                "tables": [
                    {
                        "round": row.play.round.number,
                        "room": row.play.table.room.number,
                        "table": row.play.table.number,
                        "players": {p: e.pk for p, e in row.players.items()},
                        "status": row.sheet.status if row.sheet else None,
                        "contract": display.result_contract(row.sheet.current.result)
                        if row.sheet and row.sheet.current
                        else None,
                        "result": result_json(row.sheet.current.result)
                        if row.sheet and row.sheet.current
                        else None,
                        "figures": {p: _score_json(s) for p, s in row.scores.items()},
                        # The version of the deal's cards this table played: a fouled
                        # box's results are compared only within one (docs/game.md §2.7).
                        "version": row.version,
                    }
                    for row in found.rows
                ],
            }
        )


class CardView(_PublicResult):
    @extend_schema(
        description="A player's card: each deal he was at the table for, with the table's "
        "result and his figures; a deal still being played keeps its row without them. "
        "«deal_id» names the deal for its traveller. In the Russian game each row adds what "
        "he wrote on the deal: «pool», «mountain» (numbers) and «whists» (seat → amount), "
        "null when he sat it out." + FIGURES_HELP + GAME_HELP,
        responses=None,
    )
    def get(self, request, event_pk, entry_pk):
        event = _readable_event(request, event_pk)
        entry = get_object_or_404(event.entries.all(), pk=entry_pk)
        seen = disclosure.viewer(request, event)
        card = disclosure.card_hide(standings.player_card(entry, seen), seen)
        # A game whose seats write more than their score (the Russian пуля, гора, висты):
        # each row says what the player wrote on the deal, as his card's page does.
        writes = bool(games.sheets_of(event).figure_heads())
        rows = []
        for row in card.rows:
            result = row.sheet.current.result if row.sheet and row.sheet.current else None
            found = {
                # Not played out yet: its result and figure come once it is.
                "in_play": row.hidden,
                "session": row.session.number,
                "round": row.round_number,
                "table": row.table_number,
                "position": row.position or None,
                "deal": row.deal.code if row.deal else None,
                # The deal's id: its traveller is …/deals/<deal_id>/traveller/.
                "deal_id": row.deal.pk if row.deal else None,
                "sits_out": row.sits_out,
                "contract": display.result_contract(result) if result else None,
                "result": result_json(result),
                "score": _score_json(row.score),
            }
            if writes:
                found |= _written(result, row.position)
            rows.append(found)
        return Response(
            {
                "entry": entry.pk,
                "name": entry.full_name,
                **_game_json(event),
                "method": event.scoring_method,
                "sessions": [
                    {"session": number} | (_standing_json([row])[0] if row else {})
                    for number, row in card.standings.items()
                ],
                "deals": rows,
            }
        )
