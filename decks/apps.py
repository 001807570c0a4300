from django.apps import AppConfig


def revalidate_after_catalogue_change(*, game_slug: str) -> None:
    """Saved decks of a game are re-validated in the background once a change to its
    catalogue is committed."""
    from django.db import transaction

    from .tasks import revalidate_game_decks

    transaction.on_commit(lambda: revalidate_game_decks.delay(game_slug))


def recheck_after_rule_set_change(*, game_slug: str, format: str, code: str) -> None:
    """Saved decks of a game are re-checked in the background once a change to one of its
    rule sets is committed (each under its own rule set: see decks.services.rechecks)."""
    from django.db import transaction

    from .tasks import revalidate_game_decks

    transaction.on_commit(lambda: revalidate_game_decks.delay(game_slug))


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = "Decks"

    def ready(self):
        from cardsite import hooks

        hooks.register("catalogue_changed", revalidate_after_catalogue_change)
        hooks.register("rule_set_changed", recheck_after_rule_set_change)
