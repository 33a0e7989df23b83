"""The public club ladders, under /ladder/ (no login): a ladder and a person's page on it."""

from django.urls import path

from scoring.ladder import views

app_name = "ladder"

urlpatterns = [
    path("<slug:slug>/", views.ladder_page, name="ladder"),
    path("<slug:slug>/<int:person_pk>/", views.person_page, name="person"),
]

#: The director's ladder settings (under /director/, scoring.urls).
director = [
    path("ladder/", views.ladder_settings, name="ladder"),
    path("ladder/recompute/", views.ladder_recompute_now, name="ladder_recompute"),
]
