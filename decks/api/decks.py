"""Decks and their versions: list, read, create, import, rename, pin, delete, save a
version, availability, legality, share links."""

from __future__ import annotations

from django.db.models import F
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response

from cardsite.api_input import validated
from cardsite.ratelimit import ScopedRateThrottle

from .. import exports, services, verdicts
from ..filters import DeckFilter
from ..lists import ListInvalid, holdings
from ..models import Deck, DeckVersion
from ..serializers import (
    AvailabilitySerializer,
    ConflictSerializer,
    DeckCreateSerializer,
    DeckDetailSerializer,
    DeckImportSerializer,
    DeckSerializer,
    DeckUpdateSerializer,
    VersionCreateSerializer,
    VersionSerializer,
    VersionSummarySerializer,
)
from .answers import (
    BAD_REQUEST,
    DECK_ID,
    WriteThrottle,
    deck_invalid_response,
    line_errors_response,
)
from .deck_exports import DeckExports, export_operation

LegalityCheckSerializer = inline_serializer(
    "RuleSetCheck",
    {
        "rule_set": serializers.CharField(
            allow_null=True, help_text="the rule set's code; null: the format's own rules"
        ),
        "name": serializers.CharField(allow_blank=True),
        "effective": serializers.DateField(allow_null=True),
        "status": serializers.ChoiceField(
            choices=["past", "in effect", "upcoming", "bare format"], help_text="today"
        ),
        "legal": serializers.BooleanField(),
        "errors": inline_serializer(
            "RuleSetCheckError",
            {"code": serializers.CharField(), "message": serializers.CharField()},
            many=True,
        ),
        "totals": serializers.DictField(),
    },
)
LegalitySerializer = inline_serializer(
    "DeckLegality",
    {
        "follows": serializers.BooleanField(
            help_text="true: the deck follows its format (checked under the rule set in effect "
            "today); false: it is pinned"
        ),
        "checked_under": serializers.CharField(
            allow_null=True, help_text="the code of the rule set the deck is checked under"
        ),
        "checks": LegalityCheckSerializer.__class__(many=True),
    },
)


VERSION_NUMBER = OpenApiParameter(
    "number", int, OpenApiParameter.PATH, description="version number (1, 2, 3… in the deck)"
)


