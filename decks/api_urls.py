from django.urls import path

from cardsite.routers import api_router

from . import api

router = api_router()
router.register("decks", api.DeckViewSet, basename="deck")

# The collection's routes are written out: GET and PUT of the whole collection share its
# address with POST of one loose card; `format` of the export and the wants names what to
# write (the API's `format` is never a renderer's: URL_FORMAT_OVERRIDE is off).
collection = api.CollectionViewSet.as_view
by_format = {"pagination_class": None}

urlpatterns = [
    path("validate/", api.ValidateView.as_view(), name="api-validate"),
    path(
        "collection/",
        collection({"get": "whole", "put": "replace", "post": "create"}),
        name="collection-list",
    ),
    path(
        "collection/<int:pk>/",
        collection(
            {"get": "retrieve", "put": "update", "patch": "partial_update", "delete": "destroy"}
        ),
        name="collection-detail",
    ),
    path("collection/import/", collection({"post": "import_list"}), name="collection-import"),
    path(
        "collection/export/", collection({"get": "export"}, **by_format), name="collection-export"
    ),
    path("collection/wants/", collection({"get": "wants"}, **by_format), name="collection-wants"),
    path("cards/<int:pk>/decks/", api.CardDecksView.as_view(), name="api-card-decks"),
    *router.urls,
]
