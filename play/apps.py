from django.apps import AppConfig

from cardsite import hooks
from decks import hooks as deck_hooks


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "Play tools"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: the links and the table import the play services and so the models,
        # which Django loads after the app configs.
        from . import links, table

        hooks.GAME_TOOLS.register(links.tools_for_game)
        deck_hooks.DECK_LINKS.register(table.table_link)
