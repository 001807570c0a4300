"""The collection's API: the whole collection (GET, PUT), one loose card, importing a list or a
CSV file, the export and the wants as files (/api/collection/…), and a card's decks
(/api/cards/<id>/decks/). The routes, their names and operations are the ones the decks app
had (collection/api_urls.py, included by cardsite/api_urls.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, status, viewsets
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api_input import validated
from cardsite.hostile import whole_number
from catalogue import hooks as catalogue_hooks
from catalogue.models import Card, Expansion, Game
from decks.api import BAD_REQUEST, WriteThrottle
from decks.lists import ListInvalid
from decks.models import Deck
from validation.registry import registry

from . import selectors, services
from .models import CollectionEntry, OwnedProduct
from .serializers import (
    CardDecksSerializer,
    CollectionEntrySerializer,
    CollectionImportedSerializer,
    CollectionImportSerializer,
    CollectionSerializer,
    WantSerializer,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _collection_body(owner) -> dict:
    """The whole collection: products and loose cards (two queries)."""
    products = [
        {"expansion": pk, "code": code, "game": game, "count": n}
        for pk, code, game, n in OwnedProduct.objects.filter(owner=owner)
        .order_by("expansion__game__position", "expansion__code")
        .values_list("expansion_id", "expansion__code", "expansion__game__slug", "count")
    ]
    cards = [
        {"id": pk, "card": card, "card_name": name, "game": game, "count": n}
        for pk, card, name, game, n in CollectionEntry.objects.filter(owner=owner)
        .order_by("card__game__position", "card__name", "id")
        .values_list("pk", "card_id", "card__name", "card__game__slug", "count")
    ]
    return {"products": products, "cards": cards}


def _line_errors_response(exc: ListInvalid) -> Response:
    return Response({"errors": exc.errors}, status=status.HTTP_400_BAD_REQUEST)


def _unknown_ids(items: list, field: str, key: str, known: set[int]) -> list[str]:
    """`field[i]: no <key> <id>` for each item naming an id not in `known`."""
    return [
        f"{field}[{i}]: no {key} {item[key]}"
        for i, item in enumerate(items)
        if item[key] not in known
    ]


WANTS_PARAMETERS = [
    OpenApiParameter("deck", int, description="one deck of yours (default: all)"),
    OpenApiParameter("game", str, description="all your decks of one game"),
]


@extend_schema_view(
    retrieve=extend_schema(summary="One card you own loose"),
    create=extend_schema(summary="Own `count` loose copies of a card (sets the count if present)"),
    update=extend_schema(summary="Change how many loose copies you own"),
    partial_update=extend_schema(summary="Change how many loose copies you own"),
    destroy=extend_schema(summary="Remove a loose card from your collection"),
)
class CollectionViewSet(viewsets.ModelViewSet):
    """Your collection: whole products (an expansion, with a count) and loose cards (one
    entry per card, with a count). A card's owned copies are its printings in the products
    plus its loose copies."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "collection:read", "write": "collection:write"}

    serializer_class = CollectionEntrySerializer
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]
    throttle_scope = "deck_write"
    lookup_value_regex = r"\d+"

    def get_object(self):
        # The whole collection's route (GET and PUT of /collection/) has no entry: an OPTIONS
        # request asks for one to describe PUT (DRF's metadata), which is then left out.
        if self.lookup_field not in self.kwargs:
            raise Http404("the whole collection has no single entry")
        return super().get_object()

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return CollectionEntry.objects.none()
        return (
            CollectionEntry.objects.filter(owner_id=self.request.user.pk)
            .select_related("card__game")
            .order_by("card__game__position", "card__name", "id")
        )

    @extend_schema(
        operation_id="collection_whole",
        responses=CollectionSerializer,
        summary="Your whole collection: products and loose cards",
    )
    def whole(self, request):
        return Response(_collection_body(request.user))

    @extend_schema(
        operation_id="collection_replace",
        request=CollectionSerializer,
        responses={200: CollectionSerializer, 400: BAD_REQUEST},
        summary="Replace your whole collection (products and loose cards)",
    )
    def replace(self, request):
        data = validated(CollectionSerializer, request)
        products, cards = data["products"], data["cards"]
        known_expansions = set(
            Expansion.objects.filter(pk__in=[p["expansion"] for p in products]).values_list(
                "pk", flat=True
            )
        )
        known_cards = set(
            Card.objects.filter(pk__in=[c["card"] for c in cards]).values_list("pk", flat=True)
        )
        errors = {}
        bad = _unknown_ids(products, "products", "expansion", known_expansions)
        if bad:
            errors["products"] = bad
        bad = _unknown_ids(cards, "cards", "card", known_cards)
        if bad:
            errors["cards"] = bad
        if errors:
            return Response(errors, status=status.HTTP_400_BAD_REQUEST)
        services.collection_replace(
            owner=request.user,
            products=[(p["expansion"], p["count"]) for p in products],
            cards=[(c["card"], c["count"]) for c in cards],
        )
        return Response(_collection_body(request.user))

    def create(self, request):
        data = validated(self.get_serializer, request)
        entry = services.collection_set(
            owner=request.user,
            card=data["card"],
            count=data["count"],
        )
        return Response(self.get_serializer(entry).data, status=status.HTTP_201_CREATED)

    def perform_update(self, serializer):
        # The card of an entry does not change; only its count.
        entry = serializer.instance
        count = serializer.validated_data.get("count", entry.count)
        # IsAuthenticated: the user is an account.
        owner = cast("User", self.request.user)
        services.collection_set(owner=owner, card=entry.card, count=count)
        entry.refresh_from_db()

    @extend_schema(
        request=CollectionImportSerializer,
        responses={200: CollectionImportedSerializer, 400: BAD_REQUEST},
        summary="Add a list or a CSV file to your collection (all or nothing; `dry_run` "
        "writes nothing)",
    )
    def import_list(self, request):
        data = validated(CollectionImportSerializer, request)
        try:
            summary = services.collection_import(
                owner=request.user,
                game_slug=data["game"],
                text=data.get("list") or "",
                csv_text=data.get("csv") or "",
                replace=data["replace"],
                dry_run=data["dry_run"],
            )
        except ListInvalid as exc:
            return _line_errors_response(exc)
        return Response(summary.as_dict())

    def _collection_file(self, body: str, media: str, name: str) -> HttpResponse:
        response = HttpResponse(body, content_type=f"{media}; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    @extend_schema(
        responses={(200, "text/csv"): str, 400: BAD_REQUEST},
        summary="Export your collection as CSV (Count, Name, Edition, Card Number, Game; a "
        "product is a row with an Edition and no Name)",
    )
    def export(self, request):
        body = selectors.export_csv(owner=request.user)
        return self._collection_file(body, "text/csv", "collection.csv")

    @extend_schema(
        responses={(200, "text/plain"): str, 400: BAD_REQUEST},
        summary="Export your collection as `N Card Name` text, under a `# Game:` line a game",
    )
    def export_text(self, request):
        body = selectors.export_text(owner=request.user)
        return self._collection_file(body, "text/plain", "collection.txt")

    def _wants(self, request) -> tuple[list, Deck | None]:
        params = request.query_params
        deck = None
        game_id = None
        if "deck" in params:
            deck_id = whole_number(params["deck"])
            if deck_id is None:
                raise serializers.ValidationError({"deck": ["give a deck's id, a whole number"]})
            deck = get_object_or_404(
                Deck.objects.owned_by(request.user).select_related("game", "current_version"),
                pk=deck_id,
            )
        elif params.get("game"):
            if params["game"] not in registry.slugs():
                raise serializers.ValidationError({"game": [f"no game {params['game']!r}"]})
            game_id = Game.objects.filter(slug=params["game"]).values_list("pk", flat=True).first()
        return selectors.wants(owner=request.user, deck=deck, game_id=game_id), deck

    def _wants_file(self, request, kind: str) -> HttpResponse:
        rows, deck = self._wants(request)
        if kind == "text":
            body, media, ext = selectors.wants_text(rows), "text/plain", "txt"
        else:
            body, media, ext = selectors.wants_csv(rows), "text/csv", "csv"
        name = f"wants-{deck.pk}" if deck is not None else "wants"
        return self._collection_file(body, media, f"{name}.{ext}")

    @extend_schema(
        parameters=WANTS_PARAMETERS,
        responses={
            200: WantSerializer(many=True),
            400: BAD_REQUEST,
            404: OpenApiResponse(description="not one of your decks"),
        },
        summary="The cards your decks need beyond what you own (all decks added up, as if "
        "every one were built at once)",
    )
    def wants(self, request):
        return Response(self._wants(request)[0])

    @extend_schema(
        parameters=WANTS_PARAMETERS,
        responses={
            (200, "text/plain"): str,
            400: BAD_REQUEST,
            404: OpenApiResponse(description="not one of your decks"),
        },
        summary="The wants as `N Card Name` lines (wants.txt)",
    )
    def wants_text(self, request):
        return self._wants_file(request, "text")

    @extend_schema(
        parameters=WANTS_PARAMETERS,
        responses={
            (200, "text/csv"): str,
            400: BAD_REQUEST,
            404: OpenApiResponse(description="not one of your decks"),
        },
        summary="The wants as CSV: Count, Name, Game (wants.csv)",
    )
    def wants_csv(self, request):
        return self._wants_file(request, "csv")


class CardDecksView(APIView):
    """A card's use: your decks holding it (with their copies and whether they are built),
    and how many public decks and published decklists hold it."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "decks:read"}

    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: CardDecksSerializer, 404: OpenApiResponse()},
        summary="The decks using a card: yours, and the counts of public decks and decklists",
    )
    def get(self, request, pk: int):
        card = get_object_or_404(Card.objects.all(), pk=pk)
        body = selectors.card_decks(owner=request.user, card=card)
        return Response({**body, **catalogue_hooks.card_uses(card)})
