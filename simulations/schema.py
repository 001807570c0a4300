"""The simulation kinds as an enum of the API schema (read when the schema is generated)."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers

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
