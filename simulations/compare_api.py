"""Goldfish experiments in the API: `POST /api/simulations/compare/` (a paired comparison
of two decks of one game), `POST /api/decks/<id>/tune/` (race single swaps) and
`POST /api/simulations/<id>/stop/`."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from decks.models import Deck

from . import compare, services, tuner
from .api import STARTED, SimulationRunSerializer, StartRunView, _error
from .models import SimulationRun


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


@extend_schema_view(
    post=extend_schema(
        request=CompareSerializer,
        responses=STARTED,
        summary="Compare two decks on paired goldfish games",
    )
)
class CompareStartView(StartRunView):
    """Start a paired comparison (A/B) of two decks or two versions of one game: 202 and the
    run; its `results.differences` (GET /api/simulations/<id>/) once done."""

    body = CompareSerializer

    def start(self, request, data: dict, **kwargs: Any) -> SimulationRun:
        a = compare.version_of(user=request.user, side="a", ref=data["a"])
        b = compare.version_of(user=request.user, side="b", ref=data["b"])
        return compare.compare_start(
            owner=request.user,
            a=a,
            b=b,
            kind_slug=data.get("kind"),
            params=data.get("params"),
            metric=data.get("metric"),
            seed=data.get("seed"),
        )


class CandidatesSerializer(serializers.Serializer):
    query = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=500,
        help_text="A catalogue search query of the deck's game; every term must be read (one "
        "that cannot is a 400 on candidates naming it and the character it starts at). "
        "Empty, and no collection: the cards that fit the deck's sections are proposed.",
    )
    collection = serializers.BooleanField(
        required=False, default=False, help_text="Cards of your collection (with a query: both)."
    )


class TuneSerializer(serializers.Serializer):
    metric = serializers.CharField(required=False, max_length=60)
    candidates = CandidatesSerializer()
    keep = serializers.ListField(
        child=serializers.CharField(max_length=200), required=False, default=list, max_length=100
    )
    max_games = serializers.IntegerField(
        required=False,
        min_value=tuner.MIN_GAMES,
        max_value=tuner.MAX_GAMES,
        help_text=f"games per swap (default {tuner.DEFAULT_MAX_GAMES:,})",
    )
    version = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1)
    token = serializers.CharField(required=False, max_length=200)
    params = serializers.DictField(required=False, default=dict)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=services.MAX_SEED)


@extend_schema_view(
    post=extend_schema(
        request=TuneSerializer,
        responses={**STARTED, 403: None, 404: None},
        parameters=[OpenApiParameter("id", int, OpenApiParameter.PATH, description="deck id")],
        summary="Race single swaps of a deck on paired goldfish games",
    )
)
class DeckTuneView(StartRunView):
    """Find the single swaps that help the deck most at a metric: 202 and a run whose
    `results.suggestions` (best first) come when it is done."""

    body = TuneSerializer

    def post(self, request, **kwargs):
        # A deck that does not exist is a 404 whatever the body, as a simulation's start.
        if not Deck.objects.filter(pk=kwargs["id"]).exists():
            raise NotFound("no such deck")
        return super().post(request, **kwargs)

    def start(self, request, data: dict, **kwargs: Any) -> SimulationRun:
        # A deck the user may not read is a 404 (staff: a 403), as a simulation's start.
        services.deck_to_simulate(
            user=request.user, deck_pk=int(kwargs["id"]), share_token=data.get("token")
        )
        ref = {
            "deck": int(kwargs["id"]),
            "version": data.get("version"),
            "token": data.get("token"),
        }
        version = compare.version_of(user=request.user, side="deck", ref=ref)
        return tuner.tune_start(
            owner=request.user,
            version=version,
            metric=data.get("metric"),
            query=data["candidates"].get("query", ""),
            collection=data["candidates"].get("collection", False),
            keep=data.get("keep", []),
            max_games=data.get("max_games"),
            params=data.get("params"),
            seed=data.get("seed"),
        )


class ExperimentStopView(APIView):
    """Stop a comparison or tuning run of yours: it finishes with the rounds complete."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"write": "decks:write"}

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: SimulationRunSerializer, 400: None})
    def post(self, request, pk: int):
        try:
            compare.experiment_stop(run_id=pk, user=request.user)
        except services.SimulationError as exc:
            return _error(exc)
        run = SimulationRun.objects.get(pk=pk)
        return Response(SimulationRunSerializer(run).data)
