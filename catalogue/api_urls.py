from rest_framework.routers import DefaultRouter

from . import api

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
# No `.json` suffix routes: the views take no `format` argument (a URL such as
# /api/games/redline.json/ answered 500), and `?format=` already picks a renderer.
router.include_format_suffixes = False
router.register("games", api.GameViewSet, basename="game")
router.register("expansions", api.ExpansionViewSet, basename="expansion")
router.register("cards", api.CardViewSet, basename="card")
router.register("printings", api.PrintingViewSet, basename="printing")

urlpatterns = router.urls