@extend_schema_view(
    list=extend_schema(
        summary="Your decks; public ones with ?public=1 or ?game=<slug>",
        parameters=[
            OpenApiParameter(
                "public",
                {"type": "string", "enum": ["1", "0", "true", "false"]},
                description="1 (or true): list public decks instead of yours",
            ),
            OpenApiParameter(
                "mine",
                {"type": "string", "enum": ["1", "0", "true", "false"]},
                description="with ?game=, 1 (or true): list your decks of it",
            ),
            OpenApiParameter(
                "legal",
                {"type": "string", "enum": ["true", "false", "1", "0"]},
                description="true (or 1): legal decks only; false (or 0): the others",
            ),
        ],
    ),
    retrieve=extend_schema(
        parameters=[DECK_ID], summary="A deck you may read (yours, public; staff: any)"
    ),
    partial_update=extend_schema(
        parameters=[DECK_ID],
        summary="Rename, describe or change the visibility of your deck",
        request=DeckUpdateSerializer,
        responses=DeckDetailSerializer,
    ),
    destroy=extend_schema(parameters=[DECK_ID], summary="Delete your deck and all its versions"),
)
class DeckViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    DeckExports,
    viewsets.GenericViewSet,
):
    """Decks: every save of a list is a new, immutable version."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "decks:read", "write": "decks:write", "shared": "read"}

    serializer_class = DeckSerializer
    filterset_class = DeckFilter
    throttle_classes = [WriteThrottle]
    throttle_scope = "deck_write"
    lookup_value_regex = r"\d+"
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def _wants_public(self) -> bool:
        params = self.request.query_params
        for name in ("public", "mine"):
            if params.get(name, "1") not in {"1", "0", "true", "false"}:
                raise serializers.ValidationError({name: ["give 1, 0, true or false"]})
        if params.get("mine") in {"1", "true"}:
            return False
        return params.get("public") in {"1", "true"} or bool(params.get("game"))

    def get_queryset(self):
        user = self.request.user
        qs = verdicts.with_in_force(
            Deck.objects.select_related("game", "owner").annotate(
                current_version_number=F("current_version__number")
            )
        )
        if self.action == "list":
            scoped = qs.public() if self._wants_public() else qs.owned_by(user)
            return scoped.order_by("-updated_at", "-id")
        if self.action == "retrieve" or (
            (self.action in {"versions", "version"} or self.action.startswith("export"))
            and self.request.method in SAFE_METHODS
        ):
            return qs.visible_to(user).select_related("current_version__based_on")
        return qs.owned_by(user).select_related("current_version")

    def get_object(self):
        # A verdict checked under a rule set no longer in effect for the deck is re-checked
        # at once and written through (decks.verdicts.freshness).
        deck = super().get_object()
        verdicts.decks_refresh([deck])
        return deck

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        if self.action == "list" and page is not None:
            verdicts.decks_refresh(page)  # the few stale decks of the page, in bulk
        return page

    def filter_queryset(self, queryset):
        # The list filters apply to the list only (?format= names what the export writes).
        if self.action != "list":
            return queryset
        return super().filter_queryset(queryset)

    def get_serializer_class(self):
        if self.action == "retrieve":
            return DeckDetailSerializer
        return DeckSerializer

    @extend_schema(
        request=DeckCreateSerializer,
        responses={201: DeckDetailSerializer, 400: BAD_REQUEST},
        summary="Create a deck (with a list, its version 1 too)",
    )
    def create(self, request):
        return self._create(request, DeckCreateSerializer)

    def _create(self, request, serializer_class):
        data = validated(serializer_class, request)
        try:
            deck = services.deck_create(
                owner=request.user,
                game_slug=data["game"],
                format=data["format"],
                name=data["name"],
                description=data.get("description", ""),
                visibility=data["visibility"],
                text=data.get("list"),
                sections=data.get("sections"),
                options=data.get("options"),
            )
        except ListInvalid as exc:
            return line_errors_response(exc)
        except services.DeckInvalid as exc:
            return deck_invalid_response(exc)
        deck = Deck.objects.select_related("game", "owner", "current_version").get(pk=deck.pk)
        body = DeckDetailSerializer(deck, context=self.get_serializer_context()).data
        return Response(body, status=status.HTTP_201_CREATED)

    def partial_update(self, request, pk=None):
        deck = self.get_object()
        data = dict(validated(DeckUpdateSerializer, request, partial=True))
        if "rule_set" in data:
            code = data.pop("rule_set").strip()
            try:
                services.deck_pin(deck=deck, code=code or None)
            except services.DeckInvalid as exc:
                return deck_invalid_response(exc)
            deck.refresh_from_db()
        if "built" in data:
            services.deck_set_built(deck=deck, built=data.pop("built"))
        services.deck_update(deck=deck, **data)
        return Response(DeckDetailSerializer(deck, context=self.get_serializer_context()).data)

    @extend_schema(
        parameters=[DECK_ID],
        responses={200: AvailabilitySerializer(many=True), 404: OpenApiResponse()},
        summary="Per card of your deck: needed, owned, held by your other built decks, free",
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def availability(self, request, pk=None):
        # Your own decks only, scoped in the query (another user's deck is a 404); three
        # queries whatever the number of decks and cards (the collection app's, through
        # decks.lists.holdings).
        deck = get_object_or_404(
            Deck.objects.owned_by(request.user).select_related("current_version"),
            pk=pk,
        )
        return Response(holdings.availability(owner=request.user, deck=deck))

    def perform_destroy(self, instance):
        services.deck_delete(deck=instance)

    @extend_schema(
        methods=["GET"],
        parameters=[DECK_ID],
        responses=VersionSummarySerializer(many=True),
        summary="The versions of a deck, newest first",
    )
    @extend_schema(
        methods=["POST"],
        parameters=[DECK_ID],
        request=VersionCreateSerializer,
        responses={
            201: VersionSerializer,
            400: BAD_REQUEST,
            409: ConflictSerializer,
        },
        summary="Save a new version (refused with 409 when `based_on` is not the current one)",
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[])
    def versions(self, request, pk=None):
        deck = self.get_object()
        if request.method == "GET":
            versions = (
                DeckVersion.objects.filter(deck=deck)
                .select_related("author", "based_on")
                .defer("list_text", "entries", "options")
                .order_by("-number")
            )
            page = self.paginate_queryset(versions)
            return self.get_paginated_response(VersionSummarySerializer(page, many=True).data)
        data = validated(VersionCreateSerializer, request)
        try:
            version = services.deck_save_version(
                deck=deck,
                author=request.user,
                text=data.get("list"),
                sections=data.get("sections"),
                options=data.get("options"),
                based_on=data["based_on"],
            )
        except services.VersionConflict as exc:
            return Response(
                {
                    "detail": (
                        f"This deck was saved elsewhere since version {data['based_on']} "
                        f"(current version {exc.current_number}); nothing was saved. "
                        "Reload, merge and save again based on the current version."
                    ),
                    "current_version": exc.current_number,
                },
                status=status.HTTP_409_CONFLICT,
            )
        except ListInvalid as exc:
            return line_errors_response(exc)
        except services.DeckInvalid as exc:
            return deck_invalid_response(exc)
        return Response(VersionSerializer(version).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[DECK_ID, VERSION_NUMBER],
        responses=VersionSerializer,
        summary="One version of a deck",
    )
    @action(detail=True, methods=["get"], url_path=r"versions/(?P<number>\d+)")
    def version(self, request, pk=None, number=None):
        deck = self.get_object()
        version = get_object_or_404(
            DeckVersion.objects.filter(deck=deck).select_related("author", "based_on"),
            number=int(number),
        )
        return Response(VersionSerializer(version).data)

    @extend_schema(
        parameters=[DECK_ID],
        responses=LegalitySerializer,
        summary="The deck's current list checked under each rule set of its format",
    )
    @action(
        detail=True,
        methods=["get"],
        filter_backends=[],
        throttle_classes=[ScopedRateThrottle],
        throttle_scope="validate",
    )
    def legality(self, request, pk=None):
        """The deck's current list checked under each rule set of its format (the newest 20,
        newest first) and under the format's own rules, with the one the deck is checked
        under and whether it follows the format or is pinned."""
        deck = self.get_object()
        return Response(LegalitySerializer.__class__(verdicts.deck_legality(deck=deck)).data)

    @extend_schema(
        request=DeckImportSerializer,
        responses={201: DeckDetailSerializer, 400: BAD_REQUEST},
        summary="Import a list as a new deck (all or nothing)",
    )
    @action(detail=False, methods=["post"], url_path="import")
    def import_list(self, request):
        return self._create(request, DeckImportSerializer)

    @extend_schema(
        parameters=[DECK_ID],
        request=None,
        responses={200: DeckDetailSerializer},
        summary="Replace the share link (the old link stops working)",
    )
    @action(detail=True, methods=["post"], url_path="new-link")
    def new_link(self, request, pk=None):
        deck = self.get_object()  # the user's own decks only (get_queryset)
        services.deck_new_share_link(deck=deck)
        return Response(DeckDetailSerializer(deck, context=self.get_serializer_context()).data)

    @extend_schema(
        parameters=[OpenApiParameter("token", str, OpenApiParameter.PATH)],
        responses=DeckDetailSerializer,
        summary="An unlisted (or public) deck through its share link",
    )
    @action(detail=False, methods=["get"], url_path=r"shared/(?P<token>[A-Za-z0-9_\-]+)")
    def shared(self, request, token=None):
        deck = get_object_or_404(
            verdicts.with_in_force(
                Deck.objects.shared(token).select_related(
                    "game", "owner", "current_version__based_on", "current_version__author"
                )
            )
        )
        verdicts.decks_refresh([deck])
        return Response(DeckDetailSerializer(deck, context=self.get_serializer_context()).data)


# One operation a registered export format (decks.exports: registered by the apps when they
# are ready, before the URLs are read), each of one media type: GET export/<format>/.
for _fmt in exports.FORMATS.values():
    setattr(DeckViewSet, f"export_{_fmt.slug}", export_operation(_fmt))
