"""Reading an API request's body through a serializer, the same way in every app."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers


def validated(serializer_class, request, **kwargs: Any) -> dict[str, Any]:
    """The request body as `serializer_class` cleans it (`kwargs` go to the serializer,
    `partial=True` among them); a bad body raises DRF's ValidationError (400, every field's
    errors). A text longer than its field's max_length as sent is refused even when the
    spaces around it would be trimmed to fit: the schema's maxLength counts what is sent; a
    number where a text is declared is refused too (DRF would read its digits), and anything
    but true or false where a boolean is (DRF would read 0, 1, "yes")."""
    serializer = serializer_class(data=request.data, **kwargs)
    valid = serializer.is_valid()
    too_long = _refused_as_sent(serializer, request.data)
    if too_long:
        raise serializers.ValidationError({**(serializer.errors if not valid else {}), **too_long})
    if not valid:
        raise serializers.ValidationError(serializer.errors)
    return serializer.validated_data


def _refused_as_sent(serializer, data: Any) -> dict[str, list[serializers.ErrorDetail]]:
    if not isinstance(data, Mapping):
        return {}
    out: dict[str, list[serializers.ErrorDetail]] = {}
    for name, field in serializer.fields.items():
        limit = getattr(field, "max_length", None)
        raw = data.get(name)
        if (
            isinstance(field, serializers.CharField)
            and not field.read_only
            and raw is not None
            and not isinstance(raw, str)
        ):
            # DRF reads a number as its digits; the schema says a string.
            out[name] = [serializers.ErrorDetail("Not a valid string.", code="invalid")]
            continue
        if (
            isinstance(field, serializers.BooleanField)
            and not field.read_only
            and name in data
            and not isinstance(raw, bool)
            and not (raw is None and field.allow_null)
        ):
            # DRF reads 0, 1, "yes" and "false" as booleans; the schema says true or false.
            out[name] = [serializers.ErrorDetail("Must be true or false.", code="invalid")]
            continue
        if (
            isinstance(field, serializers.CharField)
            and not field.read_only
            and limit is not None
            and isinstance(raw, str)
            and len(raw) > limit
        ):
            message = f"Ensure this field has no more than {limit} characters."
            out[name] = [serializers.ErrorDetail(message, code="max_length")]
    return out
