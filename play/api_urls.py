from django.urls import path

from . import api

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
    path("play/campaigns/", api.CampaignListView.as_view(), name="api-play-campaigns"),
    path("play/campaigns/<int:pk>/", api.CampaignDetailView.as_view(), name="api-play-campaign"),
    path(
        "play/campaigns/<int:pk>/players/",
        api.CampaignPlayersView.as_view(),
        name="api-play-campaign-players",
    ),
    path(
        "play/campaigns/<int:pk>/games/",
        api.CampaignGamesView.as_view(),
        name="api-play-campaign-games",
    ),
    path(
        "play/campaigns/<int:pk>/spend/",
        api.CampaignSpendView.as_view(),
        name="api-play-campaign-spend",
    ),
    path(
        "play/campaigns/<int:pk>/standings/",
        api.CampaignStandingsView.as_view(),
        name="api-play-campaign-standings",
    ),
]
