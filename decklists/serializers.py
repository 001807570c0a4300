"""The decklists API's shapes: explicit fields, each nullable where the server sends null."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cardsite.schema_fields import FormatField, GameField

from .from_decks import entries_as_sections
from .models import COMMENT_MAX, DESCRIPTION_MAX, REASON_MAX, Comment, Decklist


def _absolute(context, path: str) -> str:
    request = context.get("request")
    return request.build_absolute_uri(path) if request else path


class DecklistSerializer(serializers.ModelSerializer):
    """A decklist as listed: a frozen snapshot of a deck, with what players think of it."""

    url = serializers.SerializerMethodField()
    game = GameField(source="game.slug", read_only=True)
    format = FormatField(read_only=True)
    author = serializers.CharField(source="author.username", read_only=True)
    precedent = serializers.IntegerField(source="precedent_id", read_only=True, allow_null=True)
    derivation = serializers.ChoiceField(
        choices=["", "version", "copy"],
        read_only=True,
        help_text="how it derives from `precedent`: version (a later publication of the same "
        "deck), copy (a copy of that decklist), empty for none",
    )
    set = serializers.IntegerField(source="set_id", read_only=True, allow_null=True)
    likes = serializers.IntegerField(read_only=True)
    favourites = serializers.IntegerField(read_only=True)
    comments = serializers.IntegerField(read_only=True)

    class Meta:
        model = Decklist
        fields = [
            "id",
            "url",
            "name",
            "game",
            "format",
            "author",
            "published_at",
            "revision",
            "precedent",
            "derivation",
            "set",
            "faction",
            "leader",
            "likes",
            "favourites",
            "comments",
        ]
        read_only_fields = fields

    def get_url(self, decklist) -> str:
        """The decklist's page on the site."""
        return _absolute(self.context, decklist.get_absolute_url())


class LegalitySerializer(serializers.Serializer):
    format = FormatField()
    legal = serializers.BooleanField()
    rule_set = serializers.CharField(
        source="rule_set_code",
        allow_blank=True,
        help_text="the rule set in effect today it was checked under (empty: the format's own rules)",
    )
    # The API names the field `errors` (a plain serializer field, not Serializer.errors).
    errors = serializers.ListField(child=serializers.CharField(), help_text="the first problems")  # type: ignore[assignment]


class DecklistDetailSerializer(DecklistSerializer):
    """A decklist with its list, description (Markdown as written and rendered, sanitised),
    its legality today in each format of its game, its verdict when published, and the
    reader's like and favourite."""

    description = serializers.CharField(read_only=True)
    description_html = serializers.CharField(read_only=True)
    list = serializers.CharField(source="list_text", read_only=True)
    sections = serializers.SerializerMethodField()
    options = serializers.DictField(read_only=True)
    legality = serializers.SerializerMethodField()
    published_legal = serializers.SerializerMethodField()
    published_rule_set = serializers.CharField(source="published_code", read_only=True)
    duplicate_of = serializers.SerializerMethodField()
    liked = serializers.SerializerMethodField()
    favoured = serializers.SerializerMethodField()

    class Meta(DecklistSerializer.Meta):
        fields = [
            *DecklistSerializer.Meta.fields,
            "description",
            "description_html",
            "list",
            "sections",
            "options",
            "legality",
            "published_legal",
            "published_rule_set",
            "duplicate_of",
            "liked",
            "favoured",
        ]
        read_only_fields = fields

    @extend_schema_field(
        {
            "type": "object",
            "additionalProperties": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "card": {"type": "string"},
                        "count": {"type": "integer"},
                        "placement": {"type": "array", "items": {"type": "integer"}},
                    },
                    "required": ["card", "count"],
                },
            },
        }
    )
    def get_sections(self, decklist):
        """The list by section: [{card, count, placement?}]."""
        return entries_as_sections(decklist.entries)

    @extend_schema_field(LegalitySerializer(many=True))
    def get_legality(self, decklist):
        rows = self.context.get("legality")
        if rows is None:
            rows = list(decklist.legality.all())
        return LegalitySerializer(rows, many=True).data

    def get_published_legal(self, decklist) -> bool:
        """Its verdict in its format when it was published (always true: an illegal list is
        refused)."""
        verdict = decklist.verdict
        return verdict is not None and verdict.legal

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_duplicate_of(self, decklist):
        """The earliest decklist holding the same list, null when it is the first."""
        found = self.context.get("duplicate")
        return found.pk if found is not None else None

    @extend_schema_field({"type": "boolean", "nullable": True})
    def get_liked(self, decklist):
        """Whether you like it (null without an account)."""
        return self.context.get("liked")

    @extend_schema_field({"type": "boolean", "nullable": True})
    def get_favoured(self, decklist):
        """Whether it is one of your favourites (null without an account)."""
        return self.context.get("favoured")


class PublishSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, help_text="the decklist's name")
    description = serializers.CharField(
        max_length=DESCRIPTION_MAX,
        required=False,
        allow_blank=True,
        default="",
        help_text="Markdown, rendered sanitised",
    )


class CommentSerializer(serializers.ModelSerializer):
    author = serializers.CharField(source="author.username", read_only=True)
    reply_to = serializers.IntegerField(source="reply_to_id", read_only=True, allow_null=True)
    html = serializers.CharField(read_only=True, help_text="the text rendered and sanitised")

    class Meta:
        model = Comment
        fields = ["id", "author", "text", "html", "reply_to", "hidden", "created_at"]
        read_only_fields = fields


class CommentCreateSerializer(serializers.Serializer):
    text = serializers.CharField(
        max_length=COMMENT_MAX,
        trim_whitespace=False,
        help_text=f"Markdown, at most {COMMENT_MAX} characters",
    )
    reply_to = serializers.IntegerField(
        required=False, min_value=1, help_text="the comment this one answers"
    )


class ReportSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=REASON_MAX)
    comment = serializers.IntegerField(
        required=False, min_value=1, help_text="a comment of the decklist (else the decklist)"
    )


class AuthorSerializer(serializers.Serializer):
    username = serializers.CharField()
    url = serializers.CharField(help_text="the author's page")
    joined = serializers.DateTimeField()
    reputation = serializers.IntegerField()
    followers = serializers.IntegerField()
    decklists = serializers.IntegerField()
    following = serializers.BooleanField(
        allow_null=True, help_text="whether you follow them (null without an account)"
    )
