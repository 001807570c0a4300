"""Campaign pages (in the `play` namespace) and API routes, for every game with campaign
rules: the game's slug is in the page paths; the API names the game in the campaign."""

from django.urls import path

from . import campaign_api, campaign_views

urlpatterns = [
    path("play/<slug:game>/campaigns/", campaign_views.campaign_list, name="campaigns"),
    path("play/<slug:game>/campaigns/new/", campaign_views.campaign_new, name="campaign-new"),
    path(
        "play/<slug:game>/campaigns/<int:pk>/",
        campaign_views.campaign_detail,
        name="campaign",
    ),
    path(
        "play/<slug:game>/campaigns/<int:pk>/players/new/",
        campaign_views.campaign_player_new,
        name="campaign-player-new",
    ),
    path(
        "play/<slug:game>/campaigns/<int:pk>/games/new/",
        campaign_views.campaign_game_new,
        name="campaign-game-new",
    ),
    path(
        "play/<slug:game>/campaigns/<int:pk>/spend/",
        campaign_views.campaign_spend,
        name="campaign-spend",
    ),
    path(
        "play/<slug:game>/campaigns/<int:pk>/standings/",
        campaign_views.campaign_standings,
        name="campaign-standings",
    ),
]

api_urlpatterns = [
    path("play/campaigns/", campaign_api.CampaignListView.as_view(), name="api-play-campaigns"),
    path(
        "play/campaigns/<int:pk>/",
        campaign_api.CampaignDetailView.as_view(),
        name="api-play-campaign",
    ),
    path(
        "play/campaigns/<int:pk>/players/",
        campaign_api.CampaignPlayersView.as_view(),
        name="api-play-campaign-players",
    ),
    path(
        "play/campaigns/<int:pk>/games/",
        campaign_api.CampaignGamesView.as_view(),
        name="api-play-campaign-games",
    ),
    path(
        "play/campaigns/<int:pk>/spend/",
        campaign_api.CampaignSpendView.as_view(),
        name="api-play-campaign-spend",
    ),
    path(
        "play/campaigns/<int:pk>/standings/",
        campaign_api.CampaignStandingsView.as_view(),
        name="api-play-campaign-standings",
    ),
]
