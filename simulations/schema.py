"""The simulation kinds as an enum of the API schema (read when the schema is generated)."""

from __future__ import annotations

import copy
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers

from validation.params import MAX_TEXT, ParamSpec

from . import kinds


class SimulationKindField(serializers.CharField):
    """A simulation kind's slug."""


def kind_slugs() -> list[str]:
    return sorted(k.slug for k in kinds.all_kinds())


class SimulationKindFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "simulations.schema.SimulationKindField"

    def map_serializer_field(self, auto_schema, direction):
        return {"type": "string", "enum": kind_slugs()}


class _Slugs:
    """The kinds' slugs, read when first used (ENUM_NAME_OVERRIDES names this)."""

    def __iter__(self):
        return iter(kind_slugs())


SIMULATION_KINDS = _Slugs()


# --- Each kind's parameters ------------------------------------------------------------------
#: The start bodies whose `params` are a kind's: (component, stem of its forms, kinds it takes).
START_BODIES = (
    ("StartRequest", "Start", lambda k: True),
    ("DecklessStartRequest", "DecklessStart", lambda k: not k.needs_deck),
)


def _camel(slug: str) -> str:
    return "".join(part.capitalize() for part in slug.replace("_", "-").split("-"))


def param_schema(spec: ParamSpec) -> dict[str, Any]:
    """One parameter as the server reads it from JSON: its type, bounds and choices. A
    parameter with a default (or a yes/no one) may be null: null is its default."""
    if spec.type == "int":
        out: dict[str, Any] = {"type": "integer"}
        if spec.min is not None:
            out["minimum"] = spec.min
        if spec.max is not None:
            out["maximum"] = spec.max
    elif spec.type == "bool":
        out = {"type": "boolean"}
    elif spec.type == "choice" and spec.cards_of_kind:
        out = {"type": "string", "minLength": 1, "maxLength": MAX_TEXT}
    elif spec.type == "choice":
        out = {"type": "string", "enum": [value for value, _label in spec.choice_list()]}
    else:
        out = {"type": "string", "maxLength": MAX_TEXT}
        if spec.pattern:
            out["pattern"] = spec.pattern
    described = spec.label + (f": {spec.help}" if spec.help else "")
    if spec.cards_of_kind:
        described += f" (the name of a catalogue card of kind {spec.cards_of_kind})"
    out["description"] = described
    if spec.default is not None and spec.default != "":
        out["default"] = spec.default
    if spec.default is not None or spec.type == "bool":
        out["nullable"] = True
    return out


def params_schema(kind: kinds.SimulationKind) -> dict[str, Any]:
    return {
        "type": "object",
        "description": f"The parameters of {kind.label} (any left out take their default).",
        "properties": {spec.name: param_schema(spec) for spec in kind.params},
        "required": [s.name for s in kind.params if s.default is None and s.type != "bool"],
        "additionalProperties": False,
    }


def start_params_hook(result, generator, request, public):
    """A start body is a `oneOf` of one form per simulation kind: its `kind` and that kind's
    `params` (`<Kind>Params`: each parameter's type, bounds and choices, as the server
    checks them). Where `kind` may be left out (a deck's start: its game's first kind), a
    form without it takes the parameters of any kind of a deck."""
    schemas = result.get("components", {}).get("schemas", {})
    all_kinds = kinds.all_kinds()
    for k in all_kinds:
        params = params_schema(k)
        if not params["required"]:
            del params["required"]
        schemas[f"{_camel(k.slug)}Params"] = params
    for name, stem, takes in START_BODIES:
        base = schemas.get(name)
        if base is None or "oneOf" in base:
            continue
        forms: dict[str, dict[str, Any]] = {}
        for k in all_kinds:
            if not takes(k):
                continue
            form = copy.deepcopy(base)
            form["properties"]["kind"] = {
                "type": "string",
                "enum": [k.slug],
                "description": k.label,
            }
            form["properties"]["params"] = {"$ref": f"#/components/schemas/{_camel(k.slug)}Params"}
            form["required"] = ["kind", *[r for r in base.get("required", []) if r != "kind"]]
            forms[f"{stem}{_camel(k.slug)}"] = form
        if "kind" not in base.get("required", []):
            form = copy.deepcopy(base)
            del form["properties"]["kind"]
            form["properties"]["params"] = {
                "anyOf": [
                    {"$ref": f"#/components/schemas/{_camel(k.slug)}Params"}
                    for k in all_kinds
                    if k.needs_deck
                ]
            }
            form["not"] = {"required": ["kind"]}
            form["description"] = "The deck's game's first simulation kind."
            forms[f"{stem}DefaultKind"] = form
        for form_name, form in forms.items():
            schemas[form_name] = form
        schemas[name] = {
            "oneOf": [{"$ref": f"#/components/schemas/{n}"} for n in forms],
            "description": "A simulation kind and its parameters.",
        }
    return result
