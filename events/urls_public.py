from django.urls import path

from events import views_public

app_name = "public"

urlpatterns = [
    path("<slug:slug>/clock", views_public.clock, name="clock"),
    path("<slug:slug>/clock.json", views_public.clock_json, name="clock_json"),
]
