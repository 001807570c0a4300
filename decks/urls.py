from django.urls import include, path

from . import views

app_name = "decks"

urlpatterns = [
    path("check/", views.check_list, name="check"),
    path("build/", views.build, name="build"),
    path("decks/mine/", views.my_decks, name="mine"),
    path("decks/new/", views.deck_new, name="new"),
    path("decks/import/", views.deck_import, name="import"),
    path("decks/public/", views.public_decks, name="public"),
    path("decks/public/<slug:game>/", views.public_decks, name="public-game"),
    path("decks/<int:pk>/", views.deck_detail, name="detail"),
    path("decks/<int:pk>/versions/<int:number>/", views.deck_version, name="version"),
    path("decks/<int:pk>/diff/", views.deck_diff, name="diff"),
    path("decks/<int:pk>/export/<str:kind>/", views.deck_export, name="export"),
    path("decks/<int:pk>/clone/", views.deck_clone, name="clone"),
    path("decks/<int:pk>/edit/", views.deck_edit, name="edit"),
    path("decks/<int:pk>/settings/", views.deck_settings, name="settings"),
    path("decks/<int:pk>/rule-set/", views.deck_rule_set, name="rule-set"),
    path("decks/<int:pk>/delete/", views.deck_delete, name="delete"),
    path("decks/<int:pk>/hand/", views.deck_hand, name="hand"),
    path("decks/<int:pk>/new-link/", views.deck_new_link, name="new-link"),
    path("decks/shared/<str:token>/", views.deck_shared, name="shared"),
    path("decks/shared/<str:token>/hand/", views.deck_shared_hand, name="shared-hand"),
    path("decks/shared/<str:token>/diff/", views.deck_shared_diff, name="shared-diff"),
    path(
        "decks/shared/<str:token>/export/<str:kind>/",
        views.deck_shared_export,
        name="shared-export",
    ),
    path("decks/shared/<str:token>/clone/", views.deck_shared_clone, name="shared-clone"),
    # The collection app's pages (marking a deck built, the collection), named in this
    # namespace as they always were; named by string, as the project's URLconf names apps:
    # the collection app is a layer above this one.
    path("", include("collection.urls")),
    path("cards/<slug:game>/card/<int:pk>/add/", views.card_to_deck, name="card-to-deck"),
]
