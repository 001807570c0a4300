"""Play tools API (documented in docs/api.md, "Play tools").

The calculators are open to everyone (read-only; the close combat POST is throttled like
other simulations). Campaigns are in `campaign_api`.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from validation.games.tactical_assault import combat_odds as co

from . import services
from .services import PlayInputError, SimulationsUnavailable


def _bad(exc: PlayInputError) -> Response:
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
