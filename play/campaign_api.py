"""Campaigns API (documented in docs/api.md, "Campaigns").

A campaign names its game; the game's `CampaignRules` say what results earn and what points
buy. Campaigns need a signed-in user and are scoped to their owner in the query: someone
else's campaign is a 404 whatever its id.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api_input import validated
from decks.models import Deck

from . import campaign_services as services
from .campaign_services import CampaignRefused
from .models import Campaign, CampaignPlayer, GameResult, SpendKind


def _refused(exc: CampaignRefused) -> Response:
    body = {"detail": "; ".join(exc.reasons), "reasons": exc.reasons}
    if exc.field:
        body["field"] = exc.field
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def _not_found_in_campaign(field: str, player_id: int) -> Response:
    return Response(
        {"detail": f"player {player_id} is not in this campaign", "field": field},
        status=status.HTTP_400_BAD_REQUEST,
    )


class PlayerSerializer(serializers.ModelSerializer):
    deck_name = serializers.CharField(source="deck.name", read_only=True)

    class Meta:
        model = CampaignPlayer
        fields = ["id", "name", "deck", "deck_name", "campaign_points", "awards"]


class CampaignSerializer(serializers.ModelSerializer):
    game = serializers.CharField(source="game.slug", read_only=True)

    class Meta:
        model = Campaign
        fields = ["id", "game", "name", "points_total", "notes", "created_at", "updated_at"]
        read_only_fields = ["id", "game", "created_at", "updated_at"]


class CampaignGameField(serializers.CharField):
    """The slug of a game with campaign rules (the server's check is the service's, with its
    message naming them)."""


class CampaignGameFieldExtension(OpenApiSerializerFieldExtension):
    """A string here; play.schema.campaign_game_hook makes it the enum of the games with
    campaigns (a component of its own, not one more set of values named `game`)."""

    target_class = "play.campaign_api.CampaignGameField"

    def map_serializer_field(self, auto_schema, direction):
        return {
            "type": "string",
            "description": "a game with campaign rules; may be left out when only one game "
            "has them",
        }


class CampaignCreateRequest(serializers.Serializer):
    game = CampaignGameField(
        max_length=50,
        required=False,
        help_text="slug of a game with campaign rules; may be left out when only one game has them",
    )
    name = serializers.CharField(max_length=200)
    points_total = serializers.IntegerField(
        min_value=1,
        max_value=2_000_000_000,
        required=False,
        help_text="the points every player's list totals (default: the game's)",
    )
    notes = serializers.CharField(max_length=5000, required=False, allow_blank=True)


def _standings_payload(campaign) -> list[dict]:
    return [
        {k: v for k, v in row.items() if k != "player"}
        for row in services.campaign_standings(campaign=campaign)
    ]


def _results_payload(results) -> list[dict]:
    return [
        {"player": r.player_id, "name": r.player.name, "result": r.result, "points": r.points}
        for r in results
    ]


def _campaign_payload(campaign) -> dict:
    games = campaign.games.prefetch_related("results__player")
    return {
        **CampaignSerializer(campaign).data,
        "rules": campaign.rules.as_dict(),
        "players": PlayerSerializer(campaign.players.select_related("deck"), many=True).data,
        "games": [
            {
                "id": g.pk,
                "number": g.number,
                "date": g.date.isoformat(),
                "notes": g.notes,
                "results": _results_payload(g.results.all()),
            }
            for g in games
        ],
        "standings": _standings_payload(campaign),
    }


class OwnedCampaignMixin:
    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "decks:read", "write": "decks:write"}

    permission_classes: Sequence[Any] = [IsAuthenticated]

    def campaign(self, request, pk: int) -> Campaign:
        return get_object_or_404(
            Campaign.objects.owned_by(request.user).select_related("game"), pk=pk
        )


class CampaignListView(OwnedCampaignMixin, APIView):
    @extend_schema(
        operation_id="play_campaigns_list",
        responses={
            200: inline_serializer("CampaignList", {"results": CampaignSerializer(many=True)})
        },
    )
    def get(self, request):
        qs = Campaign.objects.owned_by(request.user).select_related("game")
        return Response({"results": CampaignSerializer(qs, many=True).data})

    @extend_schema(
        operation_id="play_campaigns_create",
        request=CampaignCreateRequest,
        responses={201: OpenApiTypes.OBJECT},
    )
    def post(self, request):
        data = validated(CampaignCreateRequest, request)
        try:
            campaign = services.campaign_create(
                owner=request.user,
                game=data.get("game"),
                name=data["name"],
                points_total=data.get("points_total"),
                notes=data.get("notes", ""),
            )
        except CampaignRefused as exc:
            return _refused(exc)
        return Response(_campaign_payload(campaign), status=status.HTTP_201_CREATED)


class CampaignDetailView(OwnedCampaignMixin, APIView):
    @extend_schema(operation_id="play_campaign_retrieve", responses={200: OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        return Response(_campaign_payload(self.campaign(request, pk)))


class PlayerCreateRequest(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    deck = serializers.IntegerField(
        help_text="id of one of your decks of the campaign's game: the list the player keeps"
    )


class CampaignPlayersView(OwnedCampaignMixin, APIView):
    @extend_schema(request=PlayerCreateRequest, responses={201: PlayerSerializer})
    def post(self, request, pk: int):
        campaign = self.campaign(request, pk)
        data = validated(PlayerCreateRequest, request)
        deck = (
            Deck.objects.owned_by(request.user)
            .select_related("game", "current_version")
            .filter(pk=data["deck"])
            .first()
        )
        if deck is None:
            return Response(
                {"detail": "deck: no deck of yours has this id", "field": "deck"},
                status=status.HTTP_400_BAD_REQUEST,
            )
        try:
            player = services.campaign_player_add(campaign=campaign, name=data["name"], deck=deck)
        except CampaignRefused as exc:
            return _refused(exc)
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
        data = validated(GameRecordRequest, request)
        players = {p.pk: p for p in campaign.players.all()}
        pairs = []
        for item in data["results"]:
            player = players.get(item["player"])
            if player is None:
                return _not_found_in_campaign("results", item["player"])
            pairs.append((player, item["result"]))
        try:
            game = services.campaign_game_record(
                campaign=campaign,
                results=pairs,
                date=data.get("date") or dt.date.today(),
                notes=data.get("notes", ""),
            )
        except CampaignRefused as exc:
            return _refused(exc)
        return Response(
            {
                "id": game.pk,
                "number": game.number,
                "date": game.date.isoformat(),
                "results": _results_payload(game.results.select_related("player")),
                "standings": _standings_payload(campaign),
            },
            status=status.HTTP_201_CREATED,
        )


class SpendRequest(serializers.Serializer):
    player = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=SpendKind.values)
    count = serializers.IntegerField(min_value=1, max_value=50, default=1)
    remove = serializers.DictField(child=serializers.IntegerField(min_value=1), required=False)
    add = serializers.DictField(child=serializers.IntegerField(min_value=1), required=False)


class CampaignSpendView(OwnedCampaignMixin, APIView):
    @extend_schema(request=SpendRequest, responses={200: OpenApiTypes.OBJECT})
    def post(self, request, pk: int):
        campaign = self.campaign(request, pk)
        data = validated(SpendRequest, request)
        player = campaign.players.select_related("deck").filter(pk=data["player"]).first()
        if player is None:
            return _not_found_in_campaign("player", data["player"])
        try:
            if data["kind"] == SpendKind.AWARD:
                spend = services.campaign_spend_award(player=player, count=data["count"])
            else:
                spend = services.campaign_spend_swap(
                    player=player,
                    remove=data.get("remove") or {},
                    add=data.get("add") or {},
                    author=request.user,
                )
        except CampaignRefused as exc:
            return _refused(exc)
        player.refresh_from_db()
        return Response(
            {
                "spend": {
                    "kind": spend.kind,
                    "points": spend.points,
                    "awards": spend.awards,
                    "removed": spend.removed,
                    "added": spend.added,
                    "deck_version": spend.deck_version,
                },
                "player": PlayerSerializer(player).data,
                "cards": dict(
                    sorted(services.section_counts(player.deck, campaign.rules.section).items())
                ),
            }
        )


class CampaignStandingsView(OwnedCampaignMixin, APIView):
    @extend_schema(operation_id="play_campaign_standings", responses={200: OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        campaign = self.campaign(request, pk)
        return Response({"campaign": campaign.pk, "standings": _standings_payload(campaign)})
