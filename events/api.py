"""The events API under /api/v1/: the same operations as the director's pages."""

import json

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from events import roster, rounds, services, signals
from events.access import api_check, api_event
from events.models import GAME_FIELDS, Draw, Entry, Event, Room, Round, Table
from events.names import clean_name
from events.parsers import BoundedJSONParser
from events.register import services as register

#: What the register says of a player: the machine values, as docs/register.md words them.
REGISTER_STATES = ["new", "found", "several"]


class RegisterPersonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(source="full_name")
    club = serializers.CharField()


class RegisterMatchSerializer(serializers.Serializer):
    """What the register proposes for a player, matched as the director's pages match:
    «new» (nobody like him: a new person), «found» (one person: linked to him unless another
    choice is given), «several» (similar persons: linked to the one chosen, else joined
    unlinked, for the director to link on the player's edit page or ``…/link/``)."""

    state = serializers.ChoiceField(choices=REGISTER_STATES)
    label = serializers.CharField(help_text="the state in words, in the reader's language")
    persons = serializers.SerializerMethodField(help_text="the persons proposed to choose from")
    chosen = serializers.CharField(
        help_text="a person's id, «new», or empty: joined unlinked, to link later"
    )

    @extend_schema_field(RegisterPersonSerializer(many=True))
    def get_persons(self, match):
        return RegisterPersonSerializer(match.persons.values(), many=True).data


class EventSerializer(serializers.ModelSerializer):
    owner = serializers.StringRelatedField(read_only=True)

    class Meta:
        model = Event
        fields = [
            "id",
            "owner",
            "name",
            "date",
            "venue",
            "minutes_per_deal",
            "scoring_method",
            "pot_rule",
            "stake",
            "suit_order",
            "average_plus",
            "average",
            "average_minus",
            *GAME_FIELDS,
            "game_line",
            "results_public",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["results_public", "created_at", "updated_at"]
        extra_kwargs = {
            "game": {
                "help_text": "austrian (the default: the pot game) | sochi | leningrad | rostov "
                "(the Russian game, docs/game.md §9); fixed once a sheet is recorded"
            },
            "ten": {
                "help_text": "the Russian game's contract of 10: checked | whisted; left out, "
                "the convention's default (Сочи, Ростов checked; Ленинград whisted); empty "
                "for the Austrian game"
            },
            "responsibility": {
                "help_text": "the Russian game's whister's responsibility: full | half; left "
                "out, the convention's default (Сочи, Ростов full; Ленинград half); empty "
                "for the Austrian game"
            },
            "stalingrad": {
                "help_text": "the Russian game's «Сталинград»: at 6♠ both defenders must "
                "whist (off by default); false for the Austrian game"
            },
        }

    game_line = serializers.CharField(
        read_only=True, help_text="The game and its options in one line, in the reader's language."
    )

    def validate(self, attrs):
        """The game and its options are fixed once the event has a sheet: a change is
        refused on the field that tries it."""
        attrs = super().validate(attrs)
        event = self.instance
        if event is None:
            return attrs
        changing = [
            name for name in GAME_FIELDS if name in attrs and attrs[name] != getattr(event, name)
        ]
        if changing and signals.any_answer(signals.results_recorded, sender=Event, event=event):
            why = _("Score sheets are already recorded with this game; it can no longer change.")
            raise serializers.ValidationError({name: [why] for name in changing})
        return attrs

    def validate_name(self, value):
        value = clean_name(value)
        if not value:
            raise serializers.ValidationError(_("The name cannot be empty."))
        return value


class EntrySerializer(serializers.ModelSerializer):
    person = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        help_text="on creation, who he is in the register: a person's id or «new»; left "
        "out, the register's proposal (see ``register``)",
    )
    person_id = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="the person of the register he is linked to"
    )
    register = serializers.SerializerMethodField(
        help_text="what the register proposed for him: on creation, and on a GET of one "
        "player who is linked to nobody"
    )
    expected = serializers.JSONField(
        write_only=True,
        required=False,
        help_text="on a change, optional: his fields as the caller saw them "
        '({"last_name", "first_name", "club", "number"}, any of them); one changed meanwhile '
        "by another director: 409 saying what changed, nothing saved. Absent: not compared",
    )

    class Meta:
        model = Entry
        fields = [
            "id",
            "last_name",
            "first_name",
            "club",
            "number",
            "status",
            "created_at",
            "person",
            "person_id",
            "register",
            "expected",
        ]
        read_only_fields = ["status", "created_at"]

    def validate_expected(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError(
                _("Give the player's fields as you saw them, as an object.")
            )
        return value

    def validate(self, attrs):
        if self.instance is None:
            attrs.pop("expected", None)  # a new player: nothing to compare
        if self.instance is not None and "person" in attrs:
            raise serializers.ValidationError(
                {"person": [_("A player is linked to a person with «…/link/».")]}
            )
        return attrs

    @extend_schema_field(RegisterMatchSerializer(allow_null=True))
    def get_register(self, entry):
        match = getattr(entry, "register_match", None)
        return RegisterMatchSerializer(match).data if match is not None else None

    def validate_last_name(self, value):
        return _required(value, _("last name"))

    def validate_first_name(self, value):
        return _required(value, _("first name"))


def _required(value: str, label) -> str:
    """A name cleaned as it will be stored (events.names); empty, refused on its field."""
    value = clean_name(value)
    if not value:
        raise serializers.ValidationError(_("The %(field)s cannot be empty.") % {"field": label})
    return value


class LinkSerializer(serializers.Serializer):
    person = serializers.CharField(
        max_length=20, help_text="a person's id among those proposed, or «new»"
    )


class WithdrawSerializer(serializers.Serializer):
    # A player still seated in rounds to play is withdrawn only with confirm: true.
    confirm = serializers.BooleanField(default=False)


class ChoicesField(serializers.JSONField):
    """Who each line's player is in the register: {"<line>": "<person id>" | "new"}; a line
    left out takes the register's proposal. Sent as a JSON string in a multipart form."""

    def __init__(self, **kwargs):
        super().__init__(
            required=False,
            help_text='who each line is in the register: {"<line>": "<person id>" or "new"}; '
            "a line left out: the register's proposal (found: that person; new: a new "
            "person; several: joined unlinked, to link later)",
            **kwargs,
        )

    def to_internal_value(self, data):
        if isinstance(data, str):  # a multipart form's field
            try:
                data = json.loads(data)
            except ValueError:
                data = None
        value = super().to_internal_value(data)
        if not isinstance(value, dict) or not all(
            isinstance(v, str | int) and not isinstance(v, bool) for v in value.values()
        ):
            raise serializers.ValidationError(
                _('Expected an object: {"<line>": "<person id>" or "new"}.')
            )
        return value


class PasteSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=200_000, trim_whitespace=False)
    choices = ChoicesField()


