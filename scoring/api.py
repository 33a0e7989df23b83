"""The scoring API under /api/v1/: score sheets (list, record, correct, confirm, history),
adjustments, publishing, and the results (standings, travellers, personal cards).

Writes belong to the event's director (another director gets 404, an anonymous caller 403);
results are readable by anyone once published, before that by the director only. Bad input
is a 400 naming each field and the rule it broke («tricks»: «взятки должны в сумме давать
10…»), in the language asked for.
"""

from __future__ import annotations

from fractions import Fraction

from django.shortcuts import get_object_or_404
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from events.models import Event
from events.params import api_query_int
from events.services import event_set_results_public
from scoring import disclosure, display, games, services, standings
from scoring.models import Adjustment, Deal, ScoreSheet, ScoreSheetVersion, TablePlay
from scoring.traveller_note import pockets_of

META_FIELDS = ("play", "deal", "expected_version", "note")


def _own_event(request, event_pk) -> Event:
    return get_object_or_404(Event.objects.visible_to(request.user), pk=event_pk)


def _readable_event(request, event_pk) -> Event:
    """Results: anyone once published; before that the director only. An event not yet
    published that is not his, and an id that is no event's, get one answer, so nobody
    learns which ids exist: an anonymous caller is refused as on every other operation,
    a director gets the 404 of an event not among his."""
    event = Event.objects.filter(pk=event_pk, results_public=True).first()
    if event is not None:
        return event
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    return _own_event(request, event_pk)


def _figure(num: int, den: int) -> float:
    return round(num / den, 4)


#: A deal's score per seat in every answer: a JSON number, rounded to 2 decimals as the
#: answer of ``manage.py settle --json`` (docs/game.md §9.6) in every game. The stored result
#: keeps the Russian balance exact as text («16/3», scoring.games.russian.sheet) so that ties stay
#: ties in the comparison; the figures (``figure``, ``net``, the standings' ``total``) carry
#: what is compared, to 4 decimals.
SCORE_PLACES = 2


def score_number(value) -> int | float | None:
    """A seat's score on a deal as a JSON number: the exact text «16/3» rounded to 2
    decimals (5.33); a number, as the Austrian result stores it, as it is (its amounts have
    at most one decimal: a trick is A/10 with a whole A)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value
    try:
        exact = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        return None
    return float(round(exact, SCORE_PLACES)) + 0.0


def result_json(result):
    """A stored result as the API shows it: every score a JSON number (:func:`score_number`);
    the rest as stored."""
    if not isinstance(result, dict) or not isinstance(result.get("scores"), dict):
        return result
    scores = {seat: score_number(v) for seat, v in result["scores"].items()}
    return {**result, "scores": scores}


RESULT_HELP = (
    "the settled result: «scores», each active seat's score on the deal as a JSON number "
    "(the Russian game's vist balance rounded to 2 decimals, as «manage.py settle --json» "
    "answers), «failed», «sheet» (the essence); the Russian game adds «pool», «mountain», "
    "«whists» (writer → seat → amount) and «rules»"
)


class ResultField(serializers.JSONField):
    """A version's ``result`` with its scores as numbers (:func:`result_json`)."""

    def to_representation(self, value):
        return super().to_representation(result_json(value))


# --- serializers --------------------------------------------------------------------------


class VersionSerializer(serializers.ModelSerializer):
    entered_by = serializers.SerializerMethodField()

    class Meta:
        model = ScoreSheetVersion
        fields = ["number", "data", "result", "entered_by", "note", "created_at"]

    result = ResultField(read_only=True, help_text=RESULT_HELP)

    def get_entered_by(self, version) -> dict | None:
        """The director, or the player and how he showed it was he («link», «pin», or
        «seat»: only chosen on the table's phone — not proven; see scoring.proof)."""
        if version.entered_by_entry_id:
            return {"entry": version.entered_by_entry_id, "proof": version.proof}
        if version.entered_by_user_id:
            return {"director": version.entered_by_user_id}
        return None


class SheetSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="play.round.number")
    table = serializers.IntegerField(source="play.table.number")
    set = serializers.IntegerField(source="deal.board_set.number")
    deal = serializers.IntegerField(source="deal.number")
    version = serializers.IntegerField(source="current.number", allow_null=True)
    data = serializers.JSONField(source="current.data", allow_null=True)
    result = ResultField(source="current.result", allow_null=True, help_text=RESULT_HELP)
    confirmed_by = serializers.SerializerMethodField()

    class Meta:
        model = ScoreSheet
        fields = [
            "id",
            "play",
            "round",
            "table",
            "set",
            "deal",
            "status",
            "version",
            "data",
            "result",
            "late",
            "confirmed_by",
            "created_at",
            "updated_at",
        ]

    def get_confirmed_by(self, sheet) -> dict | None:
        """The player who confirmed the current result and how he proved it was he («link»
        or «pin»); null while unconfirmed or when the director's word confirmed it."""
        if sheet.status == ScoreSheet.Status.CONFIRMED and sheet.confirmed_by_entry_id:
            return {"entry": sheet.confirmed_by_entry_id, "proof": sheet.confirmed_proof}
        return None


class PlaySerializer(serializers.ModelSerializer):
    session = serializers.IntegerField(source="round.room.session.number")
    room = serializers.IntegerField(source="round.room.number")
    round = serializers.IntegerField(source="round.number")
    round_state = serializers.CharField(source="round.state")
    table = serializers.IntegerField(source="table.number")
    set = serializers.IntegerField(source="board_set.number")
    deals = serializers.SerializerMethodField()
    players = serializers.SerializerMethodField(
        help_text="may the table's players enter and confirm its sheets now (the table's "
        "page asks the same): open, late (after the round's end), the director's access "
        "(«», open, closed) and the reason"
    )

    class Meta:
        model = TablePlay
        fields = [
            "id",
            "session",
            "room",
            "round",
            "round_state",
            "table",
            "set",
            "deals",
            "late",
            "players",
        ]

    def get_deals(self, play) -> list[dict]:
        return [
            {"number": d.number, "active_seats": d.active_seats, "first_hand": d.first_hand}
            for d in play.board_set.deals.all()
        ]

    def get_players(self, play) -> dict:
        known = self.context.get("access") or {}
        access = known.get(play.pk) or services.players_access(play)
        return {
            "open": access.open,
            "late": access.late,
            "access": play.players_access,
            "reason": access.reason,
        }


class CorrectSerializer(serializers.Serializer):
    """The sheet's own fields (declarer, contract, trump, defenders, tricks, auction, talon)
    are checked by the rules of the deal, not here."""

    expected_version = serializers.IntegerField(required=False, allow_null=True)
    note = serializers.CharField(required=False, allow_blank=True, max_length=200)
    declarer = serializers.JSONField(required=False)
    contract = serializers.JSONField(required=False)
    trump = serializers.JSONField(required=False)
    defenders = serializers.JSONField(required=False)
    tricks = serializers.JSONField(required=False)
    auction = serializers.JSONField(required=False)
    talon = serializers.JSONField(
        required=False,
        help_text="with a numeric contract, the two talon cards the declarer took "
        '(docs/game.md §2.7): ["SA", "H7"] or "SA H7"; refused when it is not the '
        "deal's known talon",
    )


class SheetWriteSerializer(CorrectSerializer):
    """A new sheet also names the table-round and the deal."""

    play = serializers.IntegerField()
    deal = serializers.IntegerField(help_text="the deal's number in the set (1–4)")


class AdjustmentSerializer(serializers.ModelSerializer):
    deal = serializers.IntegerField(source="deal.number", allow_null=True, read_only=True)
    kind = serializers.CharField(read_only=True, help_text="artificial | penalty")
    score = serializers.CharField(read_only=True, help_text="A+ | A | A- (artificial scores)")
    round = serializers.IntegerField(source="play.round.number", read_only=True)
    table = serializers.IntegerField(source="play.table.number", read_only=True)

    class Meta:
        model = Adjustment
        fields = [
            "id",
            "play",
            "round",
            "table",
            "deal",
            "entry",
            "kind",
            "score",
            "penalty",
            "reason",
            "created_at",
        ]


