from django.apps import AppConfig


def recheck_after_rule_set_change(*, game_slug: str, format: str, code: str) -> None:
    """Once a change to one of a format's rule sets is committed (imported, edited or
    deleted), a worker re-checks the game's decklists in that format."""
    from django.db import transaction

    from .tasks import recheck_start

    reason = f"rule set {code} of {format} changed"
    transaction.on_commit(lambda: recheck_start.delay(game_slug, format, reason))


def recheck_after_catalogue_change(*, game_slug: str) -> None:
    """A game's catalogue changed: its decklists are re-checked in every format."""
    from django.db import transaction

    from .tasks import recheck_start

    transaction.on_commit(lambda: recheck_start.delay(game_slug, "", "catalogue changed"))


def home_panels(request) -> list[dict]:
    """The home page's strip of this week's popular decklists of each game."""
    from .selectors import popular_this_week

    strip = popular_this_week()
    return [{"template": "decklists/_home_strip.html", "games": strip}] if strip else []


def card_panels(card) -> list[dict]:
    """A card page's "in N decklists", linking to them."""
    from .selectors import card_decklist_count

    return [
        {
            "template": "decklists/_card_count.html",
            "count": card_decklist_count(card),
            "card": card,
        }
    ]


class DecklistsConfig(AppConfig):
    name = "decklists"
    verbose_name = "Decklists"

    def ready(self):
        from cardsite import hooks

        hooks.register("rule_set_changed", recheck_after_rule_set_change)
        hooks.register("catalogue_changed", recheck_after_catalogue_change)
        hooks.register("home_panels", home_panels)
        hooks.register("card_panels", card_panels)
