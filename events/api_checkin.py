"""The players' check-in over the API (issue 34), under /api/v1/events/{id}/checkin/: who
has checked in and who is missing, per room and table (``events.checkin.room_checkins``),
a director's mark by hand and its taking back. Everyone of the team reads it; marking asks
the role's «checkin» in the player's room (the chief, a director, a room director in his
rooms) — a refusal is a 403 ``{"detail": …}`` in the request's language; a player with no
seat in the session, a 400 naming ``entry``."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from events import checkin
from events.access import api_event
from events.models import Room, Session
from events.params import MAX_INT, api_query_int


class CheckSeatSerializer(serializers.Serializer):
    entry = serializers.IntegerField(help_text="the player's entry id")
    number = serializers.IntegerField(allow_null=True, help_text="his participant number")
    name = serializers.CharField()
    position = serializers.CharField(help_text="W, N, E or S; empty for a pause")
    checked_in = serializers.BooleanField()
    at = serializers.DateTimeField(allow_null=True, help_text="when he checked in")
    by_director = serializers.BooleanField(help_text="a director marked him by hand")


class CheckTableSerializer(serializers.Serializer):
    table = serializers.IntegerField(allow_null=True, help_text="table number; null: pause")
    present = serializers.IntegerField()
    seats = CheckSeatSerializer(many=True)


class CheckRoomSerializer(serializers.Serializer):
    room = serializers.IntegerField(help_text="room number")
    round = serializers.IntegerField(
        allow_null=True, help_text="the check-in shown: 0 before the session, n before round n"
    )
    open = serializers.BooleanField(help_text="the players may check in now")
    each_round = serializers.BooleanField(help_text="the session asks it before each round")
    present = serializers.IntegerField()
    total = serializers.IntegerField()
    tables = CheckTableSerializer(many=True)


class CheckInListSerializer(serializers.Serializer):
    session = serializers.IntegerField(help_text="session number")
    rooms = CheckRoomSerializer(many=True)


class CheckInMarkSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=MAX_INT, help_text="entry id")
    round = serializers.IntegerField(
        min_value=0, max_value=32767, help_text="0: before the session; n: before round n"
    )
    session = serializers.IntegerField(
        min_value=1,
        max_value=32767,
        required=False,
        help_text="session number (default: the event's last session)",
    )


class CheckInRowSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    session = serializers.IntegerField(help_text="session number")
    round = serializers.IntegerField()
    at = serializers.DateTimeField()
    by_director = serializers.BooleanField()


def _session(event, number: int | None) -> Session:
    sessions = Session.objects.filter(event=event)
    if number is not None:
        return get_object_or_404(sessions, number=number)
    found = sessions.order_by("-number").first()
    if found is None:
        raise exceptions.NotFound()
    return found


def _room_doc(room: Room) -> dict:
    state = checkin.room_checkins(room)
    return {
        "room": room.number,
        "round": state.round,
        "open": state.asked,
        "each_round": state.each_round,
        "present": state.present,
        "total": state.total,
        "tables": [
            {
                "table": t.table,
                "present": t.present,
                "seats": [
                    {
                        "entry": s.entry_id,
                        "number": s.number,
                        "name": s.name,
                        "position": s.position,
                        "checked_in": s.present,
                        "at": s.at,
                        "by_director": s.by_hand,
                    }
                    for s in t.seats
                ],
            }
            for t in state.tables
        ],
    }


class CheckInList(APIView):
    @extend_schema(
        summary="The players' check-in",
        description="Per room of the session and per table: each seat's player, checked in "
        "or missing, for the check-in asked now (or the last one asked).",
        parameters=[
            OpenApiParameter("session", int, description="session number (default: the last)"),
            OpenApiParameter("room", int, description="room number (default: every room)"),
        ],
        responses=CheckInListSerializer,
    )
    def get(self, request, event_pk):
        event = api_event(request, event_pk, "view")
        session = _session(event, api_query_int(request, "session"))
        rooms = session.rooms.select_related("session__event").order_by("number")
        number = api_query_int(request, "room")
        if number is not None:
            rooms = rooms.filter(number=number)
            if not rooms.exists():
                raise exceptions.NotFound()
        doc = {"session": session.number, "rooms": [_room_doc(room) for room in rooms]}
        return Response(CheckInListSerializer(doc).data)

    @extend_schema(
        summary="Check a player in by hand",
        request=CheckInMarkSerializer,
        responses={200: CheckInRowSerializer},
    )
    def post(self, request, event_pk):
        """Mark the player as here for that check-in; marking again changes nothing."""
        event = api_event(request, event_pk, "view")
        given = CheckInMarkSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        session = _session(event, data.get("session"))
        entry = get_object_or_404(event.entries, pk=data["entry"])
        row = checkin.checkin_mark(session, entry, round=data["round"], by=request.user)
        doc = {
            "entry": entry.pk,
            "session": session.number,
            "round": row.round,
            "at": row.at,
            "by_director": row.by_id is not None,
        }
        return Response(CheckInRowSerializer(doc).data, status=status.HTTP_200_OK)


class CheckInEntry(APIView):
    @extend_schema(
        summary="Take a check-in back",
        parameters=[
            OpenApiParameter("round", int, required=True, description="0: before the session"),
            OpenApiParameter("session", int, description="session number (default: the last)"),
        ],
        request=None,
        responses={204: None},
    )
    def delete(self, request, event_pk, entry_pk):
        """Take back a mark made by mistake (nothing changes if he was not checked in)."""
        event = api_event(request, event_pk, "view")
        round_number = api_query_int(request, "round", minimum=0, maximum=32767)
        if round_number is None:
            raise serializers.ValidationError(
                {"round": [_("Give the round: 0 for the check-in before the session.")]}
            )
        session = _session(event, api_query_int(request, "session", maximum=32767))
        entry = get_object_or_404(event.entries, pk=entry_pk)
        checkin.checkin_unmark(session, entry, round=round_number, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
