"""The club ladder's API under /api/v1/ladders/ (issue 24; docs/ladder.md «API»): public and
read only — a ladder's parameters and standings, and one person's rated sessions, exactly as
the last replay (``scoring.ladder.services.ladder_recompute``) wrote them. A person hidden from public
pages on his request is in neither: not listed, and his history is a 404.
"""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import ladder as core
from scoring.ladder import services as ladders
from scoring.models import Ladder, LadderGrade, LadderRow

#: The address's part, as its path converter <slug:…> reads it.
SLUG = OpenApiParameter(
    "slug",
    str,
    OpenApiParameter.PATH,
    description="the ladder's address",
    pattern=r"^[-a-zA-Z0-9_]+$",
)
STATUSES = [core.PROVISIONAL, core.REGULAR, core.ESTABLISHED, core.INACTIVE]


class LadderParamsSerializer(serializers.Serializer):
    k = serializers.FloatField()
    k_provisional = serializers.FloatField()
    start = serializers.FloatField()
    provisional_deals = serializers.IntegerField()
    min_deals = serializers.IntegerField()
    min_tables = serializers.IntegerField()


class LadderStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="among the active persons, best grade first, equal grades sharing it; "
        "null for an inactive person (listed after them, his grade kept)",
    )
    person = serializers.IntegerField(help_text="the person's id in the register")
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    grade = serializers.FloatField(help_text="full precision")
    deals = serializers.IntegerField(help_text="rated deals")
    sessions = serializers.IntegerField(help_text="rated sessions")
    status = serializers.ChoiceField(choices=STATUSES)
    change = serializers.FloatField(help_text="his grade's move in his last rated session")
    last_rated = serializers.DateField()


class LadderSerializer(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()
    method = serializers.CharField(help_text="pct_grade_v1 (docs/ladder.md)")
    params = LadderParamsSerializer()
    built_at = serializers.DateTimeField(
        allow_null=True, help_text="when the rows were last written; null: never yet"
    )
    is_current = serializers.BooleanField(
        help_text="false: a change is waiting for the worker's replay"
    )
    standings = LadderStandingSerializer(many=True)


class LadderHistoryEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField(help_text="its public address /e/<slug>/")


class LadderHistoryRowSerializer(serializers.Serializer):
    session = serializers.IntegerField(source="session_id")
    event = serializers.SerializerMethodField()
    date = serializers.DateField()
    before = serializers.FloatField()
    expected = serializers.FloatField()
    actual = serializers.FloatField(help_text="his published session percentage")
    after = serializers.FloatField()
    deals = serializers.IntegerField()
    k = serializers.FloatField()

    @extend_schema_field(LadderHistoryEventSerializer)
    def get_event(self, row) -> dict:
        event = row.session.event
        return LadderHistoryEventSerializer(
            {"id": event.pk, "name": event.name, "slug": event.slug}
        ).data


class LadderHistorySerializer(serializers.Serializer):
    person = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    history = LadderHistoryRowSerializer(many=True, help_text="his rated sessions in replay order")


def _ranked(grades: list[LadderGrade], statuses: dict[int, str]) -> list[dict]:
    """The active persons by grade (equal grades share a rank, «1, 2, 2, 4»), then the
    inactive ones by grade, unranked."""
    active = [g for g in grades if statuses[g.person_id] != core.INACTIVE]
    resting = [g for g in grades if statuses[g.person_id] == core.INACTIVE]
    found, rank, previous = [], 0, None
    for place, grade in enumerate(active, start=1):
        if grade.grade != previous:
            rank, previous = place, grade.grade
        found.append((rank, grade))
    found += [(None, grade) for grade in resting]
    return [
        {
            "rank": rank,
            "person": grade.person_id,
            "name": grade.person.full_name,
            "club": grade.person.club,
            "grade": grade.grade,
            "deals": grade.deals,
            "sessions": grade.sessions,
            "status": statuses[grade.person_id],
            "change": grade.change,
            "last_rated": grade.last_rated,
        }
        for rank, grade in found
    ]


def _ladder(slug: str) -> Ladder:
    """The ladder at that address; else DRF's «Not found.» in the caller's language (Django's
    get_object_or_404 would answer in English, naming the model)."""
    found = Ladder.objects.filter(slug=slug).first()
    if found is None:
        raise NotFound()
    return found


class LadderView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        description="A club's ladder: pct_grade_v1's parameters, when it was last brought up "
        "to date, and every person's grade as the last replay wrote it (persons hidden on "
        "their request left out), best first.",
        responses=LadderSerializer,
        parameters=[SLUG],
    )
    def get(self, request, slug):
        ladder = _ladder(slug)
        params = ladders.params_of(ladder)
        today = timezone.localdate()
        grades = list(
            LadderGrade.objects.filter(ladder=ladder, person__hidden=False)
            .select_related("person")
            .order_by("-grade", "person__last_name", "person__first_name", "person_id")
        )
        statuses = {g.person_id: core.status(g.deals, g.last_rated, today, params) for g in grades}
        body = {
            "name": ladder.name,
            "slug": ladder.slug,
            "method": core.METHOD,
            "params": {
                "k": params.k,
                "k_provisional": params.k_provisional,
                "start": params.start,
                "provisional_deals": params.provisional_deals,
                "min_deals": params.min_deals,
                "min_tables": params.min_tables,
            },
            "built_at": ladder.built_at,
            "is_current": ladder.is_current,
            "standings": _ranked(grades, statuses),
        }
        return Response(LadderSerializer(body).data)


class PersonHistoryView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        description="A person's rated sessions on the ladder, in replay order: his grade "
        "before, the percentage expected of him, his actual one, his grade after, his deals "
        "and k. 404 for a person hidden on his request, or one not on the ladder.",
        responses=LadderHistorySerializer,
        parameters=[SLUG],
    )
    def get(self, request, slug, person_pk):
        ladder = _ladder(slug)
        grade = (
            LadderGrade.objects.filter(ladder=ladder, person_id=person_pk, person__hidden=False)
            .select_related("person")
            .first()
        )
        if grade is None:
            raise NotFound()
        rows = (
            LadderRow.objects.filter(ladder=ladder, person_id=person_pk)
            .select_related("session__event")
            .order_by("order")
        )
        person = grade.person
        body = {"person": person.pk, "name": person.full_name, "club": person.club, "history": rows}
        return Response(LadderHistorySerializer(body).data)
