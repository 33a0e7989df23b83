"""Public results, under /e/<slug>/results/ (shown once the director publishes them)."""

from django.urls import path

from scoring import views_hands
from scoring import views_public as views

# Mounted by config/urls.py in its audience's namespace (no app namespace of its own).

urlpatterns = [
    path("<slug:slug>/results/", views.results, name="event"),
    path("<slug:slug>/results/standings.csv", views.results_csv, name="event_csv"),
    path("<slug:slug>/results/sessions/<int:number>/", views.session_results, name="session"),
    path(
        "<slug:slug>/results/sessions/<int:number>/standings.csv",
        views.session_csv,
        name="session_csv",
    ),
    path(
        "<slug:slug>/results/sessions/<int:number>/travellers.csv",
        views.session_travellers_csv,
        name="session_travellers_csv",
    ),
    path(
        "<slug:slug>/results/sessions/<int:number>/hands/",
        views_hands.session_hands,
        name="session_hands",
    ),
    path(
        "<slug:slug>/results/sessions/<int:number>/hands.txt",
        views_hands.session_hands_txt,
        name="session_hands_txt",
    ),
    path(
        "<slug:slug>/results/sessions/<int:number>/dealing-check/",
        views_hands.session_check,
        name="session_check",
    ),
    path("<slug:slug>/results/deals/<int:deal_pk>/", views.traveller, name="traveller"),
    path("<slug:slug>/results/deals/<int:deal_pk>.csv", views.traveller_csv, name="traveller_csv"),
    path("<slug:slug>/results/players/<int:entry_pk>/", views.card, name="card"),
    path("<slug:slug>/results/players/<int:entry_pk>.csv", views.card_csv, name="card_csv"),
]
