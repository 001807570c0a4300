"""Simulation API: start a run on a deck, read one's own runs, exact odds."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import generics, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.ratelimit import ScopedRateThrottle
from decks.models import DeckVersion

from . import kinds, services
from .models import SimulationRun
from .schema import SimulationKindField


class SimulationRunSerializer(serializers.ModelSerializer):
    kind = serializers.SlugField(source="simulation", read_only=True)
    progress = serializers.FloatField(read_only=True)
    deck = serializers.SerializerMethodField()
    version = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = SimulationRun
        fields = (
            "id",
            "url",
            "kind",
            "label",
            "deck",
            "version",
            "status",
            "progress",
            "chunks_done",
            "n_chunks",
            "params",
            "seed",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        )
        read_only_fields = fields

    def get_deck(self, run) -> int | None:
        return run.deck_version.deck_id if run.deck_version_id else None

    def get_version(self, run) -> int | None:
        return run.deck_version.number if run.deck_version_id else None

    def get_url(self, run) -> str:
        return run.get_absolute_url()


class SimulationRunDetailSerializer(SimulationRunSerializer):
    summary = serializers.SerializerMethodField()
    stats = serializers.SerializerMethodField()

    results = serializers.SerializerMethodField()

    class Meta(SimulationRunSerializer.Meta):
        fields = (  # type: ignore[assignment]  # the list's, and more
            *SimulationRunSerializer.Meta.fields,
            "timings",
            "summary",
            "stats",
            "results",
        )
        read_only_fields = fields  # type: ignore[assignment]

    def get_results(self, run) -> dict | None:
        """A comparison's results (its `differences`, verdict, rounds); None for a run."""
        results = run.results or {}
        if "differences" not in results and "suggestions" not in results:
            return None
        return {k: v for k, v in results.items() if k != "sums"}

    def get_summary(self, run) -> dict | None:
        return (run.results or {}).get("summary")

    def get_stats(self, run) -> dict | None:
        """The merged sufficient statistics (counts), from which the summary is derived."""
        return (run.results or {}).get("stats")


class StartSerializer(serializers.Serializer):
    kind = SimulationKindField(
        required=False, help_text="A simulation kind of the deck's game (default: its first)."
    )
    version = serializers.IntegerField(
        required=False, min_value=1, help_text="Version number (default: the current one)."
    )
    params = serializers.DictField(required=False, default=dict)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=services.MAX_SEED)
    token = serializers.CharField(required=False, help_text="Share token of an unlisted deck.")


class DecklessStartSerializer(serializers.Serializer):
    kind = SimulationKindField()
    params = serializers.DictField(required=False, default=dict)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=services.MAX_SEED)


def _flatten(detail) -> str:
    if isinstance(detail, dict):
        return "; ".join(f"{k}: {_flatten(v)}" for k, v in detail.items())
    if isinstance(detail, list | tuple):
        return " ".join(_flatten(v) for v in detail)
    return str(detail)


def _body(serializer_class, data) -> dict:
    """The validated request body, or SimulationError in the API's error shape."""
    body = serializer_class(data=data)
    if not body.is_valid():
        raise services.SimulationError({k: _flatten(v) for k, v in body.errors.items()})
    return body.validated_data


_JSON_TYPES = {"int": (int,), "bool": (bool,), "choice": (str,), "str": (str,)}
_JSON_NAMES = {"int": "a whole number", "bool": "true or false", "choice": "text", "str": "text"}


def _json_params(slug: str, params) -> None:
    """The API takes each parameter as the JSON type its schema states (a number as a number,
    yes or no as true or false; null for the default), where a form's text is read leniently:
    SimulationError naming every parameter of another type."""
    try:
        kind = kinds.get(slug)
    except kinds.UnknownKind:
        return  # refused, naming the kind, when the run is started
    errors = {}
    for spec in kind.params:
        value = (params or {}).get(spec.name)
        if value is None:
            continue
        wanted = _JSON_TYPES.get(spec.type, (str,))
        if not isinstance(value, wanted) or (spec.type == "int" and isinstance(value, bool)):
            errors[spec.name] = f"{spec.label} must be {_JSON_NAMES.get(spec.type, 'text')}"
    if errors:  # with every other problem of the parameters, all at once
        rest = {k: v for k, v in (params or {}).items() if k not in errors}
        try:
            services.params_validate(kind, rest)
        except services.SimulationError as exc:
            errors = {**exc.errors, **errors}
        raise services.SimulationError(errors)


