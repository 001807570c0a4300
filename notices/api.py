"""The notices of the signed-in user: list them (newest first) and mark them all read."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view, inline_serializer
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import SAFE_METHODS, IsAuthenticated
from rest_framework.response import Response

from cardsite.ratelimit import ScopedRateThrottle

from . import services
from .models import Notice
from .serializers import NoticeSerializer


class WriteThrottle(ScopedRateThrottle):
    """The view's throttle scope, applied to writes only."""

    def allow_request(self, request, view):
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)


@extend_schema_view(list=extend_schema(summary="Your notices, newest first"))
class NoticeViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """What the site told you about your decks: a verdict or total points changed by a rule
    set, or the rule set a deck was pinned to was deleted."""

    #: The token scope each operation needs (cardsite.scopes).
    required_scopes = {"read": "notices:read", "write": "notices:read"}

    serializer_class = NoticeSerializer
    permission_classes = [IsAuthenticated]
    throttle_classes = [WriteThrottle]
    throttle_scope = "deck_write"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Notice.objects.none()
        return services.notices_for(self.request.user)

    @extend_schema(
        request=None,
        responses={
            200: inline_serializer("NoticesMarkedRead", {"marked": serializers.IntegerField()})
        },
        summary="Mark all your notices read",
    )
    @action(detail=False, methods=["post"], url_path="read")
    def read(self, request):
        return Response({"marked": services.notices_mark_all_read(request.user)})
