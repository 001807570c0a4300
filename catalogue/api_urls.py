from rest_framework.routers import DefaultRouter

from . import api

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("games", api.GameViewSet, basename="game")
router.register("expansions", api.ExpansionViewSet, basename="expansion")
router.register("cards", api.CardViewSet, basename="card")
router.register("printings", api.PrintingViewSet, basename="printing")

urlpatterns = router.urls
