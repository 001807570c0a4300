"""Where the play tools are: links per game, for the catalogue's game page.

`tools_for_game(slug)` answers [{"label", "url"}] for the buttons of a game page
(the `game_tools` context variable of templates/catalogue/game.html).
"""

from __future__ import annotations

from django.urls import reverse

_TOOLS: dict[str, tuple[tuple[str, str], ...]] = {
    "tactical-assault": (
        ("Combat odds", "play:combat"),
        ("Campaign tracker", "play:campaigns"),
    ),
    "red-code": (
        ("Crew economy", "play:crew"),
        ("Visual field", "play:visual-field"),
    ),
    "red-mittens": (("Goldfish a deck", "play:goldfish"),),
}


def tools_for_game(slug: str) -> list[dict[str, str]]:
    """The play tools of one game as [{"label", "url"}] (empty for a game without)."""
    return [{"label": label, "url": reverse(name)} for label, name in _TOOLS.get(slug, ())]


def all_tools() -> list[dict[str, object]]:
    """Every game with tools: [{"game", "tools": [{"label", "url"}]}]."""
    from validation.registry import registry

    out = []
    for slug in _TOOLS:
        name = registry.get(slug).name if slug in registry else slug
        out.append({"game": name, "slug": slug, "tools": tools_for_game(slug)})
    return out
