from django.urls import path
from rest_framework.routers import DefaultRouter

from . import api

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
# No `.json` suffix routes: the views take no `format` argument (a URL such as
# /api/games/redline.json/ answered 500), and `?format=` already picks a renderer.
router.include_format_suffixes = False
router.register("decks", api.DeckViewSet, basename="deck")
router.register("collection", api.CollectionViewSet, basename="collection")

urlpatterns = [
    path("validate/", api.ValidateView.as_view(), name="api-validate"),
    *router.urls,
]
