from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "Play tools"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The simulation kinds of the play tools (red-mittens-goldfish,
        # tactical-assault-close-combat) join the simulations registry when it exists.
        from cardsite import hooks

        from . import sim_kinds
        from .links import tools_for_game

        sim_kinds.register_kinds()
        hooks.register("game_tools", tools_for_game)