class AdjustmentWriteSerializer(serializers.Serializer):
    play = serializers.IntegerField()
    entry = serializers.IntegerField()
    kind = serializers.CharField(help_text="artificial | penalty")
    deal = serializers.IntegerField(required=False, allow_null=True)
    score = serializers.CharField(required=False, allow_blank=True)
    penalty = serializers.DecimalField(
        max_digits=8, decimal_places=2, required=False, allow_null=True
    )
    reason = serializers.CharField(max_length=200)


class TableAdjustmentWriteSerializer(serializers.Serializer):
    """Artificial scores for a whole table-round: name it by ``play``, or by ``round`` (a
    round's id) and ``table`` (its number), as the director's page does."""

    play = serializers.IntegerField(required=False, allow_null=True)
    round = serializers.IntegerField(required=False, allow_null=True)
    table = serializers.IntegerField(required=False, allow_null=True)
    deal = serializers.IntegerField(
        required=False, allow_null=True, help_text="one deal's number in the set; none: every deal"
    )
    score = serializers.CharField(help_text="A+ | A | A-: for every seated player")
    scores = serializers.DictField(
        child=serializers.CharField(allow_blank=True),
        required=False,
        help_text='a seat\'s own score, e.g. {"N": "A+"}',
    )
    reason = serializers.CharField(max_length=200)


class TableAdjustmentResultSerializer(serializers.Serializer):
    play = serializers.IntegerField()
    players = serializers.IntegerField()
    deals = serializers.IntegerField()
    adjustments = AdjustmentSerializer(many=True)


class PublishSerializer(serializers.Serializer):
    public = serializers.BooleanField()


# --- sheets -------------------------------------------------------------------------------


def _sheet_data(payload: dict) -> dict:
    return {k: v for k, v in payload.items() if k not in META_FIELDS}


def _sheets(event):
    return ScoreSheet.objects.filter(play__round__room__session__event=event).select_related(
        "play__round", "play__table", "deal__board_set", "current"
    )


def _play(event, play_pk) -> TablePlay:
    play = (
        TablePlay.objects.filter(round__room__session__event=event, pk=play_pk)
        .select_related("round__room__session__event", "table", "board_set")
        .order_by()
        .first()
    )
    if play is None:
        raise serializers.ValidationError({"play": [_("No such table-round in this event.")]})
    return play


def _deal_in(play: TablePlay, number) -> Deal:
    deal = play.board_set.deals.filter(number=number).select_related("board_set").order_by().first()
    if deal is None:
        raise serializers.ValidationError(
            {"deal": [_("The set has deals 1–%(n)d.") % {"n": play.board_set.players}]}
        )
    return deal


class PlayList(APIView):
    @extend_schema(
        responses=PlaySerializer(many=True),
        parameters=[OpenApiParameter("round", int, description="a round's number")],
    )
    def get(self, request, event_pk):
        event = _own_event(request, event_pk)
        plays = (
            TablePlay.objects.filter(round__room__session__event=event)
            .select_related("round__room__session", "table", "board_set")
            .prefetch_related("board_set__deals")
            .order_by("round__room__session__number", "round__room__number", "round__number")
        )
        number = api_query_int(request, "round")
        if number is not None:
            plays = plays.filter(round__number=number)
        plays = list(plays)
        context = {"access": services.plays_access(plays)}
        return Response(PlaySerializer(plays, many=True, context=context).data)


class PlayAccessSerializer(serializers.Serializer):
    access = serializers.ChoiceField(
        choices=TablePlay.Access.choices,
        allow_blank=True,
        help_text="open: the table's players may write this finished round's sheets again; "
        "closed: only the director; empty: by the clock",
    )


