"""The register's API under /api/v1/register/ (issue 24; docs/register.md «API»): the
director's own persons — the list with its search, a person with his numbers, spellings and
events, an edit and a new person — through the same services and the same rules as the
register's pages. Another director's person is a 404; a number another person holds is a 400
on its field, naming the holder, in the language asked for.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, viewsets
from rest_framework.exceptions import NotFound

from events.models import Entry, Person, PersonAlias, PersonIdentifier
from events.names import clean_name
from events.register import matching, services
from events.roster import IDENTIFIER_MAX

KINDS = tuple(kind.value for kind in PersonIdentifier.Kind)
#: How many numbers of one kind a request may give (a person holds one or two).
NUMBERS_MAX = 20


class IdentifiersSerializer(serializers.Serializer):
    """A person's numbers by kind. Written: each kind given replaces his numbers of that
    kind (an empty list takes them all away); a kind left out stays as it is. Each number
    is stored without its spaces, once."""

    club_card = serializers.ListField(
        child=serializers.CharField(max_length=200, allow_blank=True),
        required=False,
        max_length=NUMBERS_MAX,
        help_text="club card numbers",
    )
    federation = serializers.ListField(
        child=serializers.CharField(max_length=200, allow_blank=True),
        required=False,
        max_length=NUMBERS_MAX,
        help_text="federation (ФСПР) numbers",
    )

    def to_representation(self, instance):
        """``instance`` is the person's ``identifiers`` manager (prefetched or not)."""
        found = {kind: [] for kind in KINDS}
        for identifier in instance.all():
            found.setdefault(identifier.kind, []).append(identifier.value)
        return {kind: sorted(values) for kind, values in found.items()}

    @staticmethod
    def _numbers(values: list[str], label) -> list[str]:
        """As the person's page reads its field: spaces dropped, blanks and repeats left
        out, each at most IDENTIFIER_MAX characters."""
        kept: list[str] = []
        for given in values:
            value = matching.norm_identifier(given)
            if not value:
                continue
            if len(value) > IDENTIFIER_MAX:
                raise serializers.ValidationError(
                    _("%(field)s is longer than %(max)d characters")
                    % {"field": label, "max": IDENTIFIER_MAX}
                )
            if value not in kept:
                kept.append(value)
        return kept

    def validate_club_card(self, values):
        return self._numbers(values, _("club card"))

    def validate_federation(self, values):
        return self._numbers(values, _("federation number"))


class AliasSerializer(serializers.ModelSerializer):
    class Meta:
        model = PersonAlias
        fields = ["last_name", "first_name", "patronymic", "club"]
        read_only_fields = fields


class PersonEntrySerializer(serializers.ModelSerializer):
    """One of his events, with his name and club as published there (an edit of the person
    never changes them)."""

    entry = serializers.IntegerField(source="pk", read_only=True)
    event = serializers.IntegerField(source="event_id", read_only=True)
    event_name = serializers.CharField(source="event.name", read_only=True)
    date = serializers.DateField(source="event.date", read_only=True)
    name = serializers.CharField(source="full_name", read_only=True)

    class Meta:
        model = Entry
        fields = ["entry", "event", "event_name", "date", "name", "club"]
        read_only_fields = fields


class PersonSerializer(serializers.ModelSerializer):
    """A person of the register as listed: names, club, «hidden», numbers."""

    identifiers = IdentifiersSerializer(required=False)

    class Meta:
        model = Person
        fields = [
            "id",
            "last_name",
            "first_name",
            "patronymic",
            "club",
            "hidden",
            "identifiers",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["created_at", "updated_at"]
        extra_kwargs = {
            "hidden": {"help_text": "hidden from public pages (the ladder) on his request"}
        }

    @staticmethod
    def _required(value: str, label) -> str:
        """A name cleaned as it will be stored (events.names); empty, refused on its field."""
        value = clean_name(value)
        if not value:
            raise serializers.ValidationError(
                _("The %(field)s cannot be empty.") % {"field": label}
            )
        return value

    def validate_last_name(self, value):
        return self._required(value, _("last name"))

    def validate_first_name(self, value):
        return self._required(value, _("first name"))


class PersonDetailSerializer(PersonSerializer):
    """A person with his spellings seen and his events; ``merged_into``: the person he was
    merged with (then he is in no list, and is edited only after the merge is undone)."""

    aliases = AliasSerializer(many=True, read_only=True)
    entries = serializers.SerializerMethodField()
    merged_into = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)

    class Meta(PersonSerializer.Meta):
        fields = [*PersonSerializer.Meta.fields, "merged_into", "aliases", "entries"]
        read_only_fields = [*PersonSerializer.Meta.read_only_fields, "merged_into"]

    @extend_schema_field(PersonEntrySerializer(many=True))
    def get_entries(self, person) -> list[dict]:
        entries = person.entries.select_related("event").order_by(
            "-event__date", "event__name", "pk"
        )
        return PersonEntrySerializer(entries, many=True).data


