"""Read-only catalogue API."""

from __future__ import annotations

from functools import partial

import django_filters
from django.db.models import Prefetch
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.urls import reverse
from django.utils.http import http_date, parse_http_date_safe
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from cardsite.paging import Pagination
from cardsite.ratelimit import ScopedRateThrottle
from cardsite.schema_fields import (
    CardKindFilter,
    GameFilter,
    GivenIntegerField,
    GivenModelChoiceFilter,
)
from validation.registry import registry

from . import bulk, rulesets
from .models import Card, Expansion, Game, Printing
from .paging import (
    AFTER_MAX_LENGTH,
    COUNT_CAP,
    WalkPaginator,
    after_key,
    after_token,
    after_walk,
    follows_name_order,
    search_walk,
)
from .search import search_cards
from .serializers import (
    BulkFileSerializer,
    BulkIndexSerializer,
    CardSerializer,
    ExpansionSerializer,
    GameSerializer,
    PrintingSerializer,
    RuleSetSerializer,
)
from .services import game_card_counts

SLUG_PARAM = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="game slug")


@extend_schema_view(
    list=extend_schema(responses=GameSerializer(many=True)),
    retrieve=extend_schema(parameters=[SLUG_PARAM], responses=GameSerializer),
    bulk=extend_schema(
        parameters=[SLUG_PARAM],
        responses={200: BulkFileSerializer, 304: OpenApiResponse(description="Not modified")},
    ),
)
class GameViewSet(viewsets.ViewSet):
    """The five games: kinds with their attribute schema, factions, formats, card counts."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "read"}

    lookup_field = "slug"
    serializer_class = GameSerializer
    # Set per action: the bulk download counts against the "bulk" rate.
    throttle_scope: str | None = None

    def list(self, request):
        counts = game_card_counts()
        data = GameSerializer(registry.all(), many=True, context={"counts": counts}).data
        return Response(data)

    def retrieve(self, request, slug=None):
        try:
            game = registry.get(slug)
        except KeyError as exc:
            raise Http404(f"no game {slug!r}") from exc
        return Response(GameSerializer(game, context={"counts": game_card_counts()}).data)

    @action(
        detail=True, methods=["get"], throttle_classes=[ScopedRateThrottle], throttle_scope="bulk"
    )
    def bulk(self, request, slug=None):
        """Every card of the game with its printings, as one JSON document. Built once and
        kept until the catalogue changes; send If-None-Match (its ETag) or If-Modified-Since
        (its Last-Modified) to get a 304 when it has not changed."""
        if slug not in registry.slugs():
            raise Http404(f"no game {slug!r}")
        found = bulk.bulk_file(slug)
        last_modified = http_date(found.updated_at.timestamp())
        response: HttpResponse
        if _not_modified(request, found):
            response = HttpResponseNotModified()
        else:
            response = HttpResponse(found.body, content_type=bulk.CONTENT_TYPE)
            response["Content-Disposition"] = f'attachment; filename="{slug}-cards.json"'
        response["ETag"] = found.etag
        response["Last-Modified"] = last_modified
        response["Cache-Control"] = "public, max-age=0, must-revalidate"
        return response


def _not_modified(request, found: bulk.BulkFile) -> bool:
    """The client's copy is current: its If-None-Match names the ETag, or (without one) its
    If-Modified-Since is not older than the file."""
    if_none_match = request.headers.get("If-None-Match")
    if if_none_match is not None:
        tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
        return "*" in tags or found.etag.removeprefix("W/") in tags
    since = parse_http_date_safe(request.headers.get("If-Modified-Since", ""))
    return since is not None and int(found.updated_at.timestamp()) <= since


class BulkIndexView(APIView):
    """The bulk files there are: one per game, with when it last changed, its size, its
    content type and its address (download only those whose `updated_at` moved)."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "read"}

    @extend_schema(responses=BulkIndexSerializer, summary="The bulk files, one per game")
    def get(self, request):
        items = []
        for game in registry.all():
            found = bulk.bulk_file(game.slug)
            items.append(
                {
                    "game": game.slug,
                    "name": game.name,
                    "updated_at": found.updated_at,
                    "size": found.size,
                    "content_type": bulk.CONTENT_TYPE,
                    "etag": found.etag,
                    "url": request.build_absolute_uri(
                        reverse("game-bulk", kwargs={"slug": game.slug})
                    ),
                }
            )
        return Response({"data": items})


class ExpansionFilter(django_filters.FilterSet):
    game = GameFilter(field_name="game__slug")

    class Meta:
        model = Expansion
        fields = ["game", "code"]


class ExpansionViewSet(viewsets.ReadOnlyModelViewSet):
    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "read"}

    queryset = Expansion.objects.select_related("game").order_by("game__position", "code")
    serializer_class = ExpansionSerializer
    filterset_class = ExpansionFilter


class IntegerFilter(django_filters.NumberFilter):
    """A whole number (costs are integers: 0.5 is a 400, not a silent match)."""

    @property
    def field(self):
        if not hasattr(self, "_field"):
            self._field = GivenIntegerField(label=self.label, **self.extra)
        return self._field


