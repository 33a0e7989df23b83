"""The room's console: the director's pages of a room and its rounds' clock (under
/director/events/<pk>/, scoring.urls)."""

from django.urls import path

from scoring.console import calls, checkin_views, views

director = [
    path("rooms/<int:room_pk>/", views.room_detail, name="room_detail"),
    path("rooms/<int:room_pk>/console.html", views.room_console_board, name="room_console"),
    path("rounds/<int:round_pk>/<slug:action>/", views.round_action, name="round_action"),
    path(
        "rooms/<int:room_pk>/checkin/mark/",
        checkin_views.checkin_mark,
        name="room_checkin_mark",
    ),
    path(
        "rooms/<int:room_pk>/checkin/each-round/",
        checkin_views.checkin_each_round,
        name="room_checkin_each_round",
    ),
    path(
        "rooms/<int:room_pk>/checkin/substitute/",
        checkin_views.checkin_substitute,
        name="room_checkin_substitute",
    ),
    path("calls/<int:call_pk>/going/", calls.call_going, name="call_going"),
    path("calls/<int:call_pk>/close/", calls.call_close, name="call_close"),
]
