"""Events' part of the player's private link: the clock document and the QR code. The page
and its seat fragment show sets and figures, so they are scoring's; ``scoring.player.urls``
serves all of them under the ``player`` namespace (config/urls.py includes that one)."""

from django.urls import path

from events import views_player

urlpatterns = [
    path("<str:key>/clock.json", views_player.clock_json, name="clock_json"),
    path("<str:key>/qr.svg", views_player.qr_svg, name="qr"),
]
