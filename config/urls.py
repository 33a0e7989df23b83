from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from config.health import healthz

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="director:event_list"), name="home"),
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("director/", include("events.urls_director")),
    path("director/", include("movements.urls_director")),
    path("director/", include("scoring.urls_director")),
    path("e/", include("events.urls_public")),
    path("e/", include("scoring.urls_public")),
    path("p/", include("scoring.urls_player")),  # with events' clock.json and QR
    path("t/", include("scoring.urls_table")),
    path("api/", include("config.api")),
    path("admin/", admin.site.urls),
]

# Private links (/p/, /t/) answer a phone page in the reader's language; the rest Django's.
handler404 = "events.links.page_not_found"
