"""The play tools' parameters in the API schema (read when the schema is generated).

Each tool that takes a body (a tool with a background run) has its own parameters component,
`<Game><Tool>ToolParams`, built from the tool's specs in the registry (types, bounds,
defaults, choices, no other keys); the body of `POST /api/play/{game}/{tool}/` is a `oneOf`
of them, and its `tool` path parameter an enum of those tools. Each live tool (answered by
GET with its parameters in the query string) has its own concrete path,
`/api/play/<game>/<tool>/`, whose GET declares that tool's query parameters one by one (type,
bounds, choices, default, required); the templated path keeps only the POST."""

from __future__ import annotations

import copy
from typing import Any

from simulations.schema import param_schema
from validation.capabilities import Tool
from validation.registry import registry

from . import services
from .campaign_services import campaign_game_slugs

#: The body component of `POST /api/play/{game}/{tool}/`.
RUN_BODY = "ToolRunRequest"
#: The templated path of every tool.
TOOL_PATH = "/api/play/{game}/{tool}/"


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
    _live_tool_paths(result)
    operation = result.get("paths", {}).get(TOOL_PATH, {}).get("post")
    if operation is None or not forms:
        return result
    body_tools = sorted({t.slug for g in registry for t in g.tools if t.background is not None})
    for parameter in operation.get("parameters", []):
        if parameter.get("in") == "path" and parameter.get("name") == "tool":
            parameter["schema"] = {"type": "string", "enum": body_tools}
    schemas[RUN_BODY] = {
        "oneOf": [{"$ref": f"#/components/schemas/{n}"} for n in forms],
        "description": "The parameters of the tool named in the path (GET /api/play/{game}/ "
        "lists each game's tools).",
    }
    for media in operation.get("requestBody", {}).get("content", {}).values():
        media["schema"] = {"$ref": f"#/components/schemas/{RUN_BODY}"}
    return result


def _snake(slug: str) -> str:
    return slug.replace("-", "_")


def live_tool_parameters(game_slug: str, tool: Tool) -> list[dict[str, Any]]:
    """A live tool's query parameters: each parameter's type, bounds, choices and default
    as the server reads them (a yes/no one as true or false). A live tool draws no seed: a
    parameter without a default (but a yes/no one) is required."""
    out = []
    for spec in tool.params:
        schema = param_schema(spec)
        description = schema.pop("description")
        schema.pop("nullable", None)
        out.append(
            {
                "name": spec.name,
                "in": "query",
                "required": spec.default is None and spec.type != "bool",
                "description": description,
                "schema": schema,
            }
        )
    return out


def _live_tool_paths(result) -> None:
    """A concrete path with a GET for every live tool of every game; the templated path's
    GET then answers nothing more (a tool with a background run answers GET 405) and goes."""
    paths = result.get("paths", {})
    generic = paths.get(TOOL_PATH, {})
    template = generic.get("get")
    if template is None:
        return
    for game in registry:
        for tool in game.tools:
            if tool.background is not None:
                continue
            operation = copy.deepcopy(template)
            operation["operationId"] = f"play_{_snake(game.slug)}_{_snake(tool.slug)}_retrieve"
            operation["summary"] = f"{tool.label} ({game.slug})"
            operation["description"] = tool.description or operation.get("description", "")
            operation["parameters"] = [
                p for p in operation.get("parameters", []) if p.get("in") != "path"
            ] + live_tool_parameters(game.slug, tool)
            paths[f"/api/play/{game.slug}/{tool.slug}/"] = {"get": operation}
    del generic["get"]
    if not generic:
        del paths[TOOL_PATH]


def campaign_game_hook(result, generator, request, public):
    """A new campaign's `game` is the enum of the registered games with campaigns
    (`CampaignGameEnum`): the server refuses any other game with a 400 naming them."""

    schemas = result.get("components", {}).get("schemas", {})
    schemas["CampaignGameEnum"] = {"type": "string", "enum": campaign_game_slugs()}
    for name, component in schemas.items():
        if not name.startswith("CampaignCreateRequest"):
            continue
        game = component.get("properties", {}).get("game")
        if game is not None:
            component["properties"]["game"] = {
                "allOf": [{"$ref": "#/components/schemas/CampaignGameEnum"}],
                "description": game.get("description", ""),
            }
    return result
