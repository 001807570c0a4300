from django.urls import path

from . import views

app_name = "play"

urlpatterns = [
    path("play/", views.index, name="index"),
    path("play/tactical-assault/combat/", views.combat, name="combat"),
    path("play/tactical-assault/combat/close-combat/", views.close_combat, name="close-combat"),
    path("play/tactical-assault/campaigns/", views.campaign_list, name="campaigns"),
    path("play/tactical-assault/campaigns/new/", views.campaign_new, name="campaign-new"),
    path("play/tactical-assault/campaigns/<int:pk>/", views.campaign_detail, name="campaign"),
    path(
        "play/tactical-assault/campaigns/<int:pk>/players/new/",
        views.campaign_player_new,
        name="campaign-player-new",
    ),
    path(
        "play/tactical-assault/campaigns/<int:pk>/games/new/",
        views.campaign_game_new,
        name="campaign-game-new",
    ),
    path(
        "play/tactical-assault/campaigns/<int:pk>/spend/",
        views.campaign_spend,
        name="campaign-spend",
    ),
    path(
        "play/tactical-assault/campaigns/<int:pk>/standings/",
        views.campaign_standings,
        name="campaign-standings",
    ),
    path("play/red-code/crew/", views.crew, name="crew"),
    path("play/red-code/visual-field/", views.visual_field, name="visual-field"),
    path("play/red-mittens/goldfish/", views.goldfish, name="goldfish"),
]
