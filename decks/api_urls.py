from django.urls import path

from cardsite.routers import api_router

from . import api

router = api_router()
router.register("decks", api.DeckViewSet, basename="deck")

urlpatterns = [
    path("validate/", api.ValidateView.as_view(), name="api-validate"),
    *router.urls,
]
