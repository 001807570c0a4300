from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _ensure_search_indexes(sender, using="default", **kwargs) -> None:
    """After `migrate`: the integer attributes of every registered game get their search
    index (a game added since the last migration brings keys of its own)."""
    from django.db import connections

    from .search.indexes import ensure_attribute_indexes

    ensure_attribute_indexes(connections[using])


class CatalogueConfig(AppConfig):
    name = "catalogue"
    verbose_name = "Catalogue"

    def ready(self) -> None:
        from django.conf import settings
        from django.core.exceptions import ImproperlyConfigured

        from validation.registry import registry

        for name in settings.CARDSITE_GAMES:
            try:
                registry.load(name)
            except (ImportError, ValueError) as exc:
                raise ImproperlyConfigured(f"CARDSITE_GAMES: {name}: {exc}") from exc
        post_migrate.connect(_ensure_search_indexes, sender=self)
        from . import bulk

        bulk.connect()
        from cardsite import hooks

        from .services import game_card_counts

        hooks.register("card_counts", game_card_counts)
