from django.urls import path

from . import views

app_name = "catalogue"

urlpatterns = [
    path("cards/", views.index, name="index"),
    path("cards/help/", views.search_help, name="search-help"),
    path("cards/<slug:game>/", views.game_cards, name="game"),
    path("cards/<slug:game>/card/<int:pk>/", views.card_detail, name="card"),
    path("cards/<slug:game>/sets/<str:code>/", views.expansion_detail, name="expansion"),
]
