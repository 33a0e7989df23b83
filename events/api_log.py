"""The event's log in the API (issue 34): ``GET /api/v1/events/{id}/log/?kind=&login=&room=``,
newest first, paginated as the other lists (``?limit=&offset=``). The same rows as the
«Журнал» page and its CSV (``events.actionlog.log_lines``); read only — the log is written
by the services alone."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers

from events import actionlog
from events.models import ActionLog
from events.params import MAX_INT

# The page's one door for the event (its 404 is the API's «Not found.», config.api).
from events.views_log import log_event


class LogFilterSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=list(actionlog.KINDS), required=False, allow_blank=True, help_text="kind code"
    )
    login = serializers.CharField(
        max_length=150, required=False, allow_blank=True, help_text="the author's login"
    )
    room = serializers.IntegerField(
        min_value=1, max_value=MAX_INT, required=False, help_text="room number"
    )


class LogLineSerializer(serializers.Serializer):
    """One line: when (ISO 8601, the site's zone), who (the author's login, "" for none),
    which kind (a code of the log's kinds), the room and table numbers where known, the
    director's own words, and what the action replaced and made (the data as stored)."""

    at = serializers.DateTimeField(read_only=True)
    login = serializers.CharField(read_only=True)
    kind = serializers.CharField(read_only=True)
    room = serializers.IntegerField(read_only=True, allow_null=True)
    table = serializers.IntegerField(read_only=True, allow_null=True)
    summary = serializers.CharField(read_only=True)
    before = serializers.JSONField(read_only=True, allow_null=True)
    after = serializers.JSONField(read_only=True, allow_null=True)


class EventLog(generics.ListAPIView):
    serializer_class = LogLineSerializer
    queryset = ActionLog.objects.none()  # the schema's model; get_queryset reads the request

    @extend_schema(
        summary="The event's log",
        description="Every director's action on the event, newest first: who, when, where "
        "(room, table) and what it changed (before → after). Filtered by the kind, the "
        "author's login and the room.",
        parameters=[
            OpenApiParameter("kind", str, enum=list(actionlog.KINDS), description="kind code"),
            OpenApiParameter("login", str, description="the author's login"),
            OpenApiParameter("room", int, description="room number"),
        ],
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        event = log_event(self.request, self.kwargs["event_pk"])
        given = LogFilterSerializer(data=self.request.query_params)
        given.is_valid(raise_exception=True)
        filters = given.validated_data
        return actionlog.log_lines(
            event,
            login=filters.get("login", ""),
            room=filters.get("room"),
            kind=filters.get("kind", ""),
        )
