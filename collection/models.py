"""What a user owns: loose cards (`CollectionEntry`, one row per card with a count) and whole
products (`OwnedProduct`, an expansion or core set with a count).

Both tables were created by the decks app and kept when the models moved here
(`db_table`; the migrations collection 0001 and decks 0011 move them in state only).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class CollectionEntry(models.Model):
    """`count` copies of a card owned by a user."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection"
    )
    card = models.ForeignKey("catalogue.Card", on_delete=models.CASCADE, related_name="+")
    count = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["card__game__position", "card__name"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "card"], name="collection_owner_card_unique"),
            models.CheckConstraint(condition=Q(count__gte=1), name="collection_count_positive"),
        ]
        verbose_name_plural = "collection entries"
        # The table the decks app created, kept when the model moved here (migrations:
        # collection 0001, decks 0011).
        db_table = "decks_collectionentry"

    def __str__(self) -> str:
        return f"{self.count} {self.card}"


class OwnedProduct(models.Model):
    """`count` copies of a whole product (an expansion or core set) owned by a user: one copy
    of each of its printings per product. A card's owned copies are its printings in the
    owned products plus the loose copies (CollectionEntry), see collection.owned."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_products"
    )
    expansion = models.ForeignKey(
        "catalogue.Expansion", on_delete=models.CASCADE, related_name="owned_by"
    )
    count = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["expansion__game__position", "expansion__code"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "expansion"], name="owned_product_owner_expansion_unique"
            ),
            models.CheckConstraint(condition=Q(count__gte=1), name="owned_product_count_positive"),
        ]
        db_table = "decks_ownedproduct"

    def __str__(self) -> str:
        return f"{self.count} × {self.expansion}"
