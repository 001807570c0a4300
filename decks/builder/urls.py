"""URLs of the interactive deck builder (namespace `builder`)."""

from django.urls import path

from .views import changes, pages, search

app_name = "builder"

urlpatterns = [
    path("build/new/", pages.builder_start, name="start"),
    path("build/<slug:game>/<slug:format>/new/", pages.builder_new, name="new"),
    path("decks/<int:pk>/build/", pages.builder_deck, name="deck"),
    path("decks/<int:pk>/build/search/", search.builder_search, name="search"),
    path(
        "decks/<int:pk>/build/availability/",
        pages.builder_availability,
        name="availability",
    ),
    path("decks/<int:pk>/build/change/", changes.builder_change, name="change"),
    path("decks/<int:pk>/build/quick/", changes.builder_quick_add, name="quick"),
    path("decks/<int:pk>/build/seal/", changes.builder_seal, name="seal"),
    path("decks/<int:pk>/build/options/", changes.builder_options, name="options"),
    path("decks/<int:pk>/build/meta/", pages.builder_meta, name="meta"),
]