class CardFilter(django_filters.FilterSet):
    game = GameFilter(method="filter_game")
    kind = CardKindFilter()
    faction = django_filters.CharFilter()
    cost = IntegerFilter()
    cost__gte = IntegerFilter(field_name="cost", lookup_expr="gte")
    cost__lte = IntegerFilter(field_name="cost", lookup_expr="lte")
    set = django_filters.CharFilter(field_name="printings__expansion__code", distinct=True)

    class Meta:
        model = Card
        fields = ["game", "kind", "faction", "cost", "set"]

    def filter_game(self, queryset, name, value):
        # Filter on the game's id, not through a join on its slug: with the id the planner
        # estimates a game's share of the cards and picks the search indexes.
        game_id = Game.objects.filter(slug=value).values_list("id", flat=True).first()
        return queryset.filter(game_id=game_id) if game_id else queryset.none()


# What a card of the API brings along. The game by a prefetch (one query for the page)
# rather than a join: the page query then sorts the cards' own rows only.
CARD_PREFETCH = (
    "game",
    Prefetch("printings", queryset=Printing.objects.select_related("expansion")),
)


def read_after(token: str) -> tuple[str, int]:
    """The name and id an `after` holds; a 400 naming `after` when it holds none."""
    try:
        return after_key(token)
    except ValueError:
        raise ValidationError(
            {
                "after": [
                    "after must be the value given in a next link (a card's place in the order)"
                ]
            }
        ) from None


class CardPagination(Pagination):
    """Pages of cards; a page of a search matching many of a game's cards is found by
    walking its cards in name order (`catalogue.search.walk_page`), a deep page by reading
    the ids before it (`catalogue.search.deep_page`). The count stops after COUNT_CAP results
    (`count_capped`). With `q`, the page also says how the query was read and what was left
    out of it.

    A page's `next` link carries `after` (the last card's place in the name order) beside
    the page number when the results are in name order (every list but a ranked search):
    that page is read from that card on, so following next links costs the same at page
    5,000 as at page 2 (keyset pagination); `page` alone still reaches any page."""

    keyset = False

    def get_schema_operation_parameters(self, view):
        return [
            *super().get_schema_operation_parameters(view),
            {
                "name": "after",
                "required": False,
                "in": "query",
                "description": (
                    "The value a next link gives: the page is read from the card after that "
                    "place in the name order, at any depth at the same cost (page then only "
                    "numbers it). Not for a search ranked by name match (400)."
                ),
                "schema": {"type": "string", "maxLength": AFTER_MAX_LENGTH},
            },
        ]

    def get_paginated_response_schema(self, schema):
        answer = super().get_paginated_response_schema(schema)
        answer["properties"]["count"]["description"] = (
            f"the number of results, or {COUNT_CAP:,} when count_capped"
        )
        answer["properties"]["count_capped"] = {
            "type": "boolean",
            "description": f"the results are more than {COUNT_CAP:,}: count says {COUNT_CAP:,}",
        }
        answer["properties"]["next_cursor"] = {
            "type": "string",
            "nullable": True,
            "description": (
                "the next page's `after` (the value the next link carries): ask "
                "`?after=<next_cursor>` with the same filters for the next page; null on the "
                "last page and on a search ranked by name match (use page there)"
            ),
        }
        answer["required"] = [*answer.get("required", []), "count_capped", "next_cursor"]
        answer["properties"]["read_as"] = {
            "type": "string",
            "description": "with q: how the query was read",
        }
        answer["properties"]["problems"] = {
            "type": "array",
            "items": {"type": "string"},
            "description": (
                "with q: terms left out of the query and why, and how it was searched "
                "(a note when too many cards match to be ranked)"
            ),
        }
        return answer

    def paginate_queryset(self, queryset, request, view=None):
        result = getattr(view, "search_result", None)
        base = getattr(view, "search_base", None)
        # A walk follows a game's name index: only for the cards of one game.
        walk = None
        if result is not None and base is not None and request.query_params.get("game"):
            walk = search_walk(
                base=base,
                result=result,
                ordering=queryset.query.order_by,
                prefetch=CARD_PREFETCH,
            )
        # A page after a card: only in the name order (a ranked search has its own).
        self.keyset = follows_name_order(queryset.query.order_by)
        after = None
        token = request.query_params.get("after")
        if token is not None:
            key = read_after(token)
            if not self.keyset:
                raise ValidationError(
                    {
                        "after": [
                            "after follows results in name order; these are ranked by how "
                            "well their names match the query: use page"
                        ]
                    }
                )
            after = after_walk(
                queryset=queryset,
                base=base if walk is not None else None,
                result=result,
                after=key,
            )
        # Every list (with `q` or without, of one game or of all): a deep page is read as a
        # deferred join, and the count stops after COUNT_CAP results.
        self.django_paginator_class = partial(  # type: ignore[assignment]
            WalkPaginator, walk=walk, result=result, after=after
        )
        return super().paginate_queryset(queryset, request, view)

    def next_cursor(self) -> str | None:
        """The `after` of the next page (None: no next page, or a ranked search)."""
        if not self.keyset or self.page is None or not self.page.has_next():
            return None
        cards = list(self.page.object_list)
        return after_token(cards[-1]) if cards else None

    def get_next_link(self):
        link = super().get_next_link()
        if link is None or self.page is None:
            return link
        cursor = self.next_cursor()
        if cursor is not None:
            return replace_query_param(link, "after", cursor)
        return remove_query_param(link, "after")

    def get_previous_link(self):
        link = super().get_previous_link()
        return remove_query_param(link, "after") if link else link

    def get_paginated_response(self, data):
        response = super().get_paginated_response(data)
        paginator = self.page.paginator if self.page is not None else None
        capped = isinstance(paginator, WalkPaginator) and paginator.capped
        response.data = {
            "count": COUNT_CAP if capped else response.data["count"],
            "count_capped": capped,
            **{k: v for k, v in response.data.items() if k != "count"},
            "next_cursor": self.next_cursor(),
        }
        return response


