"""The scoring API under /api/v1/: score sheets (list, record, correct, confirm, history),
adjustments, publishing, and the results (standings, travellers, personal cards).

Writes belong to the event's director (another director gets 404, an anonymous caller 403);
results are readable by anyone once published, before that by the director only. Bad input
is a 400 naming each field and the rule it broke («tricks»: «взятки должны в сумме давать
10…»), in the language asked for.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from events.params import api_query_int
from events.services import event_set_results_public
from scoring.api.serializers import (
    AdjustmentSerializer,
    AdjustmentWriteSerializer,
    CorrectSerializer,
    PlaySerializer,
    PublishSerializer,
    SheetSerializer,
    SheetWriteSerializer,
    TableAdjustmentResultSerializer,
    TableAdjustmentWriteSerializer,
    VersionSerializer,
    _own_event,
)
from scoring.models import Adjustment, Deal, ScoreSheet, TablePlay
from scoring.sheets import services
from scoring.standings import disclosure

META_FIELDS = ("play", "deal", "expected_version", "note")


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
            expected=data.get("expected"),
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
            expected=data.get("expected"),
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
    @extend_schema(
        request=None,
        responses=None,
        parameters=[
            OpenApiParameter(
                "expected",
                str,
                description="optional: the ids of the table-round's adjustments the caller "
                "saw, joined by dots («12.15»; «-»: none); changed meanwhile: 409",
            )
        ],
    )
    def delete(self, request, event_pk, pk):
        event = _own_event(request, event_pk)
        found = get_object_or_404(
            Adjustment.objects.filter(play__round__room__session__event=event), pk=pk
        )
        services.adjustment_delete(
            found, by_user=request.user, expected=request.query_params.get("expected") or None
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class Publish(APIView):
    @extend_schema(request=PublishSerializer, responses=PublishSerializer)
    def post(self, request, event_pk):
        event = _own_event(request, event_pk)
        given = PublishSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        event_set_results_public(event, given.validated_data["public"], by_user=request.user)
        # Publishing shows the standings now, each deal once played out (scoring.standings.disclosure).
        found = disclosure.event_disclosure(event)
        return Response(
            {"public": event.results_public, "deals": {"shown": found.shown, "total": found.total}}
        )
