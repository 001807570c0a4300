"""A request field whose values come from the game registry, declared as enums in the API
schema (read when the schema is generated, so a game added by CARDSITE_GAMES is in it). The
server's own check (with its message naming the valid values) is unchanged."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers


class FormatField(serializers.CharField):
    """A format slug of some game (which game's: the request's `game` says)."""


def _format_slugs() -> list[str]:
    from validation.registry import registry

    return sorted({fmt.slug for game in registry.all() for fmt in game.formats.values()})


class FormatFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "cardsite.schema_fields.FormatField"

    def map_serializer_field(self, auto_schema, direction):
        return {"type": "string", "enum": _format_slugs(), "description": "a format of the game"}
