"""The movements API under /api/v1/: plan options, choosing one, seating by round and by
participant. Ownership as on the pages: another director's event or session is a 404."""

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from events import jsondepth
from events.access import api_check, api_event
from events.models import Event, Room, Session
from movements import cards, seating, services


def _event(request, pk) -> Event:
    """The event, if the account sees it (else 404) and its role allows the operation
    (events.access.API_ACTIONS; else 403)."""
    return api_event(request, pk)


def _session(request, pk) -> Session:
    session = get_object_or_404(
        Session.objects.filter(event__in=Event.objects.visible_to(request.user)).select_related(
            "event"
        ),
        pk=pk,
    )
    api_check(request, session.event)
    return session


class SessionRoomSerializer(serializers.ModelSerializer):
    tables = serializers.SerializerMethodField()

    class Meta:
        model = Room
        fields = [
            "id",
            "number",
            "name",
            "kind",
            "seats",
            "tables",
            "rounds_planned",
            "first_participant",
            "participants",
            "scheme",
            "metrics",
        ]

    def get_tables(self, room) -> int:
        return room.tables.count()


class SessionSerializer(serializers.ModelSerializer):
    rooms = SessionRoomSerializer(many=True, read_only=True)

    class Meta:
        model = Session
        # The seed itself is never sent: it is revealed on the public results once published.
        fields = [
            "id",
            "event",
            "number",
            "participants",
            "plan",
            "dealing",
            "deal_seed_hash",
            "created_at",
            "rooms",
        ]
        read_only_fields = ["dealing", "deal_seed_hash"]


class ChooseSerializer(serializers.Serializer):
    option = serializers.JSONField(
        help_text="An option's index in GET …/plan/, or an option object {rooms: [...]}."
    )
    rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    dealing = serializers.ChoiceField(
        choices=[("", "by hand"), ("app", "by the app, from a seed")],
        required=False,
        default="",
        help_text="«app»: every deal is dealt from a fresh seed whose SHA-256 is shown at once.",
    )
    another = serializers.BooleanField(
        default=False, help_text="Required true when the event already has a session."
    )

    def validate_option(self, value):
        options = self.context["plan"]["options"]
        if isinstance(value, str):
            text = value.strip()
            if text.isascii() and text.isdigit():
                value = int(text)
            else:
                try:
                    value = jsondepth.loads(text)
                except ValueError:
                    value = None
        if isinstance(value, int) and not isinstance(value, bool):
            if not 0 <= value < len(options):
                if not options:
                    raise serializers.ValidationError(
                        _("No movement seats exactly %(n)d players; nearest: %(near)s.")
                        % {
                            "n": self.context["plan"]["participants"],
                            "near": ", ".join(map(str, self.context["plan"]["nearest"])) or "—",
                        }
                    )
                raise serializers.ValidationError(
                    _("There is no option %(value)s: choose 0–%(last)d.")
                    % {"value": value, "last": len(options) - 1}
                )
            return options[value]
        if isinstance(value, dict):
            return value
        raise serializers.ValidationError(
            _("Give an option's index or an option object with rooms.")
        )


def _sitter(who: cards.Sitter | None) -> dict | None:
    if who is None:
        return None
    return {"participant": who.participant, "entry": who.entry, "name": who.name}


class EventPlanView(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="Ways to seat the playing players")
    def get(self, request, pk):
        event = _event(request, pk)
        doc = seating.event_plan(event)
        doc["next_session"] = services.next_session_number(event)
        return Response(doc)


class EventSessionsView(APIView):
    @extend_schema(responses=SessionSerializer(many=True))
    def get(self, request, pk):
        event = _event(request, pk)
        sessions = event.sessions.prefetch_related("rooms__tables")
        return Response(SessionSerializer(sessions, many=True).data)

    @extend_schema(request=ChooseSerializer, responses={201: SessionSerializer})
    def post(self, request, pk):
        event = _event(request, pk)
        plan = seating.event_plan(event)
        serializer = ChooseSerializer(data=request.data, context={"plan": plan})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        next_number = services.next_session_number(event)
        try:
            session = services.session_create(
                event,
                data["option"],
                by=request.user,
                rounds=data.get("rounds"),
                number=None if data["another"] else 1,
                dealing=data.get("dealing", ""),
            )
        except ValidationError as error:
            if hasattr(error, "error_dict") and "number" in error.error_dict:
                raise serializers.ValidationError(
                    {
                        "another": [
                            _(
                                "The event already has a session; send «another»: true to "
                                "create session %(number)d."
                            )
                            % {"number": next_number}
                        ]
                    }
                ) from None
            raise
        session = Session.objects.prefetch_related("rooms__tables").get(pk=session.pk)
        return Response(SessionSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionDetailView(APIView):
    @extend_schema(responses=SessionSerializer)
    def get(self, request, pk):
        session = _session(request, pk)
        return Response(SessionSerializer(session).data)


class SessionRoundView(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="Who sits where in a round")
    def get(self, request, pk, number):
        session = _session(request, pk)
        rooms = []
        for room in seating.session_seating(session):
            index = next((i for i, r in enumerate(room.rounds) if r.number == number), None)
            if index is None:
                continue
            rnd, goes = room.rounds[index], cards.round_destinations(room, index)
            rooms.append(
                {
                    "room": room.number,
                    "name": room.label,
                    "kind": room.kind,
                    "tables": [
                        {
                            "table": t.table,
                            "set": t.set_label,
                            "seats": {p: _sitter(w) for p, w in t.seats.items()},
                            "set_goes_to": goes.get(t.table, []),
                        }
                        for t in rnd.tables
                    ],
                    "pauses": [_sitter(w) for w in rnd.pauses],
                }
            )
        if not rooms:
            return Response(
                {"detail": _("This session has no round %(n)d.") % {"n": number}},
                status=status.HTTP_404_NOT_FOUND,
            )
        return Response(
            {"session": session.pk, "number": session.number, "round": number, "rooms": rooms}
        )


class SessionParticipantView(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="A participant's seat in every round")
    def get(self, request, pk, number):
        session = _session(request, pk)
        card = next(
            (
                c
                for c in cards.participant_cards(seating.session_seating(session))
                if c.participant == number
            ),
            None,
        )
        if card is None:
            return Response(
                {"detail": _("No participant %(n)d in this session.") % {"n": number}},
                status=status.HTTP_404_NOT_FOUND,
            )
        return Response(
            {
                "session": session.pk,
                "participant": card.participant,
                "names": list(card.names),
                "rounds": [
                    {
                        "round": r.round,
                        "room": r.room,
                        "table": r.table,
                        "position": r.position or None,
                        "set": r.set_label or None,
                        "pause": r.is_pause,
                        "entry": r.entry,
                        "name": r.name,
                    }
                    for r in card.rows
                ],
            }
        )


api_urls = [
    path("events/<int:pk>/plan/", EventPlanView.as_view(), name="event-plan"),
    path("events/<int:pk>/sessions/", EventSessionsView.as_view(), name="event-sessions"),
    path("sessions/<int:pk>/", SessionDetailView.as_view(), name="session-detail"),
    path(
        "sessions/<int:pk>/rounds/<int:number>/",
        SessionRoundView.as_view(),
        name="session-round",
    ),
    path(
        "sessions/<int:pk>/participants/<int:number>/",
        SessionParticipantView.as_view(),
        name="session-participant",
    ),
]