class ImportSerializer(serializers.Serializer):
    file = serializers.FileField()
    dry_run = serializers.BooleanField(default=False)
    choices = ChoicesField()


class RowSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    last_name = serializers.CharField()
    first_name = serializers.CharField()
    club = serializers.CharField()
    number = serializers.IntegerField(allow_null=True)
    problems = serializers.ListField(child=serializers.CharField())
    register = RegisterMatchSerializer(help_text="what the register proposes for the line")


class ImportResultSerializer(serializers.Serializer):
    """What an import answers: every row with its problems; with none, the players created
    (201), or on a dry run nothing created (200); with problems, 400 and ``errors``."""

    rows = RowSerializer(many=True)
    ok = serializers.BooleanField()
    created = EntrySerializer(many=True, required=False)
    errors = serializers.DictField(child=serializers.CharField(), required=False)


IMPORT_ANSWERS = {200: ImportResultSerializer, 201: ImportResultSerializer}


class DrawSerializer(serializers.ModelSerializer):
    class Meta:
        model = Draw
        fields = ["id", "seed", "made_at", "numbers"]
        read_only_fields = ["made_at", "numbers"]
        extra_kwargs = {"seed": {"required": False, "allow_blank": True}}


class TableSerializer(serializers.ModelSerializer):
    class Meta:
        model = Table
        fields = ["id", "number", "seats"]


class RoomSerializer(serializers.ModelSerializer):
    tables = TableSerializer(many=True, read_only=True)

    class Meta:
        model = Room
        fields = [
            "id",
            "session",
            "number",
            "name",
            "kind",
            "seats",
            "rounds_planned",
            "first_participant",
            "participants",
            "tables",
        ]


class RoundsStartSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=240,
        help_text="the round's length; none: deals × minutes per deal",
    )


class RoomStartSerializer(serializers.Serializer):
    room = serializers.IntegerField(source="room.number")
    name = serializers.CharField(source="room")
    outcome = serializers.CharField(help_text="started | running | done | refused")
    round = serializers.IntegerField(allow_null=True)
    message = serializers.CharField()


class RoundsStartedSerializer(serializers.Serializer):
    """What «Start the round in every room» did: the session and each room's outcome."""

    session = serializers.IntegerField()
    rooms = RoomStartSerializer(many=True)


class EventViewSet(viewsets.ModelViewSet):
    serializer_class = EventSerializer
    http_method_names = ["get", "post", "put", "patch", "head", "options"]

    def get_queryset(self):
        return Event.objects.visible_to(self.request.user).select_related("owner")

    def get_object(self):
        """The event, if the account's role allows the operation (events.access.API_ACTIONS)."""
        return api_check(self.request, super().get_object())

    def perform_create(self, serializer):
        serializer.instance = services.event_create(
            owner=self.request.user, **serializer.validated_data
        )

    def perform_update(self, serializer):
        serializer.instance = services.event_update(
            serializer.instance, **serializer.validated_data
        )

    @extend_schema(methods=["GET"], responses=DrawSerializer(many=True))
    @extend_schema(methods=["POST"], request=DrawSerializer, responses={201: DrawSerializer})
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def draws(self, request, pk=None):
        event = self.get_object()
        if request.method == "GET":
            return Response(DrawSerializer(event.draws.all(), many=True).data)
        serializer = DrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        made = services.draw_make(
            event, by=request.user, seed=serializer.validated_data.get("seed")
        )
        return Response(DrawSerializer(made).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RoundsStartSerializer, responses=RoundsStartedSerializer)
    @action(detail=True, methods=["post"], url_path=r"sessions/(?P<number>[0-9]+)/rounds/start")
    def rounds_start(self, request, pk=None, number=None):
        """«Start the round in every room»: the next round of every room of the session; each
        room's result (a room already on the clock is reported, not an error)."""
        event = self.get_object()
        session = get_object_or_404(event.sessions, number=number)
        given = RoundsStartSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        minutes = given.validated_data.get("minutes")
        done = rounds.session_start_rounds(
            session, length_seconds=minutes * 60 if minutes else None, by_user=request.user
        )
        return Response(
            {"session": session.number, "rooms": RoomStartSerializer(done, many=True).data}
        )

    @extend_schema(responses=RoomSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)
    def rooms(self, request, pk=None):
        event = self.get_object()
        return Response(
            RoomSerializer(Room.objects.of_event(event).prefetch_related("tables"), many=True).data
        )


class EntryViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = EntrySerializer
    parser_classes = [BoundedJSONParser, FormParser, MultiPartParser]

    def get_event(self) -> Event:
        if not hasattr(self, "_event"):
            self._event = api_event(self.request, self.kwargs["event_pk"])
        return self._event

    def get_queryset(self):
        return self.get_event().entries.all()

    def perform_create(self, serializer):
        """The add form's way: the player joins matched against the register."""
        try:
            entry, match = register.entry_join(
                self.get_event(), **serializer.validated_data, by_user=self.request.user
            )
        except ValidationError as error:
            raise serializers.ValidationError(serializers.as_serializer_error(error)) from None
        entry.register_match = match
        serializer.instance = entry

    def perform_update(self, serializer):
        serializer.instance = services.entry_update(
            serializer.instance, by_user=self.request.user, **serializer.validated_data
        )

    def retrieve(self, request, *args, **kwargs):
        """One player; when he is linked to no person, what the register proposes for him
        (``register``), to link him with ``…/link/``."""
        entry = self.get_object()
        if entry.person_id is None:
            entry.register_match = register.entry_match(entry)
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=WithdrawSerializer, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request, event_pk=None, pk=None):
        given = WithdrawSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        entry = services.entry_withdraw(
            self.get_object(), confirmed=given.validated_data["confirm"], by_user=request.user
        )
        return Response(EntrySerializer(entry).data)

    @extend_schema(request=None, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def reinstate(self, request, event_pk=None, pk=None):
        entry = services.entry_reinstate(self.get_object(), by_user=request.user)
        return Response(EntrySerializer(entry).data)

    @extend_schema(
        request=LinkSerializer,
        responses=EntrySerializer,
        description="Link a player who is not linked to a person of the register (he "
        "joined as one of «several» similar, or before the API matched): one of the persons "
        "proposed (``register`` of the entry's ``GET``), or «new».",
    )
    @action(detail=True, methods=["post"])
    def link(self, request, event_pk=None, pk=None):
        given = LinkSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            entry = register.entry_link(self.get_object(), given.validated_data["person"])
        except ValidationError as error:
            raise serializers.ValidationError(serializers.as_serializer_error(error)) from None
        return Response(EntrySerializer(entry).data)

    def _import_rows(self, rows, dry_run: bool, choices=None):
        """Every door's way (docs/register.md): the rows checked against the event, each
        matched against the register, then saved linked (``register.import_linked``)."""
        event = self.get_event()
        matches = register.propose_rows(event, rows)
        check = services.roster_check(event, rows)
        problems = register.choices_read(matches, choices)
        body = {"rows": RowSerializer(check.rows, many=True).data, "ok": check.ok}
        if not check.ok:
            body["errors"] = {
                "rows": _("%(count)d rows have problems; nothing was saved.")
                % {"count": check.problem_count}
            }
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        if problems:
            body["ok"] = False
            body["errors"] = {"choices": problems}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        if dry_run:
            return Response(body)
        try:
            created = register.import_linked(event, rows, matches, by_user=self.request.user)
        except ValidationError as error:
            body["ok"] = False
            body["rows"] = RowSerializer(rows, many=True).data
            body["errors"] = {"rows": " ".join(error.messages)}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        body["created"] = EntrySerializer(created, many=True).data
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=PasteSerializer,
        responses=IMPORT_ANSWERS,
        parameters=[
            OpenApiParameter(
                "dry_run", str, enum=["1"], description="«1»: check only, create nothing"
            )
        ],
    )
    @action(detail=False, methods=["post"])
    def paste(self, request, event_pk=None):
        serializer = PasteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            rows = roster.parse_paste(serializer.validated_data["text"])
        except roster.RosterError as error:
            raise serializers.ValidationError({"text": [str(error)]}) from None
        if not rows:
            raise serializers.ValidationError({"text": [_("No players in the text.")]})
        return self._import_rows(
            rows,
            dry_run=request.query_params.get("dry_run") == "1",
            choices=serializer.validated_data.get("choices"),
        )

    @extend_schema(request={"multipart/form-data": ImportSerializer}, responses=IMPORT_ANSWERS)
    @action(detail=False, methods=["post"], url_path="import")
    def import_csv(self, request, event_pk=None):
        serializer = ImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        upload = serializer.validated_data["file"]
        try:
            if upload.size > roster.MAX_BYTES:
                raise roster.RosterError(_("The file is larger than 1 MB."))
            text, _encoding = roster.decode_csv(upload.read())
            rows = roster.parse_csv(text)
        except roster.RosterError as error:
            raise serializers.ValidationError({"file": [str(error)]}) from None
        return self._import_rows(
            rows,
            dry_run=serializer.validated_data["dry_run"],
            choices=serializer.validated_data.get("choices"),
        )


_entries = EntryViewSet.as_view({"get": "list", "post": "create"})
_entry = EntryViewSet.as_view({"get": "retrieve", "put": "update", "patch": "partial_update"})


class RoundSerializer(serializers.ModelSerializer):
    """A round and its clock, as the director's page shows it."""

    room = serializers.IntegerField(source="room_id", read_only=True)
    remaining_seconds = serializers.SerializerMethodField()
    timers_set = serializers.SerializerMethodField(
        help_text="false: the task queue did not answer, the server's timer is not set; the "
        "end still comes from the first read of the room's clock after its time"
    )

    class Meta:
        model = Round
        fields = [
            "id",
            "room",
            "number",
            "state",
            "length_seconds",
            "started_at",
            "ends_at",
            "ended_at",
            "remaining_seconds",
            "timers_set",
        ]
        read_only_fields = fields

    def get_remaining_seconds(self, rnd) -> int:
        return int(rounds.round_remaining(rnd).total_seconds())

    def get_timers_set(self, rnd) -> bool:
        return not self.context.get("timers_unqueued", False)


class RoundAdjustSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(
        min_value=-240, max_value=240, help_text="minutes to add (negative: to take off)"
    )

    def validate_minutes(self, value):
        if value == 0:
            raise serializers.ValidationError(_("Add or take off at least one minute."))
        return value


class RoundViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The event's rounds and their clock: start, pause, resume, change the time, end — the
    same services and the same rule of who may (the event's director) as the room's page."""

    serializer_class = RoundSerializer
    pagination_class = None

    def get_queryset(self):
        if not hasattr(self, "_event"):
            self._event = api_event(self.request, self.kwargs["event_pk"])
        event = self._event
        return (
            Round.objects.filter(room__session__event=event)
            .select_related("room__session__event")
            .order_by("room__session__number", "room__number", "number")
        )

    def _done(self, rnd) -> Response:
        rnd = self.get_queryset().get(pk=rnd.pk)
        context = self.get_serializer_context() | {"timers_unqueued": rounds.timers_unqueued()}
        return Response(RoundSerializer(rnd, context=context).data)

    @extend_schema(request=RoundsStartSerializer, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request, event_pk=None, pk=None):
        """«Round start!»: the round runs (the room's previous round must be over)."""
        rnd = self.get_object()
        given = RoundsStartSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        minutes = given.validated_data.get("minutes")
        rounds.timers_unqueued()  # what an earlier request of this thread left: not ours
        rounds.round_start(
            rnd, length_seconds=minutes * 60 if minutes else None, by_user=request.user
        )
        return self._done(rnd)

    @extend_schema(request=None, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def pause(self, request, event_pk=None, pk=None):
        rounds.timers_unqueued()
        return self._done(rounds.round_pause(self.get_object(), by_user=request.user))

    @extend_schema(request=None, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def resume(self, request, event_pk=None, pk=None):
        rounds.timers_unqueued()
        return self._done(rounds.round_resume(self.get_object(), by_user=request.user))

    @extend_schema(request=RoundAdjustSerializer, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def adjust(self, request, event_pk=None, pk=None):
        """Add (or, negative, take off) minutes while the round is on the clock."""
        rnd = self.get_object()
        given = RoundAdjustSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        rounds.timers_unqueued()
        seconds = given.validated_data["minutes"] * 60
        return self._done(rounds.round_adjust(rnd, seconds=seconds, by_user=request.user))

    @extend_schema(request=None, responses=RoundSerializer)
    @action(detail=True, methods=["post"])
    def end(self, request, event_pk=None, pk=None):
        """«Round over!» now (it cannot be undone)."""
        rounds.timers_unqueued()
        return self._done(rounds.round_end_now(self.get_object(), by_user=request.user))


_rounds = RoundViewSet.as_view({"get": "list"})
_round = RoundViewSet.as_view({"get": "retrieve"})


nested_urls = [
    path("events/<int:event_pk>/entries/", _entries, name="entry-list"),
    path(
        "events/<int:event_pk>/entries/paste/",
        EntryViewSet.as_view({"post": "paste"}),
        name="entry-paste",
    ),
    path(
        "events/<int:event_pk>/entries/import/",
        EntryViewSet.as_view({"post": "import_csv"}),
        name="entry-import",
    ),
    path("events/<int:event_pk>/entries/<int:pk>/", _entry, name="entry-detail"),
    path(
        "events/<int:event_pk>/entries/<int:pk>/withdraw/",
        EntryViewSet.as_view({"post": "withdraw"}),
        name="entry-withdraw",
    ),
    path(
        "events/<int:event_pk>/entries/<int:pk>/link/",
        EntryViewSet.as_view({"post": "link"}),
        name="entry-link",
    ),
    path(
        "events/<int:event_pk>/entries/<int:pk>/reinstate/",
        EntryViewSet.as_view({"post": "reinstate"}),
        name="entry-reinstate",
    ),
    path("events/<int:event_pk>/rounds/", _rounds, name="round-list"),
    path("events/<int:event_pk>/rounds/<int:pk>/", _round, name="round-detail"),
    *(
        path(
            f"events/<int:event_pk>/rounds/<int:pk>/{verb}/",
            RoundViewSet.as_view({"post": verb}),
            name=f"round-{verb}",
        )
        for verb in ("start", "pause", "resume", "adjust", "end")
    ),
]
