"""Values that come from the game registry (games, card kinds, formats), declared as enums in
the API schema: read when the schema is generated, so a game added by CARDSITE_GAMES is in
it. The serializer fields keep the server's own check (with its message naming the valid
values); the filters refuse a value no game has (400 naming the valid ones) instead of
answering an empty page, so the enum the schema states is the server's."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from validation.registry import registry


def game_slugs() -> list[str]:
    return list(registry.slugs())


def _format_slugs() -> list[str]:
    return sorted({fmt.slug for game in registry.all() for fmt in game.formats.values()})


def card_kind_slugs() -> list[str]:
    return sorted({kind for game in registry.all() for kind in game.kinds})


class FormatField(serializers.CharField):
    """A format slug of some game (which game's: the request's `game` says)."""


class GameField(serializers.CharField):
    """A game's slug."""


class CardKindField(serializers.CharField):
    """A card kind of some game."""


class FormatFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "cardsite.schema_fields.FormatField"

    def map_serializer_field(self, auto_schema, direction):
        return {"type": "string", "enum": _format_slugs(), "description": "a format of the game"}


class GameFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "cardsite.schema_fields.GameField"

    def map_serializer_field(self, auto_schema, direction):
        return {"type": "string", "enum": game_slugs()}


class CardKindFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "cardsite.schema_fields.CardKindField"

    def map_serializer_field(self, auto_schema, direction):
        return {"type": "string", "enum": card_kind_slugs()}


def _pairs(values):
    return lambda: [(v, v) for v in values()]


def refuse_empty(value, field: forms.Field) -> None:
    """A filter given empty (`?cost=`) is a value outside its schema, not "no filter": a
    filter left out filters nothing."""
    if value == "":
        raise forms.ValidationError("Give a value (or leave the filter out).", code="empty")


class GivenIntegerField(forms.IntegerField):
    """A whole-number filter that refuses an empty value."""

    def clean(self, value):
        refuse_empty(value, self)
        return super().clean(value)


class GivenModelChoiceField(django_filters.fields.ModelChoiceField):
    """An object id filter that refuses an empty value."""

    def clean(self, value):
        refuse_empty(value, self)
        return super().clean(value)


class GivenModelChoiceFilter(django_filters.ModelChoiceFilter):
    field_class = GivenModelChoiceField


class GivenChoiceField(forms.ChoiceField):
    """A filter's choice: left out it filters nothing, but given empty (`?kind=`) it is a
    value outside the enum like any other."""

    def _pairs(self) -> list[tuple[Any, Any]]:
        """The (value, label) pairs of the field's choices (its groups left whole)."""
        return [(v, label) for v, label in self.choices]  # type: ignore[union-attr,misc]

    def clean(self, value):
        if value == "":
            raise forms.ValidationError(
                "Give one of: %(choices)s (or leave the filter out).",
                params={"choices": ", ".join(str(v) for v, _ in self._pairs() if v)},
                code="invalid_choice",
            )
        return super().clean(value)

    def validate(self, value):
        if value and not self.valid_value(value):
            raise forms.ValidationError(
                "%(value)s is not one of: %(choices)s.",
                params={"value": value, "choices": ", ".join(str(v) for v, _ in self._pairs())},
                code="invalid_choice",
            )
        super().validate(value)


class GivenChoiceFilter(django_filters.ChoiceFilter):
    field_class = GivenChoiceField


@extend_schema_field(GameField)
class GameFilter(GivenChoiceFilter):
    """A game's slug; one no game has is a 400 naming the valid ones."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("choices", _pairs(game_slugs))
        super().__init__(*args, **kwargs)


@extend_schema_field(CardKindField)
class CardKindFilter(GivenChoiceFilter):
    """A card kind some game has; any other is a 400 naming the valid ones."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("choices", _pairs(card_kind_slugs))
        super().__init__(*args, **kwargs)


@extend_schema_field(FormatField)
class FormatFilter(GivenChoiceFilter):
    """A format some game has; any other is a 400 naming the valid ones."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("choices", _pairs(_format_slugs))
        super().__init__(*args, **kwargs)


def game_path_enum_hook(result, generator, request, public):
    """A path parameter naming a game (`/api/games/{slug}/`, `/api/play/{game}/…`) is the
    games' enum too: the server answers any other slug 404."""
    games = game_slugs()
    for path, methods in result.get("paths", {}).items():
        for operation in methods.values():
            if not isinstance(operation, dict):
                continue
            for param in operation.get("parameters", []):
                if param.get("in") != "path":
                    continue
                if param["name"] == "game" or (
                    param["name"] == "slug" and path.startswith("/api/games/")
                ):
                    param["schema"] = {"type": "string", "enum": games}
    return result


def game_format_hook(result, generator, request, public):
    """A body that names a game and a format takes only that game's formats: each such schema
    (a request body and each of its forms) says that it is not a game with a format of
    another game (`not` of, per game, that game with any other format). The server refuses
    such a body with a 400 naming the game's formats; said as a `not`, the rule leaves the
    body one model in a generated client, which reads `not` as nothing."""
    formats = {game.slug: sorted(game.formats) for game in registry.all()}
    schemas = result.get("components", {}).get("schemas", {})

    def enum_of(prop: dict[str, Any]) -> list[str]:
        """The values of a property's enum, itself or the component it refers to."""
        refs = [prop, *prop.get("allOf", [])]
        for ref in refs:
            if "enum" in ref:
                return list(ref["enum"])
            if "$ref" in ref:
                return list(schemas.get(ref["$ref"].rsplit("/", 1)[-1], {}).get("enum", []))
        return []

    for schema in schemas.values():
        props = schema.get("properties", {})
        game = props.get("game", {})
        if not enum_of(game) or not enum_of(props.get("format", {})):
            continue  # not a body that chooses both (what the server sends: its own values)
        mismatch = [
            {
                "required": ["game", "format"],
                "properties": {
                    "game": {"enum": [slug]},
                    "format": {"not": {"enum": formats[slug]}},
                },
            }
            for slug in enum_of(game)
            if slug in formats
        ]
        if not mismatch:
            continue
        if "not" in schema:  # not A and not B: not (A or B)
            mismatch.append(schema["not"])
        schema["not"] = {"anyOf": mismatch}
    return result


def open_operations_hook(result, generator, request, public):
    """An operation open to anonymous clients (its security alternatives include `{}`, no
    credentials) requires none: `security: []`, so a generated client without credentials
    is typed for it (openapi-python-client types any operation with a security requirement
    for its authenticated client alone). Credentials are still read when sent."""
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            if isinstance(operation, dict) and {} in operation.get("security", []):
                operation["security"] = []
                note = "Open to anonymous clients; credentials, when sent, are read."
                operation["description"] = (
                    f"{operation['description']}\n\n{note}"
                    if operation.get("description")
                    else note
                )
    return result


def drop_unused_components_hook(result, generator, request, public):
    """The last hook: a schema component nothing refers to any more (a body replaced by its
    forms, an error body replaced by the problem shape) is left out."""
    schemas = result.get("components", {}).get("schemas", {})
    seen: set[str] = set()
    todo = [result.get("paths", {})]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                name = ref.rsplit("/", 1)[1]
                if name not in seen:
                    seen.add(name)
                    todo.append(schemas.get(name, {}))
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    for name in [n for n in schemas if n not in seen]:
        del schemas[name]
    return result
