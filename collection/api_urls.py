"""The collection's API routes (included by cardsite/api_urls.py), as the decks app had them."""

from django.urls import path
from rest_framework.renderers import JSONRenderer

from decks.exports import CSVRenderer, PlainTextRenderer

from . import api

# The collection's routes are written out: GET and PUT of the whole collection share its
# address with POST of one loose card. Each file of the export and the wants has its own
# address, of one media type.
collection = api.CollectionViewSet.as_view
one_file = {"pagination_class": None}
as_text = {**one_file, "renderer_classes": [PlainTextRenderer, JSONRenderer]}
as_csv = {**one_file, "renderer_classes": [CSVRenderer, JSONRenderer]}

urlpatterns = [
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
    path("collection/export/", collection({"get": "export"}, **as_csv), name="collection-export"),
    path(
        "collection/export/text/",
        collection({"get": "export_text"}, **as_text),
        name="collection-export-text",
    ),
    path("collection/wants/", collection({"get": "wants"}, **one_file), name="collection-wants"),
    path(
        "collection/wants/text/",
        collection({"get": "wants_text"}, **as_text),
        name="collection-wants-text",
    ),
    path(
        "collection/wants/csv/",
        collection({"get": "wants_csv"}, **as_csv),
        name="collection-wants-csv",
    ),
    path("cards/<int:pk>/decks/", api.CardDecksView.as_view(), name="api-card-decks"),
]
