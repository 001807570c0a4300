from django.apps import AppConfig


class CardsiteConfig(AppConfig):
    name = "cardsite"
    verbose_name = "Cardsite"

    def ready(self) -> None:
        # The token's security scheme in the API schema (a drf-spectacular extension).
        # Imported here: the tokens import the models (the site's and knox's), which Django
        # loads after the app configs.
        from . import tokens  # noqa: F401

        # A body's integers within the range the schema declares (cardsite.parameters).
        from .parameters import enforce_body_integer_ranges

        enforce_body_integer_ranges()
