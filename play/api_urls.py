from django.urls import path

from . import api, campaign_urls

urlpatterns = [
    path(
        "play/tactical-assault/combat-odds/",
        api.CombatOddsView.as_view(),
        name="api-play-combat-odds",
    ),
    path(
        "play/tactical-assault/close-combat/",
        api.CloseCombatView.as_view(),
        name="api-play-close-combat",
    ),
    path("play/red-code/crew/", api.CrewView.as_view(), name="api-play-crew"),
    path(
        "play/red-code/visual-field/",
        api.VisualFieldView.as_view(),
        name="api-play-visual-field",
    ),
    *campaign_urls.api_urlpatterns,
]
