"""Decklists API: find and read decklists, publish a deck, like, favourite, comment, report,
read an author and follow them.

Every queryset is scoped in the query (a hidden decklist is a 404 for anyone but staff; a
deck is published only by its owner); writes need an account; likes, favourites and follows
are idempotent (a second like is one like). Publishing and commenting are throttled per
user, tighter for new accounts; the search with cards per client.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import SAFE_METHODS, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api_input import validated
from cardsite.paging import Pagination
from cardsite.ratelimit import ScopedRateThrottle

from . import selectors, services
from .from_decks import Deck
from .models import Author, Comment, Decklist, Follow
from .serializers import (
    AuthorSerializer,
    CommentCreateSerializer,
    CommentSerializer,
    DecklistDetailSerializer,
    DecklistSerializer,
    PublishSerializer,
    ReportSerializer,
)
from .services import search as finder
from .services.legality import legality_refresh

USERNAME = r"[\w.@+-]+"

DECKLIST_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="decklist id")
AUTHOR_NAME = OpenApiParameter("name", str, OpenApiParameter.PATH, description="user name")
SEARCH_PARAMETERS = [
    OpenApiParameter("game", str, description="a game's slug"),
    OpenApiParameter(
        "format",
        str,
        description="a format: its decklists, or with legal=today any decklist legal today in it",
    ),
    OpenApiParameter(
        "card",
        {
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": 203},
            "maxItems": 10,
        },
        explode=True,
        description="a card included (any printing), `name` or `name:min` (at least min copies); "
        "repeat for more (at most 10). An unknown name is a 400 with the closest names.",
    ),
    OpenApiParameter(
        "exclude_card",
        {
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": 200},
            "maxItems": 10,
        },
        explode=True,
        description="a card no decklist found holds; repeat for more (at most 10)",
    ),
    OpenApiParameter("author", str, description="an author's user name"),
    OpenApiParameter(
        "faction", str, description="the list's faction (its leader's, or most of its cards')"
    ),
    OpenApiParameter("q", {"type": "string", "maxLength": 100}, description="words of the name"),
    OpenApiParameter(
        "legal",
        {"type": "string", "enum": ["today"]},
        description="today: legal today in `format` (or in its own format), under the rule set "
        "in effect today",
    ),
    OpenApiParameter("since", OpenApiTypes.DATE, description="published on or after (YYYY-MM-DD)"),
    OpenApiParameter(
        "sort",
        {"type": "string", "enum": list(finder.SORTS)},
        description="popular (likes with time decay; the default), new, likes, favourites, comments",
    ),
]


def _invalid(exc: services.DecklistInvalid) -> Response:
    return Response({"errors": exc.items()}, status=status.HTTP_400_BAD_REQUEST)


class SearchPagination(Pagination):
    django_paginator_class = selectors.SearchPaginator


class SearchThrottle(ScopedRateThrottle):
    """The search's throttle, for the list only."""

    def allow_request(self, request, view):
        if getattr(view, "action", None) != "list":
            return True
        return super().allow_request(request, view)


class WriteThrottle(ScopedRateThrottle):
    def allow_request(self, request, view):
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)


Liked = inline_serializer(
    "DecklistLiked", {"liked": serializers.BooleanField(), "likes": serializers.IntegerField()}
)
Favoured = inline_serializer(
    "DecklistFavoured",
    {"favoured": serializers.BooleanField(), "favourites": serializers.IntegerField()},
)
Reported = inline_serializer(
    "Reported",
    {
        "reported": serializers.BooleanField(),
        "created": serializers.BooleanField(help_text="false: you had reported it already"),
    },
)
Following = inline_serializer(
    "Following", {"following": serializers.BooleanField(), "followers": serializers.IntegerField()}
)


def _toggle_action(answer, *, set_summary: str, unset_summary: str):
    """A mark a signed-in user sets on a decklist by POST and takes back by DELETE (a like, a
    favourite): the action, its throttle and the two operations' schema."""

    def decorate(view):
        view = action(
            detail=True,
            methods=["post", "delete"],
            permission_classes=[IsAuthenticated],
            throttle_classes=[WriteThrottle],
            throttle_scope="community",
        )(view)
        for method, summary in (("DELETE", unset_summary), ("POST", set_summary)):
            view = extend_schema(
                parameters=[DECKLIST_ID],
                request=None,
                responses={200: answer},
                summary=summary,
                methods=[method],
            )(view)
        return view

    return decorate


