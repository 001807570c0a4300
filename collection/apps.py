from django.apps import AppConfig

from cardsite import hooks


class CollectionConfig(AppConfig):
    name = "collection"
    verbose_name = "Collection"

    def ready(self):
        # Imported here: they import the models, which Django loads after the app configs.
        from . import holdings, listeners

        # The decks app (a layer below) asks its questions about a user's collection through
        # decks.lists.holdings: a list restricted to the collection, the builder's figures.
        holdings.provide_to_decks()
        # A card's page: your decks using it, your copies, and the public decks' count.
        hooks.register("card_panels", listeners.card_panels)
