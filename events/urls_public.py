from django.urls import path

from events import views_public

# Mounted by config/urls.py in its audience's namespace (no app namespace of its own).

urlpatterns = [
    path("<slug:slug>/clock", views_public.clock, name="clock"),
    path("<slug:slug>/clock.json", views_public.clock_json, name="clock_json"),
]
