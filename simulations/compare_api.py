"""`POST /api/simulations/compare/`: start a paired comparison of two decks of one game."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.ratelimit import ScopedRateThrottle

from . import compare, services
from .api import ErrorsSerializer, SimulationRunSerializer, _body, _error


class DeckRefSerializer(serializers.Serializer):
    deck = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    version = serializers.IntegerField(
        required=False, min_value=1, max_value=2**31 - 1, help_text="Default: the current one."
    )
    token = serializers.CharField(
        required=False, max_length=200, help_text="Share token of an unlisted deck."
    )


class CompareSerializer(serializers.Serializer):
    kind = serializers.CharField(
        required=False, max_length=60, help_text="Default: the game's goldfish that pairs games."
    )
    a = DeckRefSerializer()
    b = DeckRefSerializer()
    params = serializers.DictField(
        required=False, default=dict, help_text="The goldfish's parameters; games is the limit."
    )
    metric = serializers.CharField(
        required=False, max_length=60, help_text="The deciding metric (default: the headline)."
    )
    seed = serializers.IntegerField(required=False, min_value=0, max_value=services.MAX_SEED)


class CompareStartView(APIView):
    """Start a paired comparison (A/B) of two decks or two versions of one game: 202 and the
    run; its `results.differences` (GET /api/simulations/<id>/) once done."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "simulate"

    @extend_schema(
        request=CompareSerializer,
        responses={202: SimulationRunSerializer, 400: ErrorsSerializer, 429: ErrorsSerializer},
        summary="Compare two decks on paired goldfish games",
    )
    def post(self, request):
        try:
            data = _body(CompareSerializer, request.data)
            a = compare.version_of(user=request.user, side="a", ref=data["a"])
            b = compare.version_of(user=request.user, side="b", ref=data["b"])
            run = compare.compare_start(
                owner=request.user,
                a=a,
                b=b,
                kind_slug=data.get("kind"),
                params=data.get("params"),
                metric=data.get("metric"),
                seed=data.get("seed"),
            )
        except services.SimulationError as exc:
            return _error(exc)
        return Response(SimulationRunSerializer(run).data, status=status.HTTP_202_ACCEPTED)
