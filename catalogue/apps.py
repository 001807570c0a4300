from django.apps import AppConfig
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connections
from django.db.models.signals import post_migrate

from cardsite import hooks
from validation.registry import registry


def _ensure_search_indexes(sender, using="default", **kwargs) -> None:
    """After `migrate`: the integer attributes of every registered game get their search
    index (a game added since the last migration brings keys of its own)."""
    # Imported here: the search imports the models, which load after this module.
    from .search.indexes import ensure_attribute_indexes

    ensure_attribute_indexes(connections[using])


class CatalogueConfig(AppConfig):
    name = "catalogue"
    verbose_name = "Catalogue"

    def ready(self) -> None:
        for name in settings.CARDSITE_GAMES:
            try:
                registry.load(name)
            except (ImportError, ValueError) as exc:
                raise ImproperlyConfigured(f"CARDSITE_GAMES: {name}: {exc}") from exc
        post_migrate.connect(_ensure_search_indexes, sender=self)
        # Imported here: they import the models, which Django loads after the app configs.
        # (import_jobs registers the large expansion import with the site's job system.)
        from . import import_jobs, services  # noqa: F401

        hooks.CARD_COUNTS.register(services.game_card_counts)
