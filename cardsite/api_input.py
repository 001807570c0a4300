"""Reading an API request's body through a serializer, the same way in every app."""

from __future__ import annotations

from typing import Any


def validated(serializer_class, request, **kwargs: Any) -> dict[str, Any]:
    """The request body as `serializer_class` cleans it (`kwargs` go to the serializer,
    `partial=True` among them); a bad body raises DRF's ValidationError (400, every field's
    errors)."""
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
