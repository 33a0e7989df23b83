"""The sheets' addresses: the table's pages under /t/<key>/ (no account: a key is the pass;
``urlpatterns``) and the director's sheet pages of an event (``director``).

Two kinds of key open them (``scoring.sheets.table``):

- the **table link** (``Table.key``, the QR code on the table card): a gate that names the
  table and its round now and asks «Кто вы?» — a seat of that round with its player's PIN,
  or his own link — before it leads to that round's link; it shows no sheet, set or seat;
- the **round link** (``TablePlay.key``): the table's page of that one round — its deals,
  sheets, entering, confirming, box reports — and nothing of any other round. A round link
  names its round, so a form opened in one round never records into the next.
"""

from django.urls import path

from scoring.sheets import adjustment_views, box_views, table, table_calls, views

app_name = "table"

urlpatterns = [
    # One address, two names: ``home`` for a table's key (the gate), ``round`` for a round's.
    path("<str:key>/", table.home, name="home"),
    path("<str:key>/", table.home, name="round"),
    path("<str:key>/clock.json", table.clock_json, name="clock_json"),
    path("<str:key>/call/", table_calls.call, name="call"),
    path("<str:key>/call.json", table_calls.call_json, name="call_json"),
    path("<str:key>/deals/<int:number>/", table.deal_form, name="deal"),
    path("<str:key>/deals/<int:number>/box/", table.box_report, name="box_report"),
    path("<str:key>/sheets/<int:sheet_pk>/confirm/", table.confirm, name="confirm"),
]


#: The director's sheet pages of one event (under /director/events/<pk>/, scoring.urls).
director = [
    path("scores/", views.overview, name="overview"),
    path("scores/publish/", views.publish, name="publish"),
    path("sessions/<int:number>/deals-show/", views.deals_show, name="deals_show"),
    path("scores/plays/<int:play_pk>/", views.play_detail, name="play"),
    path("scores/plays/<int:play_pk>/access/", views.play_access, name="play_access"),
    path("scores/rounds/<int:round_pk>/close/", views.round_close, name="round_close"),
    path("scores/plays/<int:play_pk>/deals/<int:number>/", views.sheet_form, name="sheet_form"),
    path(
        "scores/plays/<int:play_pk>/adjustments/",
        adjustment_views.adjustment_add,
        name="adjustment_add",
    ),
    path("scores/sheets/<int:sheet_pk>/", views.sheet_detail, name="sheet"),
    path("scores/sheets/<int:sheet_pk>/confirm/", views.sheet_confirm, name="sheet_confirm"),
    path("scores/sheets/<int:sheet_pk>/restore/", views.sheet_restore, name="sheet_restore"),
    path("scores/boxes/<int:report_pk>/", box_views.box_report, name="box_report"),
    path(
        "scores/boxes/<int:report_pk>/decide/",
        box_views.box_report_decide,
        name="box_report_decide",
    ),
    path("scores/adjustments/", adjustment_views.adjustment_list, name="adjustments"),
    path(
        "scores/adjustments/table/",
        adjustment_views.adjustments_table,
        name="adjustments_table",
    ),
    path(
        "scores/adjustments/<int:adjustment_pk>/delete/",
        adjustment_views.adjustment_delete,
        name="adjustment_delete",
    ),
]
