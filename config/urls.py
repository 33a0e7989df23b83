from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from config.health import healthz
from config.locale import public_patterns
from config.pwa import manifest, service_worker
from events import urls_director as events_director
from events import urls_public as events_public
from movements import urls_director as movements_director
from scoring import urls as scoring_director
from scoring.standings import urls as scoring_public

#: One namespace per audience: each app brings its own pages, the names are the audience's
#: («director:room_detail», «public:traveller»), whichever app serves them.
director = (
    [
        *events_director.urlpatterns,
        *movements_director.urlpatterns,
        *scoring_director.urlpatterns,
    ],
    "director",
)
public = ([*events_public.urlpatterns, *scoring_public.urlpatterns], "public")


def favicon(request):
    """Browsers ask /favicon.ico of every site (the admin's pages and files too, which link
    no icon): the app's one icon, the SVG every page links."""
    return redirect(static("img/favicon.svg"))


urlpatterns = [
    path("", RedirectView.as_view(pattern_name="director:event_list"), name="home"),
    path("favicon.ico", favicon, name="favicon"),
    path("healthz", healthz, name="healthz"),
    path("sw.js", service_worker, name="service_worker"),  # the phones' pages offline
    path("manifest.webmanifest", manifest, name="manifest"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("director/", include(director)),  # the director's pages (login; his own events)
    path("p/", include("scoring.player.urls")),  # with events' clock.json and QR
    path("t/", include("scoring.sheets.urls")),
    path("api/", include("config.api")),
    path("admin/", admin.site.urls),
    # The public pages, their language never a cookie's: /en/e/… in English, /e/… in the
    # browser's (config/locale.py) — answers shared by every reader.
    *public_patterns(
        path("e/", include(public)),  # an event's public pages (nothing before publishing)
        path("ladder/", include("scoring.ladder.urls")),  # the public club ladders
    ),
]

# The reader's language on every 404 and 403: private links (/p/, /t/) a phone page, the
# API JSON, the rest the site's own page (templates/404.html, 403.html).
handler404 = "events.links.page_not_found"
handler403 = "events.links.permission_denied"
