from django.urls import path, re_path

from cardsite.routers import api_router

from . import api

router = api_router()
router.register("decklists", api.DecklistViewSet, basename="decklist")

urlpatterns = [
    path("decks/<int:pk>/publish/", api.PublishView.as_view(), name="api-deck-publish"),
    re_path(rf"^authors/(?P<name>{api.USERNAME})/$", api.AuthorView.as_view(), name="api-author"),
    re_path(
        rf"^authors/(?P<name>{api.USERNAME})/follow/$",
        api.FollowView.as_view(),
        name="api-author-follow",
    ),
    *router.urls,
]
