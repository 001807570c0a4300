"""URLs of the interactive deck builder (namespace `builder`)."""

from django.urls import path

from . import views as builder

app_name = "builder"

urlpatterns = [
    path("build/new/", builder.builder_start, name="start"),
    path("build/<slug:game>/<slug:format>/new/", builder.builder_new, name="new"),
    path("decks/<int:pk>/build/", builder.builder_deck, name="deck"),
    path("decks/<int:pk>/build/search/", builder.builder_search, name="search"),
    path(
        "decks/<int:pk>/build/availability/",
        builder.builder_availability,
        name="availability",
    ),
    path("decks/<int:pk>/build/change/", builder.builder_change, name="change"),
    path("decks/<int:pk>/build/quick/", builder.builder_quick_add, name="quick"),
    path("decks/<int:pk>/build/seal/", builder.builder_seal, name="seal"),
    path("decks/<int:pk>/build/options/", builder.builder_options, name="options"),
    path("decks/<int:pk>/build/meta/", builder.builder_meta, name="meta"),
]
