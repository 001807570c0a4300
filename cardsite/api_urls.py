"""Every API route, gathered from the apps."""

from django.urls import include, path

urlpatterns = [
    path("", include("catalogue.api_urls")),
    path("", include("decks.api_urls")),
    path("", include("collection.api_urls")),
    path("", include("simulations.api_urls")),
    path("", include("play.api_urls")),
    path("", include("notices.api_urls")),
    path("", include("decklists.api_urls")),
]
