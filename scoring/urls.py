"""The director's scoring pages, under /director/ (login; his own events only), composed from
each concept's own addresses: the sheets, the room's console, the hand records, the event's
archive (per event) and the ladder's settings."""

from django.urls import include, path

from scoring.archive import urls as archive
from scoring.console import urls as console
from scoring.hands import urls as hands
from scoring.ladder import urls as ladder
from scoring.sheets import urls as sheets

per_event = [*console.director, *sheets.director, *hands.director, *archive.director_event]

urlpatterns = [
    path("events/<int:pk>/", include(per_event)),
    *archive.director,
    *ladder.director,
]
