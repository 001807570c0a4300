from django.urls import path

from . import api, compare_api

urlpatterns = [
    path(
        "decks/<int:id>/simulations/",
        api.DeckSimulationStartView.as_view(),
        name="api-deck-simulations",
    ),
    path("simulations/", api.SimulationListView.as_view(), name="api-simulation-list"),
    path(
        "simulations/compare/",
        compare_api.CompareStartView.as_view(),
        name="api-simulation-compare",
    ),
    path("decks/<int:id>/tune/", compare_api.DeckTuneView.as_view(), name="api-deck-tune"),
    path(
        "simulations/<int:pk>/stop/",
        compare_api.ExperimentStopView.as_view(),
        name="api-simulation-stop",
    ),
    path("simulations/kinds/", api.SimulationKindsView.as_view(), name="api-simulation-kinds"),
    path("simulations/<int:pk>/", api.SimulationDetailView.as_view(), name="api-simulation-detail"),
    path("odds/", api.OddsView.as_view(), name="api-odds"),
]
