"""The simulation pages, below /simulations/ (cardsite/urls.py)."""

from django.urls import path

from . import compare_views, views

app_name = "simulations"

urlpatterns = [
    path("", views.run_list, name="list"),
    path("compare/", views.compare, name="compare"),
    path("odds/", views.odds_view, name="odds"),
    path("<int:pk>/", views.run_detail, name="detail"),
    path("<int:pk>/progress/", views.run_progress, name="progress"),
    path("<int:pk>/status/", views.run_status, name="status"),
    path("decks/<int:deck_pk>/", views.deck_panel, name="deck-panel"),
    path("decks/<int:deck_pk>/start/", views.start, name="start"),
    path("decks/<int:deck_pk>/compare/", compare_views.deck_compare, name="deck-compare"),
    path("decks/<int:deck_pk>/tune/", compare_views.deck_tune, name="deck-tune"),
    path("<int:pk>/stop/", compare_views.run_stop, name="stop"),
    path("<int:pk>/apply/", compare_views.run_apply, name="apply"),
]
