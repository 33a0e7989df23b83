"""The table's scoring pages, under /t/<key>/ (no account: the table's key is the pass).

The pages link a round's deals by the round's number, so that a form opened in one round
never records into the next; ``/t/<key>/`` and its ``deals/<n>/`` follow the clock."""

from django.urls import path

from scoring import views_table

app_name = "table"

urlpatterns = [
    path("<str:key>/", views_table.home, name="home"),
    path("<str:key>/deals/<int:number>/", views_table.deal_form, name="deal"),
    path("<str:key>/rounds/<int:round_number>/", views_table.home, name="round"),
    path(
        "<str:key>/rounds/<int:round_number>/deals/<int:number>/",
        views_table.deal_form,
        name="round_deal",
    ),
    path("<str:key>/sheets/<int:sheet_pk>/confirm/", views_table.confirm, name="confirm"),
    path(
        "<str:key>/rounds/<int:round_number>/deals/<int:number>/box/",
        views_table.box_report,
        name="box_report",
    ),
]
