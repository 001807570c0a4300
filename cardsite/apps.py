from django.apps import AppConfig


class CardsiteConfig(AppConfig):
    name = "cardsite"
    verbose_name = "Cardsite"

    def ready(self) -> None:
        # The token's security scheme in the API schema (a drf-spectacular extension).
        from . import tokens  # noqa: F401
