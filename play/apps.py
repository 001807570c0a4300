from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "Play tools"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from cardsite import hooks

        from .links import tools_for_game
        from .table import table_link

        hooks.register("game_tools", tools_for_game)
        hooks.register("deck_links", table_link)
