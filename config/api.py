"""The API's wiring: router, schema, and one exception handler so bad input is a 400."""

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.urls import include, path
from django.utils import translation
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework import exceptions
from rest_framework.routers import DefaultRouter
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler as drf_exception_handler

from events import api as events_api
from events import api_calls, api_checkin, api_log, api_register, api_staff, links, meanwhile


class ChangedMeanwhile(exceptions.APIException):
    """409: the state the caller said he saw (``expected``) changed meanwhile
    (``events.meanwhile``); nothing was saved, ``detail`` says what changed, by whom and when."""

    status_code = 409
    default_code = "changed_meanwhile"


def exception_handler(exc, context):
    """Django's ValidationError from a service becomes a 400 naming the field and the rule, its
    PermissionDenied a 403 saying why;
    another director's change since what the caller saw (``events.meanwhile.Changed``, a
    ValidationError too) a 409 ``{"detail"}`` — for every endpoint alike."""
    if isinstance(exc, meanwhile.Changed):
        exc = ChangedMeanwhile(exc.text)
    elif isinstance(exc, DjangoPermissionDenied) and str(exc):
        # A service's or the door's refusal says why (events.staff.require): kept, where
        # DRF's own handler would answer its generic words.
        exc = exceptions.PermissionDenied(str(exc))
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(as_serializer_error(exc))
    elif isinstance(exc, Http404):
        # get_object_or_404's «No Event matches the given query.» is English whatever the
        # request's language (and names a model): DRF's own, translated «Not found.» instead.
        exc = exceptions.NotFound(links.own_text(exc))
    return drf_exception_handler(exc, context)


class SchemaView(SpectacularAPIView):
    """The API's schema in one language, English: its descriptions are the code's own
    (docstrings, help texts), so a schema drawn in the reader's language would mix Russian
    titles with English descriptions. The answers themselves — every message and every error
    — stay in the language of ``Accept-Language`` (Russian by default); docs/api.md says so."""

    def dispatch(self, request, *args, **kwargs):
        with translation.override("en"):
            response = super().dispatch(request, *args, **kwargs)
            if hasattr(response, "render"):
                response.render()  # drawn now, while English is active
        return response


class SwaggerView(SpectacularSwaggerSplitView):
    """The API's docs page (Swagger UI) under the site's Content-Security-Policy: its script
    is served from its own address (``?script``), not inline. Swagger UI keeps a ``<style>``
    block in its template and draws its icons as ``data:`` images, so this page alone allows
    those two."""

    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        response["Content-Security-Policy"] = (
            f"{settings.CONTENT_SECURITY_POLICY}; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:"
        )
        return response


# The API answers JSON by its Accept header; the router's «.json» twins of each address are
# no part of the schema, and an action of the viewset takes no ``format`` (500 on
# /events/<pk>/draws.json): none is made.
router = DefaultRouter()
router.include_format_suffixes = False
router.register("events", events_api.EventViewSet, basename="event")
router.register("register/persons", api_register.PersonViewSet, basename="register-person")

urlpatterns = [
    path("v1/", include(router.urls)),
    path("v1/", include(events_api.nested_urls)),
    path("v1/", include("movements.api_urls")),
    path("v1/", include("scoring.api.urls")),
    path("v1/events/<int:event_pk>/staff/", api_staff.StaffList.as_view(), name="event-staff"),
    path(
        "v1/events/<int:event_pk>/staff/<str:login>/",
        api_staff.StaffMember.as_view(),
        name="event-staff-member",
    ),
    path("v1/events/<int:event_pk>/log/", api_log.EventLog.as_view(), name="event-log"),
    path(
        "v1/events/<int:event_pk>/checkin/",
        api_checkin.CheckInList.as_view(),
        name="event-checkin",
    ),
    path(
        "v1/events/<int:event_pk>/checkin/<int:entry_pk>/",
        api_checkin.CheckInEntry.as_view(),
        name="event-checkin-entry",
    ),
    path("v1/events/<int:event_pk>/calls/", api_calls.CallList.as_view(), name="event-calls"),
    path(
        "v1/events/<int:event_pk>/calls/<int:call_pk>/going/",
        api_calls.CallGoing.as_view(),
        name="event-call-going",
    ),
    path(
        "v1/events/<int:event_pk>/calls/<int:call_pk>/close/",
        api_calls.CallClose.as_view(),
        name="event-call-close",
    ),
    path("schema/", SchemaView.as_view(), name="schema"),
    path("docs/", SwaggerView.as_view(url_name="schema"), name="api-docs"),
]
