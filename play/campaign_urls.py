"""Campaign pages (in the `play` namespace) and API routes, for every game with campaign
rules: the game's slug is in the page paths; the API names the game in the campaign."""

from django.urls import path

from . import campaign_api, campaign_views

#: One campaign's pages, under its address.
CAMPAIGN = "play/<slug:game>/campaigns/<int:pk>/"
#: One campaign's API routes, under its address.
CAMPAIGN_API = "play/campaigns/<int:pk>/"

urlpatterns = [
    path("play/<slug:game>/campaigns/", campaign_views.campaign_list, name="campaigns"),
    path("play/<slug:game>/campaigns/new/", campaign_views.campaign_new, name="campaign-new"),
    *(
        path(CAMPAIGN + tail, view, name=name)
        for tail, view, name in (
            ("", campaign_views.campaign_detail, "campaign"),
            ("players/new/", campaign_views.campaign_player_new, "campaign-player-new"),
            ("games/new/", campaign_views.campaign_game_new, "campaign-game-new"),
            ("spend/", campaign_views.campaign_spend, "campaign-spend"),
            ("standings/", campaign_views.campaign_standings, "campaign-standings"),
        )
    ),
]

api_urlpatterns = [
    path("play/campaigns/", campaign_api.CampaignListView.as_view(), name="api-play-campaigns"),
    *(
        path(CAMPAIGN_API + tail, view.as_view(), name=f"api-play-campaign{suffix}")
        for tail, view, suffix in (
            ("", campaign_api.CampaignDetailView, ""),
            ("players/", campaign_api.CampaignPlayersView, "-players"),
            ("games/", campaign_api.CampaignGamesView, "-games"),
            ("spend/", campaign_api.CampaignSpendView, "-spend"),
            ("standings/", campaign_api.CampaignStandingsView, "-standings"),
        )
    ),
]
