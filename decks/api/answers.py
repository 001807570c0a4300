"""What the deck API's operations share: the documented 400, the write throttle, the
answers to a refused list, the deck id of the paths."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import status
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response

from cardsite.ratelimit import ScopedRateThrottle

from .. import services
from ..lists import ListInvalid

# A 400 is either a list that could not be read ({"errors": [line errors]}) or fields that
# did not validate ({field: [messages]}): documented as an object with both shapes described.
BAD_REQUEST = OpenApiResponse(
    response=OpenApiTypes.OBJECT,
    description='Either {"errors": [{"line", "message", "suggestions"}]} for a list that could '
    "not be read, or {field: [messages]} for fields that did not validate. A list refused "
    "only for unknown card names also lists, after those lines, every rule problem of the "
    'lines that were read: {"line" (0: none), "message", "suggestions": [], "code", '
    '"severity"}.',
)


class WriteThrottle(ScopedRateThrottle):
    """The view's throttle scope, applied to writes only (reads are not throttled here)."""

    def allow_request(self, request, view):
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)


def line_errors_response(exc: ListInvalid) -> Response:
    return Response({"errors": exc.errors}, status=status.HTTP_400_BAD_REQUEST)


def deck_invalid_response(exc: services.DeckInvalid) -> Response:
    return Response(exc.errors, status=status.HTTP_400_BAD_REQUEST)


DECK_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="deck id")