def _error(exc: services.SimulationError) -> Response:
    body: dict[str, object] = {"detail": str(exc), "code": exc.code, "errors": exc.errors}
    if isinstance(exc, services.TooManyActiveRuns):
        # A cap on runs at once, not a rate: a 409 saying how many run, the most, and which
        # runs to watch (a place frees when one of them ends), with no Retry-After.
        body.update(active_runs=len(exc.active), max_active_runs=exc.limit, running=exc.active)
        return Response(body, status=status.HTTP_409_CONFLICT)
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


#: The answers of a POST that starts a run (a view may add its own).
STARTED = {202: SimulationRunSerializer, 400: None, 409: None, 429: None}


def started(run: SimulationRun) -> Response:
    """202 and the run just started."""
    return Response(SimulationRunSerializer(run).data, status=status.HTTP_202_ACCEPTED)


class StartRunView(APIView):
    """A view whose POST starts a run: signed in, throttled as `simulate`. The body is read
    through the view's `body` serializer and handed to its `start`; the answer is 202 and
    the run, or the API's error for a SimulationError (a 429 for too many active runs)."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"POST": "decks:write"}

    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "simulate"
    body: type[serializers.Serializer]

    def start(self, request, data: dict, **kwargs: Any) -> SimulationRun:
        raise NotImplementedError

    def post(self, request, **kwargs):
        try:
            run = self.start(request, _body(self.body, request.data), **kwargs)
        except services.SimulationError as exc:
            return _error(exc)
        return started(run)


@extend_schema_view(
    post=extend_schema(
        request=StartSerializer,
        responses={
            202: SimulationRunSerializer,
            400: None,
            403: None,
            404: None,
            409: None,
            429: None,
        },
        parameters=[OpenApiParameter("id", int, OpenApiParameter.PATH, description="deck id")],
        summary="Start a goldfish simulation of a deck",
    )
)
class DeckSimulationStartView(StartRunView):
    """Start a simulation of a deck the user may read as a player (staff included: the rule of
    services.deck_to_simulate, as on the start form); the user owns the run."""

    body = StartSerializer

    def start(self, request, data: dict, **kwargs: Any) -> SimulationRun:
        deck_pk = int(kwargs["id"])
        deck = services.deck_to_simulate(
            user=request.user, deck_pk=deck_pk, share_token=data.get("token")
        )
        versions = DeckVersion.objects.filter(deck=deck)
        version = (
            versions.filter(number=data["version"]).first()
            if "version" in data
            else versions.order_by("-number").first()
        )
        if version is None:
            raise Http404
        version.deck = deck
        slug = data.get("kind")
        if slug is None:
            game_kinds = kinds.for_game(deck.game.slug)
            if not game_kinds:
                raise services.SimulationError({"kind": "no simulation for this game"})
            slug = game_kinds[0].slug
        _json_params(slug, data.get("params"))
        return services.simulation_start(
            owner=request.user,
            kind=slug,
            params=data.get("params"),
            deck_version=version,
            seed=data.get("seed"),
        )


class SimulationListView(generics.ListAPIView):
    """The signed-in user's runs, newest first. POST starts a run of a kind that needs no
    deck (its inputs come from its parameters)."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "decks:read", "write": "decks:write"}

    permission_classes = [IsAuthenticated]
    serializer_class = SimulationRunSerializer
    throttle_scope = "simulate"

    def get_throttles(self):
        return [ScopedRateThrottle()] if self.request.method == "POST" else []

    def get_queryset(self):
        return (
            SimulationRun.objects.owned_by(self.request.user)
            .select_related("deck_version")
            .defer("results", "chunk_results", "inputs")
        )

    @extend_schema(
        request=DecklessStartSerializer,
        responses=STARTED,
        summary="Start a simulation that needs no deck",
    )
    def post(self, request):
        try:
            data = _body(DecklessStartSerializer, request.data)
        except services.SimulationError as exc:
            return _error(exc)
        try:
            kind = kinds.get(data["kind"])
        except kinds.UnknownKind:
            return _error(
                services.SimulationError({"kind": f"no simulation kind {data['kind']!r}"})
            )
        if kind.needs_deck or kind.goldfish.inputs_from_params is None:
            return _error(
                services.SimulationError(
                    {"kind": f"{kind.label} needs a deck: POST /api/decks/<id>/simulations/"}
                )
            )
        try:
            _json_params(kind.slug, data.get("params"))
            run = services.simulation_start(
                owner=request.user, kind=kind, params=data.get("params"), seed=data.get("seed")
            )
        except services.SimulationError as exc:
            return _error(exc)
        return started(run)


