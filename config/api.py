"""The API's wiring: router, schema, and one exception handler so bad input is a 400."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework import exceptions
from rest_framework.routers import DefaultRouter
from rest_framework.serializers import as_serializer_error
from rest_framework.views import exception_handler as drf_exception_handler

from events import api as events_api


def exception_handler(exc, context):
    """Django's ValidationError from a service becomes a 400 naming the field and the rule."""
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(as_serializer_error(exc))
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or None)
    return drf_exception_handler(exc, context)


router = DefaultRouter()
router.register("events", events_api.EventViewSet, basename="event")

urlpatterns = [
    path("v1/", include(router.urls)),
    path("v1/", include(events_api.nested_urls)),
    path("v1/", include("movements.api_urls")),
    path("v1/", include("scoring.api_urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]