class SearchSerializer(serializers.Serializer):
    q = serializers.CharField(required=False, allow_blank=True, max_length=200)


def _service_error(error: ValidationError) -> serializers.ValidationError:
    """A service's refusal as the API answers it: a number's refusal under «identifiers»,
    on its kind; a name's on its field."""
    if not hasattr(error, "error_dict"):
        return serializers.ValidationError(serializers.as_serializer_error(error))
    found: dict = {}
    for name, problems in serializers.as_serializer_error(error).items():
        if name in KINDS:
            found.setdefault("identifiers", {})[name] = problems
        else:
            found[name] = problems
    return serializers.ValidationError(found)


@extend_schema_view(
    list=extend_schema(
        description="The director's register, merged persons left out; «q» searches by the "
        "name key (ё = е, case, spaces and hyphens ignored), a club, or a number held exactly.",
        parameters=[OpenApiParameter("q", str, description="name, club or number")],
    ),
    retrieve=extend_schema(responses=PersonDetailSerializer),
    partial_update=extend_schema(
        request=PersonSerializer,
        responses=PersonDetailSerializer,
        description="Names, club, «hidden» and numbers, as the person's page: a number "
        "another person holds is refused on «identifiers.<kind>», naming him; his events keep "
        "the names and clubs as published.",
    ),
    create=extend_schema(
        request=PersonSerializer,
        responses={201: PersonDetailSerializer},
        description="A new person of the register, his name kept as a spelling; the same "
        "checks as an edit.",
    ),
)
class PersonViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    http_method_names = ["get", "post", "patch", "head", "options"]
    # The schema's path parameter is a whole number; get_queryset reads the request.
    queryset = Person.objects.none()
    lookup_value_regex = "[0-9]+"

    def get_serializer_class(self):
        return PersonSerializer if self.action == "list" else PersonDetailSerializer

    def get_queryset(self):
        if self.action == "list":
            given = SearchSerializer(data=self.request.query_params)
            given.is_valid(raise_exception=True)
            found = services.register_search(self.request.user, given.validated_data.get("q", ""))
        else:
            found = Person.objects.filter(owner=self.request.user).select_related("merged_into")
        return found.prefetch_related("identifiers", "aliases")

    def get_object(self):
        """His own person, else DRF's «Not found.» in the caller's language (the generic
        lookup's Http404 names the model in English)."""
        found = self.get_queryset().filter(pk=self.kwargs["pk"]).first()
        if found is None:
            raise NotFound()
        self.check_object_permissions(self.request, found)
        return found

    def perform_update(self, serializer):
        person = serializer.instance
        if person.merged_into_id:
            raise serializers.ValidationError(
                {
                    "merged_into": [
                        _("%(person)s is already merged with %(other)s: undo that merge first.")
                        % {
                            "person": services.person_label(person),
                            "other": services.person_label(person.merged_into),
                        }
                    ]
                }
            )
        data = dict(serializer.validated_data)
        numbers = data.pop("identifiers", {})
        try:
            serializer.instance = services.person_update(
                Person.objects.get(pk=person.pk), numbers=numbers, **data
            )
        except ValidationError as error:
            raise _service_error(error) from None
        except IntegrityError:
            # Another request took one of the numbers between the check and the write: the
            # check, made again, now names the holder.
            serializer.instance = self._again(person.pk, numbers, data)

    def _again(self, pk, numbers, data):
        try:
            return services.person_update(Person.objects.get(pk=pk), numbers=numbers, **data)
        except ValidationError as error:
            raise _service_error(error) from None

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        numbers = data.pop("identifiers", {})
        names = {
            name: clean_name(data.get(name, ""))
            for name in ("last_name", "first_name", "patronymic", "club")
        }
        for attempt in (1, 2):
            try:
                with transaction.atomic():
                    person = Person.objects.create(
                        owner=self.request.user, hidden=data.get("hidden", False), **names
                    )
                    PersonAlias.objects.create(person=person, **names)
                    serializer.instance = services.person_update(person, numbers=numbers)
                return
            except ValidationError as error:
                raise _service_error(error) from None
            except IntegrityError:
                if attempt == 2:
                    raise
