"""The room's console: the director's pages of a room and its rounds' clock (under
/director/events/<pk>/, scoring.urls)."""

from django.urls import path

from scoring.console import views

director = [
    path("rooms/<int:room_pk>/", views.room_detail, name="room_detail"),
    path("rooms/<int:room_pk>/console.html", views.room_console_board, name="room_console"),
    path("rounds/<int:round_pk>/<slug:action>/", views.round_action, name="round_action"),
]
