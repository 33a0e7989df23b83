from django.urls import path

from events import views_player

app_name = "player"

urlpatterns = [
    path("<str:key>/", views_player.home, name="home"),
    path("<str:key>/places", views_player.places_fragment, name="places"),
    path("<str:key>/clock.json", views_player.clock_json, name="clock_json"),
    path("<str:key>/qr.svg", views_player.qr_svg, name="qr"),
]
