from django.urls import path

from cardsite.routers import api_router

from . import api

router = api_router()
router.register("games", api.GameViewSet, basename="game")
router.register("expansions", api.ExpansionViewSet, basename="expansion")
router.register("cards", api.CardViewSet, basename="card")
router.register("printings", api.PrintingViewSet, basename="printing")

urlpatterns = [
    path("bulk/", api.BulkIndexView.as_view(), name="api-bulk"),
    path(
        "rule-sets/<slug:game>/<slug:fmt>/",
        api.RuleSetListView.as_view(),
        name="api-rule-sets",
    ),
    path(
        "rule-sets/<slug:game>/<slug:fmt>/<str:code>/",
        api.RuleSetDetailView.as_view(),
        name="api-rule-set",
    ),
    *router.urls,
]
