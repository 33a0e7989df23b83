"""Hand records and the analysis: the director's dealing pages (``director``, under
/director/events/<pk>/) and the published hand records (``public``, under /e/<slug>/results/)."""

from django.urls import path

from scoring.hands import views

director = [
    path("sessions/<int:number>/dealing/", views.dealing_sheets, name="dealing_sheets"),
    path("sessions/<int:number>/dealing/<int:deal_pk>/", views.deal_cards_form, name="deal_cards"),
    path("sessions/<int:number>/analyse/", views.analyse, name="deals_analyse"),
]

public = [
    path(
        "<slug:slug>/results/sessions/<int:number>/hands/",
        views.session_hands,
        name="session_hands",
    ),
    path(
        "<slug:slug>/results/sessions/<int:number>/hands.txt",
        views.session_hands_txt,
        name="session_hands_txt",
    ),
    path(
        "<slug:slug>/results/sessions/<int:number>/dealing-check/",
        views.session_check,
        name="session_check",
    ),
]
