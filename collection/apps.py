from django.apps import AppConfig

from catalogue import hooks as catalogue_hooks


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
        catalogue_hooks.CARD_PANELS.register(listeners.card_panels)
