"""The campaign tracker's button on the game page of every game with campaign rules."""

from __future__ import annotations

from django.urls import reverse

from validation.registry import registry

LABEL = "Campaign tracker"


def campaign_links(slug: str) -> list[dict[str, str]]:
    """[{"label", "url"}] of the campaign pages of game `slug` (empty without campaign
    rules)."""
    if slug not in registry or registry.get(slug).campaign is None:
        return []
    return [{"label": LABEL, "url": reverse("play:campaigns", args=[slug])}]
