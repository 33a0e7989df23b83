"""The director's movement pages, under /director/ (login; his own events only)."""

from django.urls import path

from movements import views

app_name = "movements"

urlpatterns = [
    path("events/<int:pk>/movement/", views.plan, name="plan"),
    path("events/<int:pk>/sessions/<int:number>/", views.session_detail, name="session"),
    path("events/<int:pk>/sessions/<int:number>/tables/", views.table_cards, name="table_cards"),
    path(
        "events/<int:pk>/sessions/<int:number>/participants/",
        views.participant_cards,
        name="participant_cards",
    ),
    path("events/<int:pk>/sessions/<int:number>/grid.csv", views.grid_csv, name="grid_csv"),
    path("events/<int:pk>/sessions/<int:number>/tables.csv", views.table_csv, name="table_csv"),
    path(
        "events/<int:pk>/sessions/<int:number>/participants.csv",
        views.participant_csv,
        name="participant_csv",
    ),
    path("schemes/", views.scheme_list, name="scheme_list"),
    path("schemes/new/", views.scheme_create, name="scheme_create"),
    path("schemes/<int:scheme_pk>/", views.scheme_detail, name="scheme_detail"),
]
