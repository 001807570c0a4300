from django.urls import path

from . import api, campaign_urls

urlpatterns = [
    # before the games' routes, which would read /play/campaigns/<id>/ as a game's tool
    *campaign_urls.api_urlpatterns,
    path("play/<slug:game>/", api.GameToolsView.as_view(), name="api-play-game"),
    path("play/<slug:game>/<slug:tool>/", api.ToolView.as_view(), name="api-play-tool"),
]
