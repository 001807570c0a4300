"""Play tools API (documented in docs/api.md, "Play tools").

The calculators are open to everyone (read-only; the close combat POST is throttled like
other simulations). Campaigns need a signed-in user and are scoped to their owner in the
query: someone else's campaign is a 404 whatever its id.
"""

from __future__ import annotations

import datetime as dt

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from validation.games.tactical_assault import combat_odds as co

from . import services
from .models import Campaign, CampaignPlayer, GameResult
from .services import CampaignRefused, PlayInputError, SimulationsUnavailable


def _bad(exc: PlayInputError | CampaignRefused) -> Response:
    if isinstance(exc, CampaignRefused):
        body = {"detail": "; ".join(exc.reasons), "reasons": exc.reasons}
        if exc.field:
            body["field"] = exc.field
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    body = {"detail": exc.message}
    if exc.field:
        body["field"] = exc.field
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def run_payload(run, request) -> dict:
    url = services.run_url(run)
    return {
        "id": run.pk,
        "kind": getattr(run, "kind", ""),
        "status": str(getattr(run, "status", "")),
        "url": request.build_absolute_uri(url),
    }


# --- Tactical Assault --------------------------------------------------------------------------


class CombatOddsView(APIView):
    """Exact probability of each combat result of one attack (Tables 4 to 6)."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("attacker", str, required=True, description="unit type name"),
            OpenApiParameter("target", str, required=True, description="unit type name"),
            *[
                OpenApiParameter(
                    m["name"],
                    OpenApiTypes.STR if m["type"] == "choice" else OpenApiTypes.BOOL,
                    required=False,
                    description=m["label"],
                    enum=[c["value"] for c in m["choices"]] if m["type"] == "choice" else None,
                )
                for m in co.MODIFIERS
            ],
        ],
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
    )
    def get(self, request):
        params = request.query_params
        for name in ("attacker", "target"):
            if not params.get(name):
                return Response({"detail": f"{name} is required", "field": name}, status=400)
        known = {m["name"] for m in co.MODIFIERS} | {"attacker", "target", "format"}
        unknown = sorted(set(params) - known)
        if unknown:
            return Response(
                {
                    "detail": f"unknown parameter(s) {', '.join(unknown)}; modifiers are "
                    f"{', '.join(m['name'] for m in co.MODIFIERS)}"
                },
                status=400,
            )
        try:
            mods, _ = services.parse_modifiers(params, strict=True)
            odds = services.combat_odds_for(
                attacker=params["attacker"], target=params["target"], modifiers=mods
            )
        except PlayInputError as exc:
            return _bad(exc)
        return Response(odds)


class CloseCombatRequest(serializers.Serializer):
    unit_a = serializers.CharField(max_length=200)
    unit_b = serializers.CharField(max_length=200)
    games = serializers.IntegerField(min_value=1, max_value=services.WORKER_GAMES_MAX)
    seed = serializers.IntegerField(
        min_value=0, max_value=services.SEED_MAX, required=False, allow_null=True
    )
    max_rounds = serializers.IntegerField(
        min_value=1, max_value=services.MAX_ROUNDS_MAX, default=20
    )
    a_modifiers = serializers.DictField(child=serializers.BooleanField(), required=False)
    b_modifiers = serializers.DictField(child=serializers.BooleanField(), required=False)


class CloseCombatView(APIView):
    """Repeated close combat: up to 20,000 games answered at once (200), more started on a
    worker as a SimulationRun (202, signed-in users)."""

    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "simulate"

    @extend_schema(
        request=CloseCombatRequest,
        responses={200: OpenApiTypes.OBJECT, 202: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
    )
    def post(self, request):
        ser = CloseCombatRequest(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        try:
            how, value = services.close_combat_start(
                unit_a=data["unit_a"],
                unit_b=data["unit_b"],
                games=data["games"],
                seed=data.get("seed"),
                max_rounds=data["max_rounds"],
                a_modifiers=data.get("a_modifiers"),
                b_modifiers=data.get("b_modifiers"),
                owner=request.user,
            )
        except PlayInputError as exc:
            if exc.field == "games" and not request.user.is_authenticated:
                return Response({"detail": exc.message}, status=status.HTTP_403_FORBIDDEN)
            return _bad(exc)
        except SimulationsUnavailable as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
        if how == "run":
            return Response({"run": run_payload(value, request)}, status=status.HTTP_202_ACCEPTED)
        return Response(value.data)


# --- Red Code --------------------------------------------------------------------------------


class CrewView(APIView):
    """Crew economy of a ship at a distance against each enemy ship, and one matchup."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("ship", str, required=True),
            OpenApiParameter("distance", int, required=True),
            OpenApiParameter(
                "target",
                str,
                required=False,
                description="enemy ship of the matchup (default: the first)",
            ),
        ],
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
    )
    def get(self, request):
        params = request.query_params
        if not params.get("ship"):
            return Response({"detail": "ship is required", "field": "ship"}, status=400)
        try:
            data = services.crew_economy(
                ship=params["ship"],
                distance=params.get("distance", ""),
                target=params.get("target") or None,
            )
        except PlayInputError as exc:
            return _bad(exc)
        return Response(data)


