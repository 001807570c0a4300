"""What the decklists app does when the site's hooks call (registered in
`DecklistsConfig.ready`): a rule set or a game's catalogue changed, the home page or a card's
page is drawn. A re-check is a job of the site's job system (services.legality_jobs)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import HttpRequest

from cardsite.hooks import Panel
from catalogue.models import Card

from .selectors import card_decklist_count, popular_this_week
from .services.legality_jobs import legality_recheck_start


def recheck_after_rule_set_change(*, game_slug: str, format: str, code: str) -> None:
    """Once a change to one of a format's rule sets is committed (imported, edited or
    deleted), a worker re-checks the game's decklists in that format."""
    reason = f"rule set {code} of {format} changed"
    transaction.on_commit(
        lambda: legality_recheck_start(game_slug=game_slug, format=format, reason=reason)
    )


def recheck_after_catalogue_change(*, game_slug: str) -> None:
    """A game's catalogue changed: once committed, its decklists are re-checked in every
    format on the workers."""
    transaction.on_commit(
        lambda: legality_recheck_start(game_slug=game_slug, reason="catalogue changed")
    )


def home_panels(request: HttpRequest) -> list[Panel]:
    """The home page's strip of this week's popular decklists of each game."""
    strip = popular_this_week()
    return [Panel("decklists/_home_strip.html", {"games": strip})] if strip else []


def card_uses(card: Card) -> dict[str, int]:
    """The published decklists holding the card (one query)."""
    return {"decklists": card_decklist_count(card)}


def card_panels(card: Card, user: Any = None) -> list[Panel]:
    """A card page's "in N decklists", linking to them."""
    return [Panel("decklists/_card_count.html", {"count": card_decklist_count(card), "card": card})]
