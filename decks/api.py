"""Deck API: validation of a list, decks and their versions, the collection.

Every queryset is scoped in the query: reads by id among the decks visible to the user
(their own, public ones; staff all), unlisted decks only through /api/decks/shared/<token>/,
writes among the user's own decks. A deck that is not in scope is a 404 whatever its id.
"""

from __future__ import annotations

from typing import Any, cast

from django.db.models import F
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import SAFE_METHODS, AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api_input import validated
from cardsite.hostile import whole_number
from cardsite.ratelimit import ScopedRateThrottle
from cardsite.schema_fields import FormatField
from catalogue import hooks as catalogue_hooks
from catalogue.models import Card, Expansion, Game
from validation import packages
from validation.registry import UnknownFormat, registry

from . import collection, exports, lists, services, verdicts
from .filters import DeckFilter
from .lists import ListInvalid, list_check
from .models import CollectionEntry, Deck, DeckVersion, OwnedProduct
from .serializers import (
    AvailabilitySerializer,
    CardDecksSerializer,
    CollectionEntrySerializer,
    CollectionImportedSerializer,
    CollectionImportSerializer,
    CollectionSerializer,
    ConflictSerializer,
    DeckCreateSerializer,
    DeckDetailSerializer,
    DeckImportSerializer,
    DeckSerializer,
    DeckUpdateSerializer,
    ListTextField,
    SectionsField,
    VersionCreateSerializer,
    VersionSerializer,
    VersionSummarySerializer,
    WantSerializer,
)


class ValidateRequestSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=[])
    format = FormatField(max_length=40)
    list = ListTextField(required=False, allow_blank=True)
    sections = SectionsField(required=False)
    options = serializers.DictField(required=False)
    as_of = serializers.DateField(
        required=False,
        help_text="check under the format's rule set in effect on this date (YYYY-MM-DD); "
        "by default today's",
    )
    rule_set = serializers.CharField(
        required=False,
        max_length=40,
        help_text="check under the format's rule set of this code, whatever its dates",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cast(serializers.ChoiceField, self.fields["game"]).choices = registry.slugs()

    def validate(self, attrs):
        if ("list" in attrs) == ("sections" in attrs):
            raise serializers.ValidationError(
                "give either 'list' (the text) or 'sections', not both"
            )
        game = registry.get(attrs["game"])
        try:
            game.format(attrs["format"])
        except UnknownFormat as exc:
            raise serializers.ValidationError({"format": str(exc)}) from exc
        if "as_of" in attrs and "rule_set" in attrs:
            raise serializers.ValidationError(
                {"rule_set": "give either 'as_of' (a date) or 'rule_set' (a code), not both"}
            )
        try:
            attrs["chosen"] = lists.chosen_rule_set(
                game_slug=attrs["game"],
                format=attrs["format"],
                code=attrs.get("rule_set"),
                as_of=attrs.get("as_of"),
            )
        except services.DeckInvalid as exc:
            raise serializers.ValidationError(exc.errors) from exc
        return attrs


ViolationSerializer = inline_serializer(
    "Violation",
    {
        "code": serializers.CharField(help_text="the rule's stable code (for programs)"),
        "severity": serializers.ChoiceField(choices=["error", "warning"]),
        "message": serializers.CharField(
            help_text="a sentence for a person; starts with the list's lines ('Line 4: …') "
            "when it is about a card of a text list"
        ),
        "section": serializers.CharField(),
        "cards": serializers.ListField(child=serializers.CharField()),
        "lines": serializers.ListField(
            child=serializers.IntegerField(),
            help_text="the numbers of the text list's lines holding those cards (empty for a "
            "list given as sections, or a problem about a whole section)",
        ),
    },
)
UnknownLineSerializer = inline_serializer(
    "UnknownLine",
    {
        "line": serializers.IntegerField(
            help_text="the line number (text) or the item's index in its section (sections)"
        ),
        "section": serializers.CharField(),
        "name": serializers.CharField(help_text="the name as written"),
        "message": serializers.CharField(),
        "suggestions": serializers.ListField(
            child=serializers.CharField(), help_text="the closest card names, best first"
        ),
    },
)
ReportSerializer = inline_serializer(
    "ValidationReport",
    {
        "legal": serializers.BooleanField(
            help_text="no rule error and every card line read (false while `unknown` is not empty)"
        ),
        "errors": ViolationSerializer.__class__(many=True),
        "warnings": ViolationSerializer.__class__(many=True),
        "totals": serializers.DictField(),
        "rule_set": serializers.CharField(
            allow_null=True,
            help_text="the code of the format's rule set the list was checked under (its "
            "pool, bans, limits and costs), or null for the bare format (none in effect)",
        ),
        "unknown": UnknownLineSerializer.__class__(
            many=True,
            help_text="card lines not read: an unknown name (or one matching several cards, "
            "or an expansion code that does not print the card); the rules checked the "
            "other lines",
        ),
    },
)


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


def _example_request() -> dict[str, str]:
    """A request of the API docs that the server accepts: the first game's sample deck of a
    format that has one (the sample catalogue holds its cards)."""
    for game in registry.all():
        for sample in packages.sample_lists(game.slug):
            return {"game": game.slug, "format": sample.format, "list": sample.text()}
    game = registry.all()[0]
    fmt = next(iter(game.formats.values()))
    return {"game": game.slug, "format": fmt.slug, "list": ""}


_EXAMPLE_REQUEST = _example_request()


class ValidateView(APIView):
    """Check a deck list against a game's format: every error and warning, the totals, and
    the card lines whose card is unknown (with the closest names), all at once. The list is
    checked under the format's rule set in effect today, or on `as_of`, or the one of code
    `rule_set`; the answer's `rule_set` names the one used. A list with
    unknown names still answers 200 with the rule problems of the lines that were read (not
    legal); a list that does not parse (a line without a count, an unknown section) answers
    400 with its line errors."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"POST": "read"}

    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "validate"

    @extend_schema(
        request=ValidateRequestSerializer,
        responses={200: ReportSerializer, 400: BAD_REQUEST},
        examples=[
            OpenApiExample(
                "text list",
                value=_EXAMPLE_REQUEST,
                request_only=True,
            )
        ],
    )
    def post(self, request):
        data = validated(ValidateRequestSerializer, request)
        try:
            checked = list_check(
                game_slug=data["game"],
                format=data["format"],
                text=data.get("list"),
                sections=data.get("sections"),
                options=data.get("options"),
                owner=request.user,
                report_unknown=True,
                rule_set=data["chosen"],
            )
        except ListInvalid as exc:
            return Response({"errors": exc.errors}, status=status.HTTP_400_BAD_REQUEST)
        except services.DeckInvalid as exc:
            return _deck_invalid_response(exc)
        return Response(checked.answer())


# --- Decks, versions, collection ----------------------------------------------------------


class WriteThrottle(ScopedRateThrottle):
    """The view's throttle scope, applied to writes only (reads are not throttled here)."""

    def allow_request(self, request, view):
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)


