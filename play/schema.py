"""The play tools' parameters in the API schema (read when the schema is generated).

Each tool that takes a body (a tool with a background run) has its own parameters component,
`<Game><Tool>ToolParams`, built from the tool's specs in the registry (types, bounds,
defaults, choices, no other keys); the body of `POST /api/play/{game}/{tool}/` is a `oneOf`
of them. A live tool's GET reads a query string (text) and declares none: a client generated
from the schema would not spread an object over the query."""

from __future__ import annotations

from typing import Any

from simulations.schema import param_schema
from validation.capabilities import Tool
from validation.registry import registry

from . import services

#: The body component of `POST /api/play/{game}/{tool}/`.
RUN_BODY = "ToolRunRequest"


def _camel(slug: str) -> str:
    return "".join(part.capitalize() for part in slug.replace("_", "-").split("-"))


def component_name(game_slug: str, tool: Tool) -> str:
    return f"{_camel(game_slug)}{_camel(tool.slug)}ToolParams"


def tool_params_schema(game_slug: str, tool: Tool) -> dict[str, Any]:
    """A tool's parameters as the API reads them from JSON. A seed without a default may be
    left out or null: the server draws one."""
    seeds = {s.name for s in services.seed_specs(tool.params)}
    properties = {}
    for spec in tool.params:
        stated = param_schema(spec)
        if spec.name in seeds:
            stated["nullable"] = True
            stated["description"] += " (left out or null: a random seed)"
        properties[spec.name] = stated
    out: dict[str, Any] = {
        "type": "object",
        "description": f"The parameters of {tool.label} ({game_slug}; any left out take "
        "their default).",
        "properties": properties,
        "additionalProperties": False,
    }
    required = [
        s.name
        for s in tool.params
        if s.default is None and s.type != "bool" and s.name not in seeds
    ]
    if required:
        out["required"] = required
    return out


def tool_params_hook(result, generator, request, public):
    """The parameters component of every tool that takes a body; the run body a `oneOf` of
    them."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    forms = []
    for game in registry:
        for tool in game.tools:
            if tool.background is not None:
                name = component_name(game.slug, tool)
                schemas[name] = tool_params_schema(game.slug, tool)
                forms.append(name)
    operation = result.get("paths", {}).get("/api/play/{game}/{tool}/", {}).get("post")
    if operation is None or not forms:
        return result
    schemas[RUN_BODY] = {
        "oneOf": [{"$ref": f"#/components/schemas/{n}"} for n in forms],
        "description": "The parameters of the tool named in the path (GET /api/play/{game}/ "
        "lists each game's tools).",
    }
    for media in operation.get("requestBody", {}).get("content", {}).values():
        media["schema"] = {"$ref": f"#/components/schemas/{RUN_BODY}"}
    return result
