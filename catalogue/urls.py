from django.urls import path

from . import image_views, views

app_name = "catalogue"

urlpatterns = [
    path("cards/", views.index, name="index"),
    path("cards/help/", views.search_help, name="search-help"),
    path("cards/<slug:game>/", views.game_cards, name="game"),
    path("cards/<slug:game>/card/<int:pk>/", views.card_detail, name="card"),
    path("cards/<slug:game>/card/<int:pk>/face/", views.card_face, name="face"),
    path("cards/<slug:game>/card/<int:pk>/image.png", image_views.card_image, name="card-image"),
    path("cards/<slug:game>/back.png", image_views.card_back, name="card-back"),
    path("cards/<slug:game>/face/", views.card_face_by_name, name="face-by-name"),
    path("cards/<slug:game>/named/", views.card_by_name, name="card-by-name"),
    path("cards/<slug:game>/sets/<str:code>/", views.expansion_detail, name="expansion"),
    path("rules/<slug:game>/", views.rules, name="rules"),
    path("rules/<slug:game>/<slug:format>/rule-sets/", views.rule_sets, name="rule_sets"),
]
