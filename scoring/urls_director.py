"""The director's scoring pages, under /director/ (login; his own events only)."""

from django.urls import include, path

from scoring import views, views_archive, views_boxes, views_hands, views_ladder, views_room

# Mounted by config/urls.py in its audience's namespace (no app namespace of its own).

#: The pages of one of the director's events, under /director/events/<pk>/.
per_event = [
    path("rooms/<int:room_pk>/", views_room.room_detail, name="room_detail"),
    path(
        "rooms/<int:room_pk>/console.html",
        views_room.room_console_board,
        name="room_console",
    ),
    path(
        "rounds/<int:round_pk>/<slug:action>/",
        views_room.round_action,
        name="round_action",
    ),
    path("scores/", views.overview, name="overview"),
    path("sessions/<int:number>/dealing/", views_hands.dealing_sheets, name="dealing_sheets"),
    path(
        "sessions/<int:number>/dealing/<int:deal_pk>/",
        views_hands.deal_cards_form,
        name="deal_cards",
    ),
    path("sessions/<int:number>/analyse/", views_hands.analyse, name="deals_analyse"),
    path("scores/publish/", views.publish, name="publish"),
    path("sessions/<int:number>/deals-show/", views.deals_show, name="deals_show"),
    path("scores/plays/<int:play_pk>/", views.play_detail, name="play"),
    path(
        "scores/plays/<int:play_pk>/access/",
        views.play_access,
        name="play_access",
    ),
    path(
        "scores/rounds/<int:round_pk>/close/",
        views.round_close,
        name="round_close",
    ),
    path(
        "scores/plays/<int:play_pk>/deals/<int:number>/",
        views.sheet_form,
        name="sheet_form",
    ),
    path(
        "scores/plays/<int:play_pk>/adjustments/",
        views.adjustment_add,
        name="adjustment_add",
    ),
    path("scores/sheets/<int:sheet_pk>/", views.sheet_detail, name="sheet"),
    path(
        "scores/sheets/<int:sheet_pk>/confirm/",
        views.sheet_confirm,
        name="sheet_confirm",
    ),
    path(
        "scores/sheets/<int:sheet_pk>/restore/",
        views.sheet_restore,
        name="sheet_restore",
    ),
    path("scores/boxes/<int:report_pk>/", views_boxes.box_report, name="box_report"),
    path(
        "scores/boxes/<int:report_pk>/decide/",
        views_boxes.box_report_decide,
        name="box_report_decide",
    ),
    path("scores/adjustments/", views.adjustment_list, name="adjustments"),
    path(
        "scores/adjustments/table/",
        views.adjustments_table,
        name="adjustments_table",
    ),
    path(
        "scores/adjustments/<int:adjustment_pk>/delete/",
        views.adjustment_delete,
        name="adjustment_delete",
    ),
    path("archive.zip", views_archive.event_archive_download, name="event_archive"),
]

urlpatterns = [
    path("events/<int:pk>/", include(per_event)),
    path("events/load/", views_archive.event_archive_upload, name="event_archive_upload"),
]

# The director's club ladder (docs/ladder.md «The ladder in the app»).
urlpatterns += [
    path("ladder/", views_ladder.ladder_settings, name="ladder"),
    path("ladder/recompute/", views_ladder.ladder_recompute_now, name="ladder_recompute"),
]
