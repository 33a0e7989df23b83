"""The tables' calls («Позвать судью», issue 34) in the API, under /api/v1/events/{id}/calls/:
the list (``?room=&state=``, oldest first, paginated as the other lists: ``?limit=&offset=``)
and a director's «Иду» (``{pk}/going/``) and «Решено» (``{pk}/close/``), which the same
service answers as the console's buttons (``events.calls``): a role that may not answer
calls in the call's room is refused 403, a resolved call's «Иду» is a 400 naming
``state``; «Решено» on a resolved call changes nothing (200, the call as it is)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from events import calls
from events.access import api_event
from events.models import TableCall
from events.params import MAX_INT


class CallFilterSerializer(serializers.Serializer):
    room = serializers.IntegerField(
        min_value=1, max_value=MAX_INT, required=False, help_text="room number"
    )
    state = serializers.ChoiceField(
        choices=TableCall.State.values, required=False, allow_blank=True, help_text="state"
    )


class CallSerializer(serializers.Serializer):
    """A table's call: where (session, room and table numbers), the round it was made in,
    the seat and player who called ("" and null when the table's phone did not say), why,
    its state and when each step was taken, and by whom (logins)."""

    id = serializers.IntegerField(read_only=True)
    session = serializers.IntegerField(source="table.room.session.number", read_only=True)
    room = serializers.IntegerField(source="table.room.number", read_only=True)
    table = serializers.IntegerField(source="table.number", read_only=True)
    round = serializers.IntegerField(source="round.number", read_only=True, allow_null=True)
    seat = serializers.CharField(source="position", read_only=True)
    entry = serializers.IntegerField(source="entry_id", read_only=True, allow_null=True)
    reason = serializers.ChoiceField(choices=TableCall.Reason.values, read_only=True)
    state = serializers.ChoiceField(choices=TableCall.State.values, read_only=True)
    opened_at = serializers.DateTimeField(read_only=True)
    going_at = serializers.DateTimeField(read_only=True, allow_null=True)
    going_by = serializers.SerializerMethodField()
    closed_at = serializers.DateTimeField(read_only=True, allow_null=True)
    closed_by = serializers.SerializerMethodField()

    def get_going_by(self, call) -> str:
        return call.going_by.get_username() if call.going_by else ""

    def get_closed_by(self, call) -> str:
        return call.closed_by.get_username() if call.closed_by else ""


def _calls(event):
    return TableCall.objects.filter(table__room__session__event=event).select_related(
        "table__room__session", "round", "going_by", "closed_by"
    )


class CallList(generics.ListAPIView):
    serializer_class = CallSerializer
    queryset = TableCall.objects.none()  # the schema's model; get_queryset reads the request

    @extend_schema(
        summary="The tables' calls",
        description="The tables' «Call the director», oldest first: filtered by the room "
        "number and the state (open: waiting; going: a director is on the way; closed).",
        parameters=[
            OpenApiParameter("room", int, description="room number"),
            OpenApiParameter("state", str, enum=TableCall.State.values, description="state"),
        ],
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        event = api_event(self.request, self.kwargs["event_pk"])
        given = CallFilterSerializer(data=self.request.query_params)
        given.is_valid(raise_exception=True)
        filters = given.validated_data
        found = _calls(event)
        if filters.get("room") is not None:
            found = found.filter(table__room__number=filters["room"])
        if filters.get("state"):
            found = found.filter(state=filters["state"])
        return found.order_by("opened_at", "id")


class _Answer(APIView):
    service = None

    def post(self, request, event_pk, call_pk):
        event = api_event(request, event_pk)
        call = get_object_or_404(_calls(event), pk=call_pk)
        type(self).service(call, by=request.user)
        return Response(CallSerializer(get_object_or_404(_calls(event), pk=call.pk)).data)


class CallGoing(_Answer):
    service = staticmethod(calls.call_going)

    @extend_schema(request=None, responses={200: CallSerializer}, summary="«On my way»")
    def post(self, request, event_pk, call_pk):
        """A director is on the way to the table (a call going already stays so; a resolved
        one is refused, 400 naming ``state``)."""
        return super().post(request, event_pk, call_pk)


class CallClose(_Answer):
    service = staticmethod(calls.call_close)

    @extend_schema(request=None, responses={200: CallSerializer}, summary="«Resolved»")
    def post(self, request, event_pk, call_pk):
        """The call is resolved (a resolved call stays as it is)."""
        return super().post(request, event_pk, call_pk)
