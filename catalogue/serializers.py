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
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Expansion
        fields = ["id", "game", "code", "name", "released", "sample", "notice"]


class PrintingSerializer(serializers.ModelSerializer):
    expansion = serializers.SlugRelatedField(slug_field="code", read_only=True)
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
    expansion = serializers.SlugRelatedField(slug_field="code", read_only=True)

    class Meta:
        model = Printing
        fields = ["expansion", "number", "rarity", "image"]


class CardSerializer(serializers.ModelSerializer):
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    printings = CardPrintingSerializer(many=True, read_only=True)
    url = serializers.CharField(source="get_absolute_url", read_only=True)

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
