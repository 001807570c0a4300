"""Where the play pages are, read from the registry: for the catalogue's game page (the
`game_tools` hook) and the play index.

A game's links are its tools (each its own page), "Goldfish a deck" when it has a goldfish,
and the campaign tracker when it has campaign rules (`campaign_links`).
"""

from __future__ import annotations

from django.urls import reverse

from cardsite.hooks import ToolLink
from validation.registry import registry

from . import services
from .campaign_links import campaign_links

GOLDFISH_LABEL = "Goldfish a deck"


def tools_for_game(slug: str) -> list[ToolLink]:
    """The play pages of game `slug` as [{"label", "url", "description"}] (empty for a game
    without any, or not registered)."""
    if slug not in registry:
        return []
    game = registry.get(slug)
    links: list[ToolLink] = [
        {
            "label": tool.label,
            "url": reverse("play:tool", args=[slug, tool.slug]),
            "description": tool.description,
        }
        for tool in game.tools
    ]
    if game.goldfish is not None:
        links.append(
            {
                "label": GOLDFISH_LABEL,
                "url": reverse("play:goldfish", args=[slug]),
                "description": game.goldfish.description,
            }
        )
    return links + [
        {"label": link["label"], "url": link["url"], "description": ""}
        for link in campaign_links(slug)
    ]


def all_tools() -> list[dict[str, object]]:
    """Every game with play pages: [{"game", "slug", "tools": [{"label", "url", …}]}]."""
    return [
        {"game": game.name, "slug": game.slug, "tools": tools_for_game(game.slug)}
        for game in services.games_that_play()
    ]
