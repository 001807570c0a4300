from django.apps import AppConfig

from cardsite import hooks


class DecklistsConfig(AppConfig):
    name = "decklists"
    verbose_name = "Decklists"

    def ready(self):
        # Imported here: the listeners import the models, which Django loads after the app
        # configs.
        from . import listeners

        hooks.register("rule_set_changed", listeners.recheck_after_rule_set_change)
        hooks.register("catalogue_changed", listeners.recheck_after_catalogue_change)
        hooks.register("home_panels", listeners.home_panels)
        hooks.register("card_panels", listeners.card_panels)
        hooks.register("card_uses", listeners.card_uses)
