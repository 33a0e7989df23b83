"""The table's scoring pages, under /t/<key>/ (no account: the table's key is the pass)."""

from django.urls import path

from scoring import views_table

app_name = "table"

urlpatterns = [
    path("<str:key>/", views_table.home, name="home"),
    path("<str:key>/deals/<int:number>/", views_table.deal_form, name="deal"),
    path("<str:key>/sheets/<int:sheet_pk>/confirm/", views_table.confirm, name="confirm"),
]
