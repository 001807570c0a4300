"""A deck's exports: one operation per registered export format (GET
export/<format>/, of one media type each), and the older export/?format= kept for its clients."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from cardsite.hostile import whole_number
from cardsite.ratelimit import ScopedRateThrottle

from .. import exports
from ..models import DeckVersion
from .answers import BAD_REQUEST, DECK_ID

EXPORT_VERSION = OpenApiParameter("v", int, description="version number (default: the current)")


def export_operation(fmt: exports.ExportFormat):
    """The export of one format as its own operation of one media type: GET
    export/<kind>/ answers what `export/?format=<kind>` answers."""
    media = fmt.media_type
    body: Any = OpenApiTypes.BINARY if media == "application/pdf" else str
    if media == "application/json":
        body = OpenApiTypes.OBJECT

    def operation(self, request, pk=None):
        return self._export_as(request, fmt.slug)

    operation.__name__ = f"export_{fmt.slug}"
    operation.__doc__ = fmt.description or f"The deck exported as {fmt.label}."
    throttled: dict[str, Any] = (
        {"throttle_classes": [ScopedRateThrottle], "throttle_scope": "export"}
        if fmt.throttled
        else {}
    )
    routed = action(
        detail=True,
        methods=["get"],
        url_path=f"export/{fmt.slug}",
        renderer_classes=exports.api_renderers(fmt),
        **throttled,
    )(operation)
    responses: dict[Any, Any] = {(200, media): body}
    if fmt.throttled:
        responses[400] = BAD_REQUEST
    return extend_schema(
        parameters=[DECK_ID, EXPORT_VERSION, *fmt.parameters],
        responses=responses,
        summary=fmt.summary,
    )(routed)


class DeckExports(viewsets.GenericViewSet):
    """The export operations of the deck viewset (its get_object scopes the deck)."""

    # Kept for the clients written before each format had its own operation (export/<format>/,
    # of one media type each); not in the schema: one operation answering text, JSON and PDF
    # cannot be described to a generated client.
    @extend_schema(exclude=True)
    @action(
        detail=True,
        methods=["get"],
        renderer_classes=[
            JSONRenderer,
            exports.PlainTextRenderer,
            exports.MarkdownRenderer,
            exports.PDFRenderer,
        ],
        throttle_classes=[ScopedRateThrottle],
        throttle_scope="export",
    )
    def export(self, request, pk=None):
        kind = request.query_params.get("format")
        if kind is None:
            kind = "text" if request.accepted_renderer.format == "text" else "json"
        return self._export_as(request, kind)

    def _export_as(self, request, kind: str):
        deck = self.get_object()
        number = request.query_params.get("v")
        versions = DeckVersion.objects.filter(deck=deck)
        if number:
            # ASCII digits only: "²" is a digit to str.isdigit() but int() refuses it.
            version = get_object_or_404(versions, number=whole_number(number) or 0)
        else:
            version = get_object_or_404(versions, pk=deck.current_version_id)
        try:
            fmt = exports.get(kind)
            if fmt.inline:
                # The one type of the operation, whatever the Accept header or `?format=` asks.
                request.accepted_renderer = fmt.renderer()
                request.accepted_media_type = request.accepted_renderer.media_type
                return Response(
                    fmt.render(deck, version, request.query_params, request.build_absolute_uri)
                )
            body = fmt.render(deck, version, request.query_params, request.build_absolute_uri)
        except exports.ExportRefused as exc:
            raise serializers.ValidationError({exc.field: [exc.message]}) from exc
        return fmt.response(deck, version, body)
