"""Public results, under /e/<slug>/results/ (shown once the director publishes them)."""

from django.urls import path, register_converter

from events.spreadsheet import file_paths as files
from scoring.hands import urls as hands
from scoring.standings import views
from scoring.standings.card_address import CardRefConverter
from scoring.standings.public_access import version_json

register_converter(CardRefConverter, "card")

# Mounted by config/urls.py in its audience's namespace (no app namespace of its own).

urlpatterns = [
    *hands.public,
    path("<slug:slug>/results/", views.results, name="event"),
    path("<slug:slug>/results/version.json", version_json, name="version"),
    *files("<slug:slug>/results/standings", views.results_file, "event"),
    path("<slug:slug>/results/sessions/<int:number>/", views.session_results, name="session"),
    *files("<slug:slug>/results/sessions/<int:number>/standings", views.session_file, "session"),
    *files(
        "<slug:slug>/results/sessions/<int:number>/travellers",
        views.session_travellers_file,
        "session_travellers",
    ),
    path("<slug:slug>/results/deals/<int:deal_pk>/", views.traveller, name="traveller"),
    *files("<slug:slug>/results/deals/<int:deal_pk>", views.traveller_file, "traveller"),
    path("<slug:slug>/results/cards/<card:ref>/", views.card, name="card"),
    *files("<slug:slug>/results/cards/<card:ref>", views.card_file, "card"),
    # The old addresses by the player's id lead to those by his number.
    path("<slug:slug>/results/players/<int:entry_pk>/", views.card_by_id, name="card_by_id"),
    *files("<slug:slug>/results/players/<int:entry_pk>", views.card_by_id_file, "card_by_id"),
]
