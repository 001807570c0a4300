from django.urls import path

from . import compare_views, views

app_name = "simulations"

urlpatterns = [
    path("simulations/", views.run_list, name="list"),
    path("simulations/compare/", views.compare, name="compare"),
    path("simulations/odds/", views.odds_view, name="odds"),
    path("simulations/<int:pk>/", views.run_detail, name="detail"),
    path("simulations/<int:pk>/progress/", views.run_progress, name="progress"),
    path("simulations/decks/<int:deck_pk>/", views.deck_panel, name="deck-panel"),
    path("simulations/decks/<int:deck_pk>/start/", views.start, name="start"),
    path(
        "simulations/decks/<int:deck_pk>/compare/",
        compare_views.deck_compare,
        name="deck-compare",
    ),
    path("simulations/decks/<int:deck_pk>/tune/", compare_views.deck_tune, name="deck-tune"),
    path("simulations/<int:pk>/stop/", compare_views.run_stop, name="stop"),
    path("simulations/<int:pk>/apply/", compare_views.run_apply, name="apply"),
]