def _line_errors_response(exc: ListInvalid) -> Response:
    return Response({"errors": exc.errors}, status=status.HTTP_400_BAD_REQUEST)


def _deck_invalid_response(exc: services.DeckInvalid) -> Response:
    return Response(exc.errors, status=status.HTTP_400_BAD_REQUEST)


DECK_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="deck id")
VERSION_NUMBER = OpenApiParameter(
    "number", int, OpenApiParameter.PATH, description="version number (1, 2, 3… in the deck)"
)


EXPORT_VERSION = OpenApiParameter("v", int, description="version number (default: the current)")


def _export_operation(fmt: exports.ExportFormat):
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
            return _line_errors_response(exc)
        except services.DeckInvalid as exc:
            return _deck_invalid_response(exc)
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
                return _deck_invalid_response(exc)
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
        # queries whatever the number of decks and cards (decks.collection).
        deck = get_object_or_404(
            Deck.objects.owned_by(request.user).select_related("current_version"),
            pk=pk,
        )
        return Response(collection.availability(owner=request.user, deck=deck))

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
            return _line_errors_response(exc)
        except services.DeckInvalid as exc:
            return _deck_invalid_response(exc)
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
    setattr(DeckViewSet, f"export_{_fmt.slug}", _export_operation(_fmt))


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
        services.collection_set(owner=self.request.user, card=entry.card, count=count)
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
        body = collection.export_csv(owner=request.user)
        return self._collection_file(body, "text/csv", "collection.csv")

    @extend_schema(
        responses={(200, "text/plain"): str, 400: BAD_REQUEST},
        summary="Export your collection as `N Card Name` text, under a `# Game:` line a game",
    )
    def export_text(self, request):
        body = collection.export_text(owner=request.user)
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
        return collection.wants(owner=request.user, deck=deck, game_id=game_id), deck

    def _wants_file(self, request, kind: str) -> HttpResponse:
        rows, deck = self._wants(request)
        if kind == "text":
            body, media, ext = collection.wants_text(rows), "text/plain", "txt"
        else:
            body, media, ext = collection.wants_csv(rows), "text/csv", "csv"
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
        body = collection.card_decks(owner=request.user, card=card)
        return Response({**body, **catalogue_hooks.card_uses(card)})
