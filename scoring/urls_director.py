"""The director's scoring pages, under /director/ (login; his own events only)."""

from django.urls import path

from scoring import views, views_room

app_name = "scoring"

urlpatterns = [
    # The room's live console and its clock controls (scoring.views_room).
    path("events/<int:pk>/rooms/<int:room_pk>/", views_room.room_detail, name="room_detail"),
    path(
        "events/<int:pk>/rooms/<int:room_pk>/console.html",
        views_room.room_console_board,
        name="room_console",
    ),
    path(
        "events/<int:pk>/rounds/<int:round_pk>/<slug:action>/",
        views_room.round_action,
        name="round_action",
    ),
    path("events/<int:pk>/scores/", views.overview, name="overview"),
    path("events/<int:pk>/scores/publish/", views.publish, name="publish"),
    path("events/<int:pk>/scores/plays/<int:play_pk>/", views.play_detail, name="play"),
    path(
        "events/<int:pk>/scores/plays/<int:play_pk>/access/",
        views.play_access,
        name="play_access",
    ),
    path(
        "events/<int:pk>/scores/rounds/<int:round_pk>/close/",
        views.round_close,
        name="round_close",
    ),
    path(
        "events/<int:pk>/scores/plays/<int:play_pk>/deals/<int:number>/",
        views.sheet_form,
        name="sheet_form",
    ),
    path(
        "events/<int:pk>/scores/plays/<int:play_pk>/adjustments/",
        views.adjustment_add,
        name="adjustment_add",
    ),
    path("events/<int:pk>/scores/sheets/<int:sheet_pk>/", views.sheet_detail, name="sheet"),
    path(
        "events/<int:pk>/scores/sheets/<int:sheet_pk>/confirm/",
        views.sheet_confirm,
        name="sheet_confirm",
    ),
    path(
        "events/<int:pk>/scores/sheets/<int:sheet_pk>/restore/",
        views.sheet_restore,
        name="sheet_restore",
    ),
    path("events/<int:pk>/scores/adjustments/", views.adjustment_list, name="adjustments"),
    path(
        "events/<int:pk>/scores/adjustments/table/",
        views.adjustments_table,
        name="adjustments_table",
    ),
    path(
        "events/<int:pk>/scores/adjustments/<int:adjustment_pk>/delete/",
        views.adjustment_delete,
        name="adjustment_delete",
    ),
]