class PlayAccess(APIView):
    @extend_schema(request=PlayAccessSerializer, responses=PlaySerializer)
    def post(self, request, event_pk, pk):
        """The director opens a finished round to one table's players again, or closes it."""
        event = _own_event(request, event_pk)
        play = get_object_or_404(
            TablePlay.objects.filter(round__room__session__event=event).select_related(
                "round__room__session__event", "table", "board_set"
            ),
            pk=pk,
        )
        body = PlayAccessSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        play = services.play_access_set(play, body.validated_data["access"], by_user=request.user)
        return Response(PlaySerializer(play).data)


class SheetList(APIView):
    @extend_schema(
        responses=SheetSerializer(many=True),
        parameters=[
            OpenApiParameter("play", int),
            OpenApiParameter("round", int, description="a round's number"),
            OpenApiParameter("status", str),
        ],
    )
    def get(self, request, event_pk):
        event = _own_event(request, event_pk)
        sheets = _sheets(event).order_by("play__round__number", "play__table__number", "deal")
        params = request.query_params
        play_id, number = api_query_int(request, "play"), api_query_int(request, "round")
        if play_id is not None:
            sheets = sheets.filter(play_id=play_id)
        if number is not None:
            sheets = sheets.filter(play__round__number=number)
        if params.get("status"):
            sheets = sheets.filter(status=params["status"])
        return Response(SheetSerializer(sheets, many=True).data)

    @extend_schema(request=SheetWriteSerializer, responses=SheetSerializer)
    def post(self, request, event_pk):
        event = _own_event(request, event_pk)
        meta = SheetWriteSerializer(data=request.data)
        meta.is_valid(raise_exception=True)
        play = _play(event, meta.validated_data["play"])
        deal = _deal_in(play, meta.validated_data["deal"])
        done = services.sheet_record(
            play,
            deal,
            _sheet_data(request.data),
            by_user=request.user,
            expected_version=meta.validated_data.get("expected_version"),
            note=meta.validated_data.get("note", ""),
        )
        code = status.HTTP_201_CREATED if done.outcome == "created" else status.HTTP_200_OK
        body = SheetSerializer(_sheets(event).get(pk=done.sheet.pk)).data
        return Response(body | {"outcome": done.outcome}, status=code)


class SheetDetail(APIView):
    @extend_schema(responses=SheetSerializer)
    def get(self, request, event_pk, pk):
        event = _own_event(request, event_pk)
        return Response(SheetSerializer(get_object_or_404(_sheets(event), pk=pk)).data)


class SheetCorrect(APIView):
    @extend_schema(request=CorrectSerializer, responses=SheetSerializer)
    def post(self, request, event_pk, pk):
        event = _own_event(request, event_pk)
        sheet = get_object_or_404(_sheets(event), pk=pk)
        meta = CorrectSerializer(data=request.data)
        meta.is_valid(raise_exception=True)
        done = services.sheet_record(
            sheet.play,
            sheet.deal,
            _sheet_data(request.data),
            by_user=request.user,
            expected_version=meta.validated_data.get("expected_version"),
            note=meta.validated_data.get("note", ""),
        )
        body = SheetSerializer(_sheets(event).get(pk=done.sheet.pk)).data
        return Response(body | {"outcome": done.outcome})


class SheetConfirm(APIView):
    @extend_schema(request=None, responses=SheetSerializer)
    def post(self, request, event_pk, pk):
        event = _own_event(request, event_pk)
        sheet = get_object_or_404(_sheets(event), pk=pk)
        services.sheet_confirm(sheet, by_user=request.user)
        return Response(SheetSerializer(_sheets(event).get(pk=sheet.pk)).data)


class HistorySerializer(serializers.Serializer):
    """A sheet's history: its current version number, its status and every version."""

    current = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    versions = VersionSerializer(many=True)


