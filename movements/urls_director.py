"""The director's movement pages, under /director/ (login; his own events only)."""

from django.urls import include, path

from events.spreadsheet import file_paths
from movements import views

# Mounted by config/urls.py in its audience's namespace (no app namespace of its own).

#: The pages of one of the director's events, under /director/events/<pk>/.
per_event = [
    path("movement/", views.plan, name="plan"),
    path("sessions/<int:number>/", views.session_detail, name="session"),
    path("sessions/<int:number>/analysis.json", views.session_analysis, name="session_analysis"),
    path("sessions/<int:number>/tables/", views.table_cards, name="table_cards"),
    path(
        "sessions/<int:number>/participants/",
        views.participant_cards,
        name="participant_cards",
    ),
    # Each as CSV and as XLSX: grid.csv / grid.xlsx, named grid_csv / grid_xlsx …
    *file_paths("sessions/<int:number>/grid", views.grid_file, "grid"),
    *file_paths("sessions/<int:number>/tables", views.table_file, "table"),
    *file_paths("sessions/<int:number>/participants", views.participant_file, "participant"),
]

urlpatterns = [
    path("schemes/", views.scheme_list, name="scheme_list"),
    path("schemes/new/", views.scheme_create, name="scheme_create"),
    path("schemes/<int:scheme_pk>/", views.scheme_detail, name="scheme_detail"),
    path("events/<int:pk>/", include(per_event)),
]
