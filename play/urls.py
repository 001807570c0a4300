from django.urls import path

from . import campaign_urls, views

app_name = "play"

urlpatterns = [
    path("play/", views.index, name="index"),
    # before any other /play/<game>/… route, which could read "campaigns" as its own
    *campaign_urls.urlpatterns,
    path("play/tactical-assault/combat/", views.combat, name="combat"),
    path("play/tactical-assault/combat/close-combat/", views.close_combat, name="close-combat"),
    path("play/red-code/crew/", views.crew, name="crew"),
    path("play/red-code/visual-field/", views.visual_field, name="visual-field"),
    path("play/red-mittens/goldfish/", views.goldfish, name="goldfish"),
]
