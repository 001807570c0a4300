"""Where the play tools are: links per game, for the catalogue's game page.

`tools_for_game(slug)` answers [{"label", "url"}] for the buttons of a game page
(the `game_tools` context variable of templates/catalogue/game.html). Every game with
campaign rules also gets its campaign tracker (`campaign_links`).
"""

from __future__ import annotations

from django.urls import reverse

from .campaign_links import campaign_links

_TOOLS: dict[str, tuple[tuple[str, str], ...]] = {
    "tactical-assault": (("Combat odds", "play:combat"),),
    "red-code": (
        ("Crew economy", "play:crew"),
        ("Visual field", "play:visual-field"),
    ),
    "red-mittens": (("Goldfish a deck", "play:goldfish"),),
}


def tools_for_game(slug: str) -> list[dict[str, str]]:
    """The play tools of one game as [{"label", "url"}] (empty for a game without)."""
    tools = [{"label": label, "url": reverse(name)} for label, name in _TOOLS.get(slug, ())]
    return tools + campaign_links(slug)


def all_tools() -> list[dict[str, object]]:
    """Every game with tools: [{"game", "tools": [{"label", "url"}]}]."""
    from validation.registry import registry

    slugs = [g.slug for g in registry.all() if g.slug in _TOOLS or g.campaign is not None]
    slugs += [slug for slug in _TOOLS if slug not in registry]
    out = []
    for slug in slugs:
        name = registry.get(slug).name if slug in registry else slug
        out.append({"game": name, "slug": slug, "tools": tools_for_game(slug)})
    return out
