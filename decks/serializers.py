"""Deck API serializers: explicit fields, never `__all__`."""

from __future__ import annotations

from typing import Any, cast

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cardsite.schema_fields import FormatField
from validation import decklist
from validation.registry import registry

from .models import Deck, DeckVersion, Visibility

MAX_LIST = decklist.MAX_LIST_BYTES


class ListTextField(serializers.CharField):
    """A deck list as text, refused (400, stating the limit) when larger than the site
    reads: decklist.MAX_LIST_BYTES bytes, decklist.MAX_LIST_LINES lines."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", MAX_LIST)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        problem = decklist.text_size_problem(value)
        if problem:
            raise serializers.ValidationError(problem)
        return value


class EntrySerializer(serializers.Serializer):
    card = serializers.CharField(max_length=200)
    count = serializers.IntegerField(min_value=1, max_value=1000, default=1)
    placement = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=2,
        required=False,
        help_text="[column, row] of a placed unit, in a section with a placement area",
    )
    set = serializers.CharField(
        max_length=20,
        required=False,
        allow_blank=True,
        help_text="an expansion code that prints the card (checked, not stored)",
    )

    def get_fields(self):
        # The placement's former key, still read (docs/api.md).
        fields = super().get_fields()
        fields[decklist.PLACEMENT_ALIAS] = serializers.ListField(
            child=serializers.IntegerField(),
            min_length=2,
            max_length=2,
            required=False,
            help_text="the former name of `placement`, still read",
        )
        return fields


class SectionsField(serializers.DictField):
    """A deck list as sections ({section: [entries]}), refused (400, stating the limit)
    before its entries are read when it has more than decklist.MAX_SECTIONS sections or
    decklist.MAX_ENTRIES entries."""

    def __init__(self, **kwargs):
        kwargs.setdefault("child", EntrySerializer(many=True))
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        problem = decklist.sections_size_problem(data)
        if problem:
            raise serializers.ValidationError(problem)
        return super().to_internal_value(data)


class StoredEntrySerializer(EntrySerializer):
    section = serializers.CharField()

    def get_fields(self):
        # The placement answered under its former key too, for older clients (docs/api.md).
        fields = super().get_fields()
        fields[decklist.PLACEMENT_ALIAS] = serializers.ListField(
            child=serializers.IntegerField(),
            source=decklist.PLACEMENT,
            # Not read_only: a read-only field is declared required in the schema, and this
            # one is present only on placed entries. The serializer only ever writes answers.
            required=False,
            help_text="the same as `placement`, under its former name, for older clients",
        )
        return fields


class DeckSerializer(serializers.ModelSerializer):
    """A deck as listed: its verdict is the latest validation of its current version."""

    game: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    owner = serializers.CharField(source="owner.username", read_only=True)
    current_version = serializers.SerializerMethodField()
    share_url = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = Deck
        fields = [
            "id",
            "url",
            "name",
            "description",
            "game",
            "format",
            "visibility",
            "owner",
            "current_version",
            "legal",
            "violations_count",
            "warnings_count",
            "built",
            "share_url",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_current_version(self, deck) -> int | None:
        """Null while the deck has no version (created without a list)."""
        # current_version_number is annotated by the list queries; fall back to the join.
        number = getattr(deck, "current_version_number", None)
        if number is None and deck.current_version_id:
            number = deck.current_version.number
        return number

    @extend_schema_field({"type": "string", "format": "uri", "nullable": True})
    def get_share_url(self, deck) -> str | None:
        """Only the owner sees the share link of an unlisted deck."""
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if deck.visibility != Visibility.UNLISTED or user is None or user.pk != deck.owner_id:
            return None
        assert request is not None  # a user came with it
        return request.build_absolute_uri(f"/api/decks/shared/{deck.share_token}/")

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, deck) -> str:
        request = self.context.get("request")
        path = deck.get_absolute_url()
        return request.build_absolute_uri(path) if request else path


class VersionSerializer(serializers.ModelSerializer):
    """One immutable version: the canonical text, the entries, the report when saved."""

    based_on = serializers.SerializerMethodField()
    author = serializers.SerializerMethodField()
    entries = StoredEntrySerializer(many=True, read_only=True)
    legal = serializers.BooleanField(read_only=True)

    class Meta:
        model = DeckVersion
        fields = [
            "number",
            "based_on",
            "created_at",
            "author",
            "legal",
            "list_text",
            "entries",
            "options",
            "report",
        ]
        read_only_fields = fields

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_based_on(self, version) -> int | None:
        return version.based_on.number if version.based_on_id else None

    @extend_schema_field(OpenApiTypes.STR)
    def get_author(self, version) -> str | None:
        return version.author.username if version.author_id else None


class VersionSummarySerializer(VersionSerializer):
    class Meta(VersionSerializer.Meta):
        fields = ["number", "based_on", "created_at", "author", "legal"]
        read_only_fields = fields


class DeckDetailSerializer(DeckSerializer):
    """A deck with its latest report and its current version."""

    report = serializers.JSONField(read_only=True)
    version = serializers.SerializerMethodField()
    rule_set_pin: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="code",
        read_only=True,
        allow_null=True,
        help_text="the code of the rule set the deck is pinned to; null: it follows its "
        "format (its report's rule_set is the one it was checked under)",
    )

    class Meta(DeckSerializer.Meta):
        fields = [*DeckSerializer.Meta.fields, "report", "validated_at", "rule_set_pin", "version"]
        read_only_fields = fields

    @extend_schema_field(VersionSerializer(allow_null=True))
    def get_version(self, deck):
        if deck.current_version_id is None:
            return None
        return VersionSerializer(deck.current_version, context=self.context).data


class _ListInputMixin(serializers.Serializer):
    list = ListTextField(required=False, allow_blank=False)
    sections = SectionsField(required=False)
    options = serializers.DictField(required=False, default=dict)

    def _one_list(self, attrs, *, required: bool):
        given = ("list" in attrs) + ("sections" in attrs)
        if given > 1 or (required and given == 0):
            raise serializers.ValidationError(
                "give either 'list' (the text) or 'sections', not both"
                if given > 1
                else "give the deck as 'list' (the text) or 'sections'"
            )


def _check_game_format(attrs):
    game = registry.get(attrs["game"])
    try:
        game.format(attrs["format"])
    except ValueError as exc:
        raise serializers.ValidationError({"format": str(exc)}) from exc


class DeckCreateSerializer(_ListInputMixin):
    """A new deck; with `list` or `sections` its version 1 is saved too."""

    game = serializers.ChoiceField(choices=[])
    format = FormatField(max_length=40)
    name = serializers.CharField(max_length=200)
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True)
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PRIVATE)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cast(serializers.ChoiceField, self.fields["game"]).choices = registry.slugs()

    def validate(self, attrs):
        self._one_list(attrs, required=False)
        _check_game_format(attrs)
        return attrs


class DeckImportSerializer(DeckCreateSerializer):
    """Import a list as a new deck (version 1); the list is required."""

    list = ListTextField()

    def validate(self, attrs):
        self._one_list(attrs, required=True)
        _check_game_format(attrs)
        return attrs


class DeckUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    built = serializers.BooleanField(
        required=False,
        help_text="the deck is built: its cards sit in a deck box and are not free for "
        "another deck (GET /api/decks/<id>/availability/)",
    )
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True)
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    rule_set = serializers.CharField(
        max_length=40,
        required=False,
        allow_blank=True,
        help_text="pin the deck to its format's rule set of this code; empty: the deck "
        "follows its format (the rule set in effect today). The deck is re-checked at once",
    )


class VersionCreateSerializer(_ListInputMixin):
    """A new version: the list (text or sections), its options, and the number of the
    version it was based on (null only for a deck with no version yet)."""

    based_on = serializers.IntegerField(min_value=1, allow_null=True)

    def validate(self, attrs):
        self._one_list(attrs, required=True)
        return attrs


class ConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current_version = serializers.IntegerField(allow_null=True)


class BuiltDeckSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    count = serializers.IntegerField()


class AvailabilitySerializer(serializers.Serializer):
    card = serializers.CharField()
    needed = serializers.IntegerField()
    owned = serializers.IntegerField(help_text="products' printings of it plus loose copies")
    in_built_decks = serializers.IntegerField(help_text="copies in your other built decks")
    built_decks = BuiltDeckSerializer(many=True)
    free = serializers.IntegerField(help_text="owned less what the other built decks hold")
    short = serializers.IntegerField(help_text="needed beyond free")
