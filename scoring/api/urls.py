"""The scoring API's addresses, under /api/v1/ (wired in config/api.py)."""

from django.urls import path

from scoring.api import results
from scoring.api import views as api
from scoring.ladder import api as api_ladder

urlpatterns = [
    path("events/<int:event_pk>/plays/", api.PlayList.as_view(), name="scoring-play-list"),
    path(
        "events/<int:event_pk>/plays/<int:pk>/players-access/",
        api.PlayAccess.as_view(),
        name="scoring-play-access",
    ),
    path("events/<int:event_pk>/sheets/", api.SheetList.as_view(), name="scoring-sheet-list"),
    path(
        "events/<int:event_pk>/sheets/<int:pk>/",
        api.SheetDetail.as_view(),
        name="scoring-sheet-detail",
    ),
    path(
        "events/<int:event_pk>/sheets/<int:pk>/correct/",
        api.SheetCorrect.as_view(),
        name="scoring-sheet-correct",
    ),
    path(
        "events/<int:event_pk>/sheets/<int:pk>/confirm/",
        api.SheetConfirm.as_view(),
        name="scoring-sheet-confirm",
    ),
    path(
        "events/<int:event_pk>/sheets/<int:pk>/history/",
        api.SheetHistory.as_view(),
        name="scoring-sheet-history",
    ),
    path(
        "events/<int:event_pk>/adjustments/",
        api.AdjustmentList.as_view(),
        name="scoring-adjustment-list",
    ),
    path(
        "events/<int:event_pk>/adjustments/table/",
        api.TableAdjustments.as_view(),
        name="scoring-adjustment-table",
    ),
    path(
        "events/<int:event_pk>/adjustments/<int:pk>/",
        api.AdjustmentDetail.as_view(),
        name="scoring-adjustment-detail",
    ),
    path(
        "events/<int:event_pk>/results-public/",
        api.Publish.as_view(),
        name="scoring-publish",
    ),
    path("events/<int:event_pk>/standings/", results.Standings.as_view(), name="scoring-standings"),
    path(
        "events/<int:event_pk>/deals/<int:deal_pk>/traveller/",
        results.TravellerView.as_view(),
        name="scoring-traveller",
    ),
    path(
        "events/<int:event_pk>/players/<int:entry_pk>/card/",
        results.CardView.as_view(),
        name="scoring-card",
    ),
    # The club ladder (public, read only): scoring/ladder/api.py.
    path("ladders/<slug:slug>/", api_ladder.LadderView.as_view(), name="ladder"),
    path(
        "ladders/<slug:slug>/persons/<int:person_pk>/history/",
        api_ladder.PersonHistoryView.as_view(),
        name="ladder-person-history",
    ),
]
