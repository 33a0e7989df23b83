"""The player's private link (/p/<key>/…): the page and its seat fragment are scoring's
(they show sets and figures); the clock document and the QR code are events'."""

from django.urls import path

from events import urls_player as events_player
from scoring.player import calls as player_calls
from scoring.player import views as views_player

app_name = "player"

urlpatterns = [
    path("<str:key>/", views_player.home, name="home"),
    path("<str:key>/places", views_player.places_fragment, name="places"),
    path("<str:key>/call/", player_calls.call, name="call"),
    path("<str:key>/checkin/", views_player.checkin, name="checkin"),
    *events_player.urlpatterns,
]