@extend_schema(
    parameters=[
        OpenApiParameter("q", str, description="query in the search language (see /cards/help/)")
    ]
)
class CardViewSet(viewsets.ReadOnlyModelViewSet):
    """Cards, filterable by game, kind, faction, cost and set, and searchable with `q`."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "read"}

    serializer_class = CardSerializer
    filterset_class = CardFilter
    pagination_class = CardPagination
    # Every request counts against the "search" rate, per user or client address (a list
    # or a search costs the database; a card by id is cheap but shares the route).
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "search"

    def get_queryset(self):
        return Card.objects.prefetch_related(*CARD_PREFETCH).order_by("name", "id")

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        query = self.request.query_params.get("q", "")
        if query:
            result = search_cards(
                query=query, queryset=queryset, game_slug=self.request.query_params.get("game")
            )
            if result.error:
                raise ValidationError({"q": [result.error]})
            self.search_base = queryset
            self.search_result = result
            queryset = result.queryset
        return queryset

    def list(self, request, *args, **kwargs):
        response = super().list(request, *args, **kwargs)
        result = getattr(self, "search_result", None)
        if result is not None and isinstance(response.data, dict):
            response.data["read_as"] = result.read_as
            response.data["problems"] = result.problems
        return response


class PrintingFilter(django_filters.FilterSet):
    card = GivenModelChoiceFilter(queryset=Card.objects.all())
    expansion = GivenModelChoiceFilter(queryset=Expansion.objects.all())

    class Meta:
        model = Printing
        fields = ["card", "expansion"]


class PrintingViewSet(viewsets.ReadOnlyModelViewSet):
    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "read"}

    queryset = Printing.objects.select_related("card", "expansion").order_by("id")
    serializer_class = PrintingSerializer
    filterset_class = PrintingFilter


# --- Rule sets ---------------------------------------------------------------------------

FORMAT_PARAM = OpenApiParameter(
    "fmt", str, OpenApiParameter.PATH, description="format slug (standard, …)"
)
GAME_PARAM = OpenApiParameter("game", str, OpenApiParameter.PATH, description="game slug")
CODE_PARAM = OpenApiParameter("code", str, OpenApiParameter.PATH, description="rule set code")


def _game_format(game: str, format: str) -> None:
    """Http404 for a game or format the registry does not know."""
    if game not in registry.slugs():
        raise Http404(f"no game {game!r}")
    game_def = registry.get(game)
    if format not in game_def.formats:
        raise Http404(f"{game_def.name} has no format {format!r}")


class RuleSetListView(APIView):
    """A format's rule sets, newest first: the legal expansions, the card entries (banned,
    limit, cost, errata), whether each is past, in effect or upcoming today, and what each
    changed against the one before."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "read"}

    @extend_schema(
        parameters=[GAME_PARAM, FORMAT_PARAM],
        responses=RuleSetSerializer(many=True),
        summary="A format's rule sets, with what each changed",
    )
    def get(self, request, game: str, fmt: str):
        # (`format` is DRF's format-suffix argument: the path names the format `fmt`.)
        _game_format(game, fmt)
        return Response(RuleSetSerializer(rulesets.documents(game, fmt), many=True).data)


class RuleSetDetailView(APIView):
    """One rule set of a format, with what it changed against the one before."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "read"}

    @extend_schema(
        parameters=[GAME_PARAM, FORMAT_PARAM, CODE_PARAM],
        responses=RuleSetSerializer,
        summary="One rule set, with what it changed",
    )
    def get(self, request, game: str, fmt: str, code: str):
        _game_format(game, fmt)
        found = next((d for d in rulesets.documents(game, fmt) if d["code"] == code), None)
        if found is None:
            raise Http404(f"{fmt} has no rule set {code!r}")
        return Response(RuleSetSerializer(found).data)
