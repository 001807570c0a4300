from django.urls import include, path

from .views import browse, card_to_deck, check, create, detail, downloads, hand, owner

app_name = "decks"

urlpatterns = [
    path("check/", check.check_list, name="check"),
    path("build/", check.build, name="build"),
    path("decks/mine/", browse.my_decks, name="mine"),
    path("decks/new/", create.deck_new, name="new"),
    path("decks/import/", create.deck_import, name="import"),
    path("decks/public/", browse.public_decks, name="public"),
    path("decks/public/<slug:game>/", browse.public_decks, name="public-game"),
    path("decks/<int:pk>/", detail.deck_detail, name="detail"),
    path("decks/<int:pk>/versions/<int:number>/", detail.deck_version, name="version"),
    path("decks/<int:pk>/diff/", detail.deck_diff, name="diff"),
    path("decks/<int:pk>/export/<str:kind>/", downloads.deck_export, name="export"),
    path("decks/<int:pk>/clone/", owner.deck_clone, name="clone"),
    path("decks/<int:pk>/edit/", owner.deck_edit, name="edit"),
    path("decks/<int:pk>/settings/", owner.deck_settings, name="settings"),
    path("decks/<int:pk>/rule-set/", owner.deck_rule_set, name="rule-set"),
    path("decks/<int:pk>/delete/", owner.deck_delete, name="delete"),
    path("decks/<int:pk>/hand/", hand.deck_hand, name="hand"),
    path("decks/<int:pk>/new-link/", owner.deck_new_link, name="new-link"),
    path("decks/shared/<str:token>/", detail.deck_shared, name="shared"),
    path("decks/shared/<str:token>/hand/", hand.deck_shared_hand, name="shared-hand"),
    path("decks/shared/<str:token>/diff/", detail.deck_shared_diff, name="shared-diff"),
    path(
        "decks/shared/<str:token>/export/<str:kind>/",
        downloads.deck_shared_export,
        name="shared-export",
    ),
    path("decks/shared/<str:token>/clone/", owner.deck_shared_clone, name="shared-clone"),
    # The collection app's pages (marking a deck built, the collection), named in this
    # namespace as they always were; named by string, as the project's URLconf names apps:
    # the collection app is a layer above this one.
    path("", include("collection.urls")),
    path("cards/<slug:game>/card/<int:pk>/add/", card_to_deck.card_to_deck, name="card-to-deck"),
]