class VisualFieldView(APIView):
    """The map dealt from a seed and what a ship at (x, y) can target, by distance."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("seed", int, required=True),
            OpenApiParameter("x", int, required=False),
            OpenApiParameter("y", int, required=False),
            OpenApiParameter(
                "ships", str, required=False, description='other ships\' boxes, "x,y;x,y"'
            ),
        ],
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
    )
    def get(self, request):
        params = request.query_params
        if params.get("seed") in (None, ""):
            return Response({"detail": "seed is required", "field": "seed"}, status=400)
        try:
            data = services.visual_field_for(
                seed=params["seed"],
                x=params.get("x"),
                y=params.get("y"),
                ships=params.get("ships", ""),
            )
        except PlayInputError as exc:
            return _bad(exc)
        return Response(data)


# --- Campaigns -------------------------------------------------------------------------------


class PlayerSerializer(serializers.ModelSerializer):
    force_name = serializers.CharField(source="force.name", read_only=True)

    class Meta:
        model = CampaignPlayer
        fields = ["id", "name", "force", "force_name", "campaign_points", "promotions"]


class CampaignSerializer(serializers.ModelSerializer):
    class Meta:
        model = Campaign
        fields = ["id", "name", "points_total", "notes", "created_at", "updated_at"]
        read_only_fields = ["id", "created_at", "updated_at"]


def _standings_payload(campaign) -> list[dict]:
    return [
        {k: v for k, v in row.items() if k != "player"}
        for row in services.campaign_standings(campaign=campaign)
    ]


def _campaign_payload(campaign) -> dict:
    games = campaign.games.prefetch_related("results__player")
    return {
        **CampaignSerializer(campaign).data,
        "players": PlayerSerializer(campaign.players.select_related("force"), many=True).data,
        "games": [
            {
                "id": g.pk,
                "number": g.number,
                "date": g.date.isoformat(),
                "notes": g.notes,
                "results": [
                    {
                        "player": r.player_id,
                        "name": r.player.name,
                        "result": r.result,
                        "points": r.points,
                    }
                    for r in g.results.all()
                ],
            }
            for g in games
        ],
        "standings": _standings_payload(campaign),
    }


class OwnedCampaignMixin:
    permission_classes = [IsAuthenticated]

    def campaign(self, request, pk: int) -> Campaign:
        return get_object_or_404(Campaign.objects.owned_by(request.user), pk=pk)


class CampaignListView(OwnedCampaignMixin, APIView):
    @extend_schema(
        operation_id="play_campaigns_list",
        responses={
            200: inline_serializer("CampaignList", {"results": CampaignSerializer(many=True)})
        },
    )
    def get(self, request):
        qs = Campaign.objects.owned_by(request.user)
        return Response({"results": CampaignSerializer(qs, many=True).data})

    @extend_schema(
        operation_id="play_campaigns_create",
        request=CampaignSerializer,
        responses={201: OpenApiTypes.OBJECT},
    )
    def post(self, request):
        ser = CampaignSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        try:
            campaign = services.campaign_create(owner=request.user, **ser.validated_data)
        except CampaignRefused as exc:
            return _bad(exc)
        return Response(_campaign_payload(campaign), status=status.HTTP_201_CREATED)


class CampaignDetailView(OwnedCampaignMixin, APIView):
    @extend_schema(operation_id="play_campaign_retrieve", responses={200: OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        return Response(_campaign_payload(self.campaign(request, pk)))


class PlayerCreateRequest(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    force = serializers.IntegerField(help_text="id of one of your Tactical Assault decks")


class CampaignPlayersView(OwnedCampaignMixin, APIView):
    @extend_schema(request=PlayerCreateRequest, responses={201: PlayerSerializer})
    def post(self, request, pk: int):
        from decks.models import Deck

        campaign = self.campaign(request, pk)
        ser = PlayerCreateRequest(data=request.data)
        ser.is_valid(raise_exception=True)
        deck = (
            Deck.objects.owned_by(request.user)
            .select_related("game", "current_version")
            .filter(pk=ser.validated_data["force"])
            .first()
        )
        if deck is None:
            return Response(
                {"detail": "force: no deck of yours has this id", "field": "force"}, status=400
            )
        try:
            player = services.campaign_player_add(
                campaign=campaign, name=ser.validated_data["name"], force=deck
            )
        except CampaignRefused as exc:
            return _bad(exc)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class ResultItem(serializers.Serializer):
    player = serializers.IntegerField()
    result = serializers.ChoiceField(choices=GameResult.values)


class GameRecordRequest(serializers.Serializer):
    date = serializers.DateField(required=False)
    notes = serializers.CharField(max_length=500, required=False, allow_blank=True)
    results = ResultItem(many=True)


class CampaignGamesView(OwnedCampaignMixin, APIView):
    @extend_schema(request=GameRecordRequest, responses={201: OpenApiTypes.OBJECT})
    def post(self, request, pk: int):
        campaign = self.campaign(request, pk)
        ser = GameRecordRequest(data=request.data)
        ser.is_valid(raise_exception=True)
        players = {p.pk: p for p in campaign.players.all()}
        pairs = []
        for item in ser.validated_data["results"]:
            player = players.get(item["player"])
            if player is None:
                return Response(
                    {
                        "detail": f"player {item['player']} is not in this campaign",
                        "field": "results",
                    },
                    status=400,
                )
            pairs.append((player, item["result"]))
        try:
            game = services.campaign_game_record(
                campaign=campaign,
                results=pairs,
                date=ser.validated_data.get("date") or dt.date.today(),
                notes=ser.validated_data.get("notes", ""),
            )
        except CampaignRefused as exc:
            return _bad(exc)
        return Response(
            {
                "id": game.pk,
                "number": game.number,
                "date": game.date.isoformat(),
                "results": [
                    {
                        "player": r.player_id,
                        "name": r.player.name,
                        "result": r.result,
                        "points": r.points,
                    }
                    for r in game.results.select_related("player")
                ],
                "standings": _standings_payload(campaign),
            },
            status=status.HTTP_201_CREATED,
        )


class SpendRequest(serializers.Serializer):
    player = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["promotion", "swap"])
    count = serializers.IntegerField(min_value=1, max_value=50, default=1)
    remove = serializers.DictField(child=serializers.IntegerField(min_value=1), required=False)
    add = serializers.DictField(child=serializers.IntegerField(min_value=1), required=False)


class CampaignSpendView(OwnedCampaignMixin, APIView):
    @extend_schema(request=SpendRequest, responses={200: OpenApiTypes.OBJECT})
    def post(self, request, pk: int):
        campaign = self.campaign(request, pk)
        ser = SpendRequest(data=request.data)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        player = campaign.players.filter(pk=data["player"]).first()
        if player is None:
            return Response(
                {"detail": f"player {data['player']} is not in this campaign", "field": "player"},
                status=400,
            )
        try:
            if data["kind"] == "promotion":
                spend = services.campaign_spend_promotion(player=player, count=data["count"])
            else:
                spend = services.campaign_spend_swap(
                    player=player,
                    remove=data.get("remove") or {},
                    add=data.get("add") or {},
                    author=request.user,
                )
        except CampaignRefused as exc:
            return _bad(exc)
        player.refresh_from_db()
        return Response(
            {
                "spend": {
                    "kind": spend.kind,
                    "points": spend.points,
                    "promotions": spend.promotions,
                    "removed": spend.removed,
                    "added": spend.added,
                    "force_version": spend.force_version,
                },
                "player": PlayerSerializer(player).data,
                "force": dict(sorted(services.force_counts(player.force).items())),
            }
        )


class CampaignStandingsView(OwnedCampaignMixin, APIView):
    @extend_schema(operation_id="play_campaign_standings", responses={200: OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        campaign = self.campaign(request, pk)
        return Response({"campaign": campaign.pk, "standings": _standings_payload(campaign)})
