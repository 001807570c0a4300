from django.urls import reverse
from rest_framework import serializers

from .models import Notice


class NoticeSerializer(serializers.ModelSerializer):
    """One notice: what changed for which of your decks."""

    deck = serializers.IntegerField(source="deck_id", read_only=True)
    deck_url = serializers.SerializerMethodField()
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notice
        fields = [
            "id",
            "kind",
            "deck",
            "deck_url",
            "rule_set_code",
            "legal",
            "was_legal",
            "points",
            "was_points",
            "message",
            "created_at",
            "read",
        ]
        read_only_fields = fields

    def get_deck_url(self, notice) -> str:
        """The deck's page on the site."""
        path = reverse("decks:detail", args=[notice.deck_id])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path

    def get_read(self, notice) -> bool:
        return notice.read_at is not None
