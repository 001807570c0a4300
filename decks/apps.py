from django.apps import AppConfig


def revalidate_after_catalogue_change(*, game_slug: str) -> None:
    """Saved decks of a game are re-validated in the background once a change to its
    catalogue is committed."""
    from django.db import transaction

    from .tasks import revalidate_game_decks

    transaction.on_commit(lambda: revalidate_game_decks.delay(game_slug))


def profile_decks(user) -> dict:
    """The profile page's list of the user's decks."""
    from .selectors import deck_list_for_owner

    return {"decks": deck_list_for_owner(owner=user)}


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = "Decks"

    def ready(self):
        from cardsite import hooks

        hooks.register("catalogue_changed", revalidate_after_catalogue_change)
        hooks.register("profile_context", profile_decks)
