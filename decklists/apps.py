from django.apps import AppConfig

from cardsite import hooks
from catalogue import hooks as catalogue_hooks


class DecklistsConfig(AppConfig):
    name = "decklists"
    verbose_name = "Decklists"

    def ready(self):
        # Imported here: the listeners import the models, which Django loads after the app
        # configs.
        from . import listeners

        catalogue_hooks.RULE_SET_CHANGED.register(listeners.recheck_after_rule_set_change)
        catalogue_hooks.CATALOGUE_CHANGED.register(listeners.recheck_after_catalogue_change)
        hooks.HOME_PANELS.register(listeners.home_panels)
        catalogue_hooks.CARD_PANELS.register(listeners.card_panels)
        catalogue_hooks.CARD_USES.register(listeners.card_uses)