class SimulationDetailView(generics.RetrieveAPIView):
    """One run: status, progress and (when done) results. Owner or staff; 404 otherwise."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "decks:read"}

    permission_classes = [IsAuthenticated]
    serializer_class = SimulationRunDetailSerializer

    def get_queryset(self):
        return SimulationRun.objects.readable_by(self.request.user).select_related("deck_version")


class SimulationKindsView(APIView):
    """The simulation kinds and their parameters."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "read"}

    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            200: inline_serializer(
                "SimulationKind",
                {
                    "slug": serializers.CharField(),
                    "label": serializers.CharField(),
                    "game": serializers.CharField(),
                    "needs_deck": serializers.BooleanField(),
                    "default_params": serializers.DictField(),
                    "params": serializers.ListField(child=serializers.DictField()),
                    "metrics": serializers.ListField(
                        child=serializers.DictField(),
                        help_text="What the goldfish measures: key, label, unit, better "
                        "(higher or lower), proportion; the headline one first.",
                    ),
                    "pairs": serializers.BooleanField(
                        help_text="Whether two decks can be compared on paired games."
                    ),
                },
                many=True,
            )
        }
    )
    def get(self, request):
        return Response([k.as_dict(services.card_choices(k)) for k in kinds.all_kinds()])


OddsSerializer = inline_serializer(
    "Odds",
    {
        "deck_size": serializers.IntegerField(),
        "group": serializers.IntegerField(),
        "k": serializers.IntegerField(),
        "turns": serializers.IntegerField(),
        "opening": serializers.IntegerField(),
        "on_the_play": serializers.BooleanField(),
        "draws_per_turn": serializers.IntegerField(),
        "first_player_draws": serializers.BooleanField(),
        "opening_hand": inline_serializer(
            "OddsOpening",
            {"cards_seen": serializers.IntegerField(), "p": serializers.FloatField()},
        ),
        "by_turn": inline_serializer(
            "OddsTurn",
            {
                "turn": serializers.IntegerField(),
                "cards_seen": serializers.IntegerField(),
                "p": serializers.FloatField(),
            },
        ).__class__(many=True),
    },
)


def _int(lo: int, hi: int) -> dict:
    return {"type": "integer", "minimum": lo, "maximum": hi}


def _odds_parameter(spec) -> OpenApiParameter:
    """One of the odds' parameters (services.ODDS_PARAMS) as the schema states it: a whole
    number within its bounds, or a flag, 1 or 0."""
    bounds = _int(0, 1) if spec.type == "bool" else _int(spec.min, spec.max)
    return OpenApiParameter(spec.name, bounds, required=spec.default is None, description=spec.help)


class OddsView(APIView):
    """Exact P(at least k of a group of cards in hand) by turn (hypergeometric)."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "read"}

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[_odds_parameter(spec) for spec in services.ODDS_PARAMS],
        responses={200: OddsSerializer, 400: None},
    )
    def get(self, request):
        q = request.query_params
        try:  # read as the schema states the parameters (the odds page reads leniently)
            result = services.odds_from_query(q, strict=True)
        except services.OddsInvalid as exc:
            return _error(exc)
        return Response(result)
