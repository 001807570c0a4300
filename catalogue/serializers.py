from typing import Any

from rest_framework import serializers

from .models import Card, Expansion, Printing


class GameSerializer(serializers.Serializer):
    """A game of the registry with its kinds, factions, formats and card count."""

    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    factions = serializers.DictField(child=serializers.CharField())
    kinds = serializers.SerializerMethodField()
    formats = serializers.SerializerMethodField()
    sections = serializers.ListField(child=serializers.CharField())
    card_count = serializers.SerializerMethodField()

    def get_kinds(self, game) -> dict:
        return {
            kind: {
                "label": schema.label,
                "attributes": [
                    {"key": a.key, "label": a.label, "type": a.type, "choices": list(a.choices)}
                    for a in schema.attrs
                ],
            }
            for kind, schema in game.kinds.items()
        }

    def get_formats(self, game) -> dict:
        return {
            slug: {"name": f.name, "description": f.description, "options": dict(f.options)}
            for slug, f in game.formats.items()
        }

    def get_card_count(self, game) -> int:
        return self.context.get("counts", {}).get(game.slug, 0)


class ExpansionSerializer(serializers.ModelSerializer):
    game: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )

    class Meta:
        model = Expansion
        fields = ["id", "game", "code", "name", "released", "sample", "notice"]


class PrintingSerializer(serializers.ModelSerializer):
    expansion: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="code", read_only=True
    )
    card_name = serializers.CharField(source="card.name", read_only=True)

    class Meta:
        model = Printing
        fields = [
            "id",
            "card",
            "card_name",
            "expansion",
            "number",
            "rarity",
            "image",
            "flavour",
            "artist",
        ]


class CardPrintingSerializer(serializers.ModelSerializer):
    expansion: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="code", read_only=True
    )

    class Meta:
        model = Printing
        fields = ["expansion", "number", "rarity", "image"]


class CardSerializer(serializers.ModelSerializer):
    """A card with its printings. The declared fields describe it (the OpenAPI schema, the
    browsable API); `to_representation` writes the same dict directly, because the generic
    field-by-field walk cost more than the search itself on a page of 50 cards. A test holds
    the two equal."""

    game: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    printings = CardPrintingSerializer(many=True, read_only=True)
    url = serializers.CharField(source="get_absolute_url", read_only=True)

    _URL_SENTINEL = 987654321

    def _card_url(self, card: Card) -> str:
        """`card.get_absolute_url()`, reversed once per game rather than once per card."""
        templates = self.__dict__.setdefault("_url_templates", {})
        slug = card.game.slug
        if slug not in templates:
            probe = Card(id=self._URL_SENTINEL, game=card.game)
            templates[slug] = probe.get_absolute_url().replace(str(self._URL_SENTINEL), "{}")
        return templates[slug].format(card.id)

    def to_representation(self, card: Card) -> dict:
        request = self.context.get("request")
        printings = getattr(card, "_prefetched_objects_cache", {}).get("printings")
        if printings is None:
            printings = card.printings.all()

        def image(field) -> str | None:
            if not field:
                return None
            url = field.url
            return request.build_absolute_uri(url) if request is not None else url

        return {
            "id": card.id,
            "game": card.game.slug,
            "name": card.name,
            "kind": card.kind,
            "faction": card.faction,
            "cost": card.cost,
            "text": card.text,
            "attributes": card.attributes,
            "printings": [
                {
                    "expansion": p.expansion.code,
                    "number": p.number,
                    "rarity": p.rarity,
                    "image": image(p.image),
                }
                for p in printings
            ],
            "url": self._card_url(card),
        }

    def generic_representation(self, card: Card) -> dict:
        """DRF's own field-by-field representation (what `to_representation` must equal)."""
        return super().to_representation(card)

    class Meta:
        model = Card
        fields = [
            "id",
            "game",
            "name",
            "kind",
            "faction",
            "cost",
            "text",
            "attributes",
            "printings",
            "url",
        ]


class BulkFileSerializer(serializers.Serializer):
    """A game's bulk file (GET /api/games/<slug>/bulk/): every card with its printings."""

    game = serializers.CharField()
    name = serializers.CharField()
    cards = CardSerializer(many=True)


class BulkIndexItemSerializer(serializers.Serializer):
    game = serializers.CharField()
    name = serializers.CharField()
    updated_at = serializers.DateTimeField(help_text="when the file's content last changed")
    size = serializers.IntegerField(min_value=0, help_text="bytes")
    content_type = serializers.CharField()
    etag = serializers.CharField()
    url = serializers.URLField()


class BulkIndexSerializer(serializers.Serializer):
    data = BulkIndexItemSerializer(many=True)  # type: ignore[assignment]  # a field named data


class RuleSetChangeSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["expansions", "banned", "unbanned", "limit", "cost", "errata"],
        help_text="what changed",
    )
    card = serializers.CharField(help_text="the card (empty for the expansions)")
    before = serializers.JSONField(
        allow_null=True,
        help_text="the value before: a limit (null: none), a cost, an errata text, or the "
        "legal expansions' codes (empty: every expansion)",
    )
    after = serializers.JSONField(allow_null=True, help_text="the value after, likewise")
    text = serializers.CharField(help_text="the change in words: 'Card A banned'")


class RuleSetEntrySerializer(serializers.Serializer):
    name = serializers.CharField()
    banned = serializers.BooleanField()
    limit = serializers.IntegerField(allow_null=True)
    cost = serializers.IntegerField(allow_null=True)
    text = serializers.CharField(allow_blank=True)


class RuleSetSerializer(serializers.Serializer):
    """A format's rule set with what it changed against the one before."""

    game = serializers.CharField()
    format = serializers.CharField()
    code = serializers.CharField()
    name = serializers.CharField(allow_blank=True)
    announced = serializers.DateField()
    effective = serializers.DateField(help_text="in effect from 00:00 on this date, site time")
    status = serializers.ChoiceField(
        choices=["past", "in effect", "upcoming"], help_text="on today's date, site time"
    )
    expansions = serializers.ListField(
        child=serializers.CharField(), help_text="the legal expansions; empty: every one"
    )
    cards = RuleSetEntrySerializer(many=True)
    note = serializers.CharField(allow_blank=True)
    sample = serializers.BooleanField()
    changes = RuleSetChangeSerializer(
        many=True, help_text="against the rule set before (the format's own rules before the first)"
    )
