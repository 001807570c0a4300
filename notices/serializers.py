from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from . import subjects
from .models import Notice
from .subjects import DECK


class NoticeSerializer(serializers.ModelSerializer):
    """One notice: what changed for which of your decks, or what happened around your
    decklists (a comment, a reply, a mention, an author you follow publishing)."""

    #: The deck the notice is about: its subject, when that is a deck (models.DECK).
    deck = serializers.IntegerField(source="deck_id", read_only=True, allow_null=True)
    deck_url = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notice
        fields = [
            "id",
            "kind",
            "deck",
            "deck_url",
            "url",
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

    def _absolute(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path

    @extend_schema_field({"type": "string", "nullable": True})
    def get_deck_url(self, notice) -> str | None:
        """The deck's page on the site (null for a notice about no deck)."""
        if notice.deck_id is None:
            return None
        return self._absolute(subjects.link(DECK, notice.deck_id))

    def get_url(self, notice) -> str:
        """The page the notice links to (its deck's, a decklist's, a comment's)."""
        return self._absolute(notice.get_absolute_url())

    def get_read(self, notice) -> bool:
        return notice.read_at is not None
