"""The event's team over the API (issue 34), under /api/v1/events/{id}/staff/: who serves
the event and in which role (``events.staff``). Everyone of the team reads it; only the
chief (the owner, or a superuser) changes it — a refusal is a 403 ``{"detail": …}`` in the
request's language; a login of no account and no password, a 400 naming ``login``."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from events import staff
from events.access import api_event
from events.models import EventStaff


class StaffMemberSerializer(serializers.Serializer):
    login = serializers.CharField(help_text="the account's login")
    role = serializers.ChoiceField(
        choices=[staff.CHIEF, *EventStaff.Role.values],
        help_text="chief (the event's owner) | director | room | secretary",
    )
    rooms = serializers.ListField(
        child=serializers.IntegerField(), help_text="a room director's room numbers"
    )


class StaffAddSerializer(serializers.Serializer):
    login = serializers.CharField(max_length=150, help_text="an account's login, or a new one's")
    role = serializers.ChoiceField(choices=EventStaff.Role.values)
    rooms = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=staff.ROOM_MAX),
        required=False,
        default=list,
        max_length=100,
        help_text="the room numbers of a room director (role «room» only)",
    )
    password = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=128,
        write_only=True,
        help_text="for a new account only: its password (shown nowhere afterwards)",
    )


class StaffList(APIView):
    """The event's team: the owner first (role «chief»), then the staff."""

    @extend_schema(responses=StaffMemberSerializer(many=True))
    def get(self, request, event_pk):
        event = api_event(request, event_pk, "view")
        return Response(StaffMemberSerializer(staff.staff_list(event), many=True).data)

    @extend_schema(request=StaffAddSerializer, responses={201: StaffMemberSerializer})
    def post(self, request, event_pk):
        """Add an account to the team (made here when ``password`` is given and no account
        has the login), or change a member's role and rooms. The chief's only."""
        event = api_event(request, event_pk, "staff")
        given = StaffAddSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        row = staff.staff_add(
            event,
            data["login"],
            data["role"],
            data.get("rooms") or (),
            data.get("password") or None,
            by_user=request.user,
        )
        member = {"login": row.user.get_username(), "role": row.role, "rooms": sorted(row.rooms)}
        return Response(StaffMemberSerializer(member).data, status=status.HTTP_201_CREATED)


class StaffMember(APIView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request, event_pk, login):
        """Take the account off the team: his access ends at his next request. The chief's
        only."""
        event = api_event(request, event_pk, "staff")
        staff.staff_remove(event, login, by_user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