@extend_schema_view(
    list=extend_schema(summary="Find decklists", parameters=SEARCH_PARAMETERS),
    retrieve=extend_schema(
        summary="A decklist: its list, legality today in each format, counts",
        parameters=[DECKLIST_ID],
        responses=DecklistDetailSerializer,
    ),
)
class DecklistViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Published decklists: frozen snapshots of decks, with likes, favourites and comments."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "read", "write": "decklists:write"}

    serializer_class = DecklistSerializer
    lookup_value_regex = r"\d+"
    throttle_classes = [SearchThrottle]
    throttle_scope = "decklist_search"
    filter_backends: list = []

    def get_queryset(self):
        return Decklist.objects.visible_to(self.request.user).select_related("game", "author")

    def list(self, request, *args, **kwargs):
        try:
            found = finder.search_read(request.query_params)
        except services.DecklistInvalid as exc:
            return _invalid(exc)
        if found.cards:
            # The page and its count in one query (selectors.SearchPaginator).
            self._paginator = SearchPagination()
        page = self.paginate_queryset(
            finder.decklist_search(found).select_related("game", "author")
        )
        data = DecklistSerializer(page, many=True, context=self.get_serializer_context()).data
        return self.get_paginated_response(data)

    def retrieve(self, request, *args, **kwargs):
        decklist = self.get_object()
        return Response(_detail(decklist, request, self.get_serializer_context()))

    def _listed(self):
        decklist = self.get_object()
        if decklist.hidden:
            raise Http404("this decklist is hidden")
        return decklist

    def _toggle(self, request, *, on, off, flag: str, count: str) -> Response:
        """POST sets the user's mark on a listed decklist (`on`), DELETE takes it back
        (`off`); the answer says which, with the decklist's new `count`."""
        decklist = self._listed()
        marked = request.method == "POST"
        (on if marked else off)(decklist=decklist, user=request.user)
        decklist.refresh_from_db(fields=[count])
        return Response({flag: marked, count: getattr(decklist, count)})

    @_toggle_action(Liked, set_summary="Like it (once)", unset_summary="Take your like back")
    def like(self, request, pk=None):
        return self._toggle(
            request,
            on=services.decklist_like,
            off=services.decklist_unlike,
            flag="liked",
            count="likes",
        )

    @_toggle_action(
        Favoured,
        set_summary="Make it a favourite (once)",
        unset_summary="Take it off your favourites",
    )
    def favourite(self, request, pk=None):
        return self._toggle(
            request,
            on=services.decklist_favourite,
            off=services.decklist_unfavourite,
            flag="favoured",
            count="favourites",
        )

    @extend_schema(
        methods=["GET"],
        parameters=[DECKLIST_ID],
        responses=CommentSerializer(many=True),
        summary="The decklist's comments, oldest first",
    )
    @extend_schema(
        methods=["POST"],
        parameters=[DECKLIST_ID],
        request=CommentCreateSerializer,
        responses={201: CommentSerializer},
        summary="Comment (an account that saved a deck; Markdown, sanitised)",
    )
    @action(
        detail=True,
        methods=["get", "post"],
        throttle_classes=[WriteThrottle],
        throttle_scope="comment",
    )
    def comments(self, request, pk=None):
        if request.method == "GET":
            decklist = self.get_object()
            qs = selectors.comments_shown(
                decklist, moderator=services.may_moderate_comment(request.user, None, decklist)
            )
            page = self.paginate_queryset(qs)
            return self.get_paginated_response(CommentSerializer(page, many=True).data)
        if not request.user.is_authenticated:
            self.permission_denied(request)
        decklist = self._listed()
        data = validated(CommentCreateSerializer, request)
        try:
            comment = services.comment_post(
                decklist=decklist,
                author=request.user,
                text=data["text"],
                reply_to=data.get("reply_to"),
            )
        except services.NotAllowed as exc:
            return Response(
                {"detail": str(exc), "code": "no_saved_deck"}, status=status.HTTP_403_FORBIDDEN
            )
        except services.DecklistInvalid as exc:
            return _invalid(exc)
        return Response(CommentSerializer(comment).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[DECKLIST_ID],
        request=ReportSerializer,
        responses={201: Reported, 200: Reported},
        summary="Report the decklist or one of its comments to the moderators (once)",
    )
    @action(
        detail=True,
        methods=["post"],
        permission_classes=[IsAuthenticated],
        throttle_classes=[WriteThrottle],
        throttle_scope="community",
    )
    def report(self, request, pk=None):
        decklist = self._listed()
        data = validated(ReportSerializer, request)
        comment = None
        if data.get("comment") is not None:
            comment = Comment.objects.filter(
                pk=data["comment"], decklist=decklist, hidden=False
            ).first()
            if comment is None:
                return Response(
                    {
                        "errors": [
                            {
                                "field": "comment",
                                "code": "invalid",
                                "message": f"no comment {data['comment']} on this decklist",
                            }
                        ]
                    },
                    status=status.HTTP_400_BAD_REQUEST,
                )
        try:
            _, created = services.report_file(
                reporter=request.user,
                reason=data["reason"],
                decklist=None if comment else decklist,
                comment=comment,
            )
        except services.DecklistInvalid as exc:
            return _invalid(exc)
        return Response(
            {"reported": True, "created": created},
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


def _detail(decklist, request, context) -> dict:

    user = request.user
    signed_in = user.is_authenticated
    page = selectors.decklist_page(decklist, user) if signed_in else None
    return DecklistDetailSerializer(
        decklist,
        context={
            **context,
            "legality": legality_refresh(decklist),
            "duplicate": services.duplicate_of(
                game_id=decklist.game_id, sig=decklist.signature, exclude=decklist.pk
            ),
            "liked": page.liked if page else None,
            "favoured": page.favoured if page else None,
        },
    ).data


class PublishView(APIView):
    """Publish the current version of one of your decks as a decklist: legal today in its
    format, or a 400 listing its problems (nothing published). A deck published before makes
    its next version; a deck copied from a decklist derives from it."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"POST": "decklists:write"}

    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "publish"

    @extend_schema(
        parameters=[OpenApiParameter("id", int, OpenApiParameter.PATH, description="deck id")],
        request=PublishSerializer,
        responses={201: DecklistDetailSerializer},
        summary="Publish your deck as a decklist",
        operation_id="decks_publish_create",
        tags=["decks"],
    )
    def post(self, request, pk: int):
        deck = get_object_or_404(
            Deck.objects.owned_by(request.user).select_related("game", "current_version"), pk=pk
        )
        data = validated(PublishSerializer, request)
        try:
            decklist = services.decklist_publish(
                deck=deck,
                author=request.user,
                name=data["name"],
                description=data.get("description", ""),
            )
        except services.DecklistInvalid as exc:
            return _invalid(exc)
        decklist = Decklist.objects.select_related("game", "author").get(pk=decklist.pk)
        body = _detail(decklist, request, {"request": request})
        return Response(body, status=status.HTTP_201_CREATED)


def _author(request, name: str):
    return get_object_or_404(get_user_model(), username=name, is_active=True)


def _author_body(request, user) -> dict:
    standing = selectors.author_page(user)
    following = None
    if request.user.is_authenticated:
        following = Follow.objects.filter(author=user, follower=request.user).exists()

    return AuthorSerializer(
        {
            "username": user.username,
            "url": request.build_absolute_uri(reverse("decklists:author", args=[user.username])),
            "joined": user.date_joined,
            "following": following,
            **standing,
        }
    ).data


class AuthorView(APIView):
    """An author: when they joined, their reputation (+1 a like, +5 a favourite of their
    decklists by others), followers and decklists."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "read"}

    @extend_schema(
        parameters=[AUTHOR_NAME],
        responses=AuthorSerializer,
        summary="An author",
        operation_id="authors_retrieve",
        tags=["authors"],
    )
    def get(self, request, name: str):
        return Response(_author_body(request, _author(request, name)))


class FollowView(APIView):
    """Follow an author (you are told when they publish), or stop."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"write": "decklists:write"}

    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "community"

    def _answer(self, user, following: bool) -> Response:
        followers = (
            Author.objects.filter(user=user).values_list("followers", flat=True).first() or 0
        )
        return Response({"following": following, "followers": followers})

    @extend_schema(
        parameters=[AUTHOR_NAME],
        request=None,
        responses={200: Following},
        summary="Follow an author (once)",
        operation_id="authors_follow_create",
        tags=["authors"],
    )
    def post(self, request, name: str):
        user = _author(request, name)
        try:
            services.author_follow(author=user, follower=request.user)
        except services.DecklistInvalid as exc:
            return _invalid(exc)
        return self._answer(user, True)

    @extend_schema(
        parameters=[AUTHOR_NAME],
        request=None,
        responses={200: Following},
        summary="Stop following an author",
        operation_id="authors_follow_destroy",
        tags=["authors"],
    )
    def delete(self, request, name: str):
        user = _author(request, name)
        services.author_unfollow(author=user, follower=request.user)
        return self._answer(user, False)
