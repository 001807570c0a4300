from django.apps import AppConfig


class TabletopConfig(AppConfig):
    name = "tabletop"
    verbose_name = "At the table"

    def ready(self) -> None:
        # Imported here: the formats read the decks app's selectors and so its models, which
        # Django loads after the app configs; importing them registers every export format
        # with the decks app's registry (decks.exports).
        from .exports import formats  # noqa: F401
