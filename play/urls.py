from django.urls import path

from . import campaign_urls, table, views

app_name = "play"

urlpatterns = [
    path("play/", views.index, name="index"),
    # before any other /play/<game>/… route, which could read "campaigns" as its own
    *campaign_urls.urlpatterns,
    path("play/<slug:game>/goldfish/", views.goldfish, name="goldfish"),
    path("decks/<int:pk>/table/", table.table, name="table"),
    path("play/<slug:game>/<slug:tool>/", views.tool, name="tool"),
]
