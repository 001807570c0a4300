"""The decklist search's parameters that name a game, a format or a faction are enums of
the registry's values, read when the schema is generated (the server answers any other value
400 naming the valid ones)."""

from __future__ import annotations

from validation.registry import registry


def search_enums_hook(result, generator, request, public):

    games = list(registry.slugs())
    formats = sorted({f for g in registry.all() for f in g.formats})
    factions = sorted({f for g in registry.all() for f in g.factions})
    enums = {"game": games, "format": formats, "faction": factions}
    operation = result.get("paths", {}).get("/api/decklists/", {}).get("get")
    for param in (operation or {}).get("parameters", []):
        if param.get("in") == "query" and param["name"] in enums:
            param["schema"] = {"type": "string", "enum": enums[param["name"]]}
    return result