class SheetHistory(APIView):
    @extend_schema(responses=HistorySerializer)
    def get(self, request, event_pk, pk):
        event = _own_event(request, event_pk)
        sheet = get_object_or_404(_sheets(event), pk=pk)
        versions = sheet.versions.order_by("number")
        return Response(
            {
                "current": sheet.current.number if sheet.current else None,
                "status": sheet.status,
                "versions": VersionSerializer(versions, many=True).data,
            }
        )


# --- adjustments and publishing -----------------------------------------------------------


class AdjustmentList(APIView):
    @extend_schema(responses=AdjustmentSerializer(many=True))
    def get(self, request, event_pk):
        event = _own_event(request, event_pk)
        found = Adjustment.objects.filter(play__round__room__session__event=event).select_related(
            "play__round", "play__table", "deal"
        )
        return Response(AdjustmentSerializer(found, many=True).data)

    @extend_schema(request=AdjustmentWriteSerializer, responses=AdjustmentSerializer)
    def post(self, request, event_pk):
        event = _own_event(request, event_pk)
        given = AdjustmentWriteSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        play = _play(event, data["play"])
        entry = event.entries.filter(pk=data["entry"]).first()
        if entry is None:
            raise serializers.ValidationError({"entry": [_("No such player in this event.")]})
        deal = _deal_in(play, data["deal"]) if data.get("deal") is not None else None
        made = services.adjustment_create(
            play,
            entry=entry,
            kind=data["kind"],
            by_user=request.user,
            deal=deal,
            score=data.get("score", ""),
            penalty=data.get("penalty"),
            reason=data["reason"],
        )
        return Response(AdjustmentSerializer(made).data, status=status.HTTP_201_CREATED)


class TableAdjustments(APIView):
    @extend_schema(
        request=TableAdjustmentWriteSerializer, responses=TableAdjustmentResultSerializer
    )
    def post(self, request, event_pk):
        event = _own_event(request, event_pk)
        given = TableAdjustmentWriteSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        if data.get("play") is not None:
            play = _play(event, data["play"])
        elif data.get("round") is not None:
            play = services.table_play_find(event, round_id=data["round"], table=data.get("table"))
        else:
            raise serializers.ValidationError(
                {"play": [_("Name the table-round: «play», or «round» and «table».")]}
            )
        deal = _deal_in(play, data["deal"]) if data.get("deal") is not None else None
        done = services.adjustments_table_create(
            play,
            by_user=request.user,
            score=data["score"],
            reason=data["reason"],
            deal=deal,
            seat_scores=data.get("scores") or {},
        )
        for made in done.adjustments:
            made.play = play
        return Response(
            {
                "play": play.pk,
                "players": done.players,
                "deals": done.deals,
                "adjustments": AdjustmentSerializer(done.adjustments, many=True).data,
            },
            status=status.HTTP_201_CREATED,
        )


class AdjustmentDetail(APIView):
    @extend_schema(request=None, responses=None)
    def delete(self, request, event_pk, pk):
        event = _own_event(request, event_pk)
        found = get_object_or_404(
            Adjustment.objects.filter(play__round__room__session__event=event), pk=pk
        )
        services.adjustment_delete(found, by_user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class Publish(APIView):
    @extend_schema(request=PublishSerializer, responses=PublishSerializer)
    def post(self, request, event_pk):
        event = _own_event(request, event_pk)
        given = PublishSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        event_set_results_public(event, given.validated_data["public"])
        # Publishing shows the standings now, each deal once played out (scoring.disclosure).
        found = disclosure.event_disclosure(event)
        return Response(
            {"public": event.results_public, "deals": {"shown": found.shown, "total": found.total}}
        )


# --- results (public once published) ------------------------------------------------------


def _standing_json(rows) -> list[dict]:
    return [
        {
            "rank": row.rank,
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
    ``?view=director`` (``scoring.disclosure``: every deal and total). An answer to a signed-in
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
        "the rank («3–4»); «total» to 4 decimals. «total» and «deals» count only the deals "
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
            # Not played out (scoring.disclosure): nothing of it, not even the results.
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
