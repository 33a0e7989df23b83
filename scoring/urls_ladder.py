"""The public club ladders, under /ladder/ (no login): a ladder and a person's page on it."""

from django.urls import path

from scoring import views_ladder as views

app_name = "ladder"

urlpatterns = [
    path("<slug:slug>/", views.ladder_page, name="ladder"),
    path("<slug:slug>/<int:person_pk>/", views.person_page, name="person"),
]
