"""The table's scoring pages, under /t/<key>/ (no account: a key is the pass).

Two kinds of key open them (``scoring.views_table``):

- the **table link** (``Table.key``, the QR code on the table card): a gate that names the
  table and its round now and asks «Кто вы?» — a seat of that round with its player's PIN,
  or his own link — before it leads to that round's link; it shows no sheet, set or seat;
- the **round link** (``TablePlay.key``): the table's page of that one round — its deals,
  sheets, entering, confirming, box reports — and nothing of any other round. A round link
  names its round, so a form opened in one round never records into the next.
"""

from django.urls import path

from scoring import views_table

app_name = "table"

urlpatterns = [
    # One address, two names: ``home`` for a table's key (the gate), ``round`` for a round's.
    path("<str:key>/", views_table.home, name="home"),
    path("<str:key>/", views_table.home, name="round"),
    path("<str:key>/clock.json", views_table.clock_json, name="clock_json"),
    path("<str:key>/deals/<int:number>/", views_table.deal_form, name="deal"),
    path("<str:key>/deals/<int:number>/box/", views_table.box_report, name="box_report"),
    path("<str:key>/sheets/<int:sheet_pk>/confirm/", views_table.confirm, name="confirm"),
]
