from django.contrib.auth import views as auth_views
from django.urls import include, path

from events import views, views_backups, views_log, views_staff
from events.register import io_views as register_io_views
from events.register import merge_views
from events.register import views as register_views

# Mounted by config/urls.py in its audience's namespace (no app namespace of its own).

#: The pages of one of the director's events, under /director/events/<pk>/.
per_event = [
    path("", views.event_detail, name="event_detail"),
    path("edit/", views.event_edit, name="event_edit"),
    path("players/add/", views.entry_add, name="entry_add"),
    path("players/paste/", views.entries_paste, name="entries_paste"),
    path("players/import/", views.entries_import, name="entries_import"),
    path(
        "players/import/confirm/",
        views.entries_import_confirm,
        name="entries_import_confirm",
    ),
    path("players/<int:entry_pk>/edit/", views.entry_edit, name="entry_edit"),
    path("players/<int:entry_pk>/link/", views.entry_link, name="entry_link"),
    path(
        "players/<int:entry_pk>/withdraw/",
        views.entry_withdraw,
        name="entry_withdraw",
    ),
    path(
        "players/<int:entry_pk>/reinstate/",
        views.entry_reinstate,
        name="entry_reinstate",
    ),
    path("draw/", views.draw, name="draw"),
    path("cards/names/", views.name_cards, name="name_cards"),
    path("players/<int:entry_pk>/qr/", views.player_qr, name="player_qr"),
    path("draws/", views.draw_list, name="draw_list"),
    path("rooms/", views.room_list, name="room_list"),
    path(
        "sessions/<int:number>/rounds/start/",
        views.session_rounds_start,
        name="session_rounds_start",
    ),
    path("staff/", views_staff.event_staff, name="event_staff"),
    path("staff/<str:login>/remove/", views_staff.event_staff_remove, name="event_staff_remove"),
]

urlpatterns = [
    path(
        "login/",
        views.LoginView.as_view(
            template_name="director/login.html", redirect_authenticated_user=True
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", views_staff.PasswordChangeView.as_view(), name="password_change"),
    path("", views.event_list, name="event_list"),
    path("events/new/", views.event_create, name="event_create"),
    path("events/<int:pk>/", include(per_event)),
    path("backups/", views_backups.backup_list, name="backups"),
    path("register/", register_views.register_list, name="register_list"),
    path("register/<int:person_pk>/", register_views.person_edit, name="person_edit"),
    path(
        "register/<int:person_pk>/merge/",
        merge_views.person_merge_choose,
        name="person_merge",
    ),
    path(
        "register/<int:person_pk>/merge/<int:other_pk>/",
        merge_views.person_merge_confirm,
        name="person_merge_confirm",
    ),
    path("register/merges/", merge_views.merge_list, name="register_merges"),
    path("register/merges/<int:merge_pk>/", merge_views.merge_detail, name="merge_detail"),
    path("register/merges/<int:merge_pk>/undo/", merge_views.merge_undo, name="merge_undo"),
    path("register/export.csv", register_io_views.register_export, name="register_export"),
    path("register/import/", register_io_views.register_import, name="register_import"),
    path(
        "register/import/confirm/",
        register_io_views.register_import_confirm,
        name="register_import_confirm",
    ),
]

# The event's «Журнал» (issue 34): the page and its CSV.
per_event += [
    path("log/", views_log.event_log, name="event_log"),
    path("log.csv", views_log.event_log_file, {"kind": "csv"}, name="event_log_csv"),
]
