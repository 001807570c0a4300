"""The collection's API serializers: explicit fields, never `__all__`."""

from __future__ import annotations

from typing import cast

from rest_framework import serializers

from catalogue.models import Card
from decks.serializers import BuiltDeckSerializer, ListTextField
from validation.registry import registry

from .files import MAX_FILE_BYTES, MAX_FILE_ROWS
from .models import CollectionEntry

#: The most products a collection written whole (PUT /api/collection/) holds.
MAX_PRODUCTS = 1_000


class CollectionEntrySerializer(serializers.ModelSerializer):
    """One card the user owns. `card` is the card's id."""

    card = serializers.PrimaryKeyRelatedField(queryset=Card.objects.all())
    card_name = serializers.CharField(source="card.name", read_only=True)
    game = serializers.CharField(source="card.game.slug", read_only=True)
    count = serializers.IntegerField(min_value=1, max_value=9999)

    class Meta:
        model = CollectionEntry
        fields = ["id", "card", "card_name", "game", "count", "updated_at"]
        read_only_fields = ["id", "card_name", "game", "updated_at"]


class CollectionImportSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=[])
    list = ListTextField(required=False, help_text="`N Card Name` lines")
    csv = serializers.CharField(
        required=False,
        trim_whitespace=False,
        max_length=MAX_FILE_BYTES,
        help_text="CSV text with the columns Count, Name, Edition (an expansion code) and "
        "Card Number (others ignored); a row with an Edition and no Name is a whole product; "
        "a `Game` column (as the export writes it) says a row's game, else `game`. "
        f"At most {MAX_FILE_ROWS:,} rows",
    )
    replace = serializers.BooleanField(default=False)
    dry_run = serializers.BooleanField(
        default=False, help_text="read and answer what would be imported; write nothing"
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cast(serializers.ChoiceField, self.fields["game"]).choices = registry.slugs()

    def validate(self, attrs):
        if bool(attrs.get("list")) == bool(attrs.get("csv")):
            raise serializers.ValidationError({"list": ["give either `list` or `csv`"]})
        return attrs


class CollectionImportedSerializer(serializers.Serializer):
    cards = serializers.IntegerField(help_text="copies of loose cards")
    distinct_cards = serializers.IntegerField()
    products = serializers.IntegerField(help_text="copies of whole products")
    rows = serializers.IntegerField()
    dry_run = serializers.BooleanField()


class OwnedProductSerializer(serializers.Serializer):
    """A whole product owned: an expansion (its id) and how many copies."""

    expansion = serializers.IntegerField(min_value=1, help_text="the expansion's id")
    code = serializers.CharField(read_only=True)
    game = serializers.CharField(read_only=True)
    count = serializers.IntegerField(min_value=1, max_value=9999)


class LooseCardSerializer(serializers.Serializer):
    """Loose copies of a card (its id)."""

    card = serializers.IntegerField(min_value=1, help_text="the card's id")
    card_name = serializers.CharField(read_only=True)
    game = serializers.CharField(read_only=True)
    count = serializers.IntegerField(min_value=1, max_value=9999)


class CollectionSerializer(serializers.Serializer):
    """The whole collection: products and loose cards. PUT replaces it."""

    # ListSerializer takes max_length (DRF's LIST_SERIALIZER_KWARGS); the stubs do not say so.
    products = OwnedProductSerializer(many=True, max_length=MAX_PRODUCTS)  # type: ignore[call-arg]
    cards = LooseCardSerializer(many=True, max_length=MAX_FILE_ROWS)  # type: ignore[call-arg]


class WantSerializer(serializers.Serializer):
    game = serializers.CharField()
    card = serializers.CharField()
    needed = serializers.IntegerField()
    owned = serializers.IntegerField()
    missing = serializers.IntegerField()


class CardDeckSerializer(BuiltDeckSerializer):
    # A deck of yours holding a card: its copies, and whether it is built.
    built = serializers.BooleanField()


class CardDecksSerializer(serializers.Serializer):
    decks = CardDeckSerializer(many=True, help_text="your decks holding the card")
    public_decks = serializers.IntegerField()
    decklists = serializers.IntegerField(help_text="published decklists holding it")
