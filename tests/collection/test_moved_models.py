"""The collection's models moved from the decks app to the collection app without losing a
row: a database holding loose cards and products under the decks app, migrated forward,
holds the same rows under the collection app (the same tables), and their content type (so
their permissions) moved with them. Back and forth."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("decks", "0010_collection_products_built"), ("collection", None)]


def _migrate(targets):
    """Migrate to `targets` and answer the models as they are then (every other app's at its
    latest migration)."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    apps = {app for app, _ in targets}
    others = [node for node in executor.loader.graph.leaf_nodes() if node[0] not in apps]
    state = others + [t for t in targets if t[1] is not None]
    return executor.loader.project_state(state).apps


def _leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_loose_cards_and_products_keep_their_rows_under_the_collection_app():
    old = _migrate(BEFORE)
    with pytest.raises(LookupError):
        old.get_model("collection", "CollectionEntry")
    User = old.get_model("auth", "User")
    Game = old.get_model("catalogue", "Game")
    Card = old.get_model("catalogue", "Card")
    Expansion = old.get_model("catalogue", "Expansion")
    ContentType = old.get_model("contenttypes", "ContentType")
    Permission = old.get_model("auth", "Permission")
    owner = User.objects.create(username="collector")
    game = Game.objects.create(slug="moved-game", name="A game of moved rows")
    tiger = Card.objects.create(game=game, name="Tigercat", kind="unit")
    drop = Card.objects.create(game=game, name="Supply Drop", kind="order")
    core = Expansion.objects.create(game=game, code="RL1", name="Core")
    Entry = old.get_model("decks", "CollectionEntry")
    Product = old.get_model("decks", "OwnedProduct")
    loose = {
        Entry.objects.create(owner=owner, card=tiger, count=3).pk: (tiger.pk, 3),
        Entry.objects.create(owner=owner, card=drop, count=1).pk: (drop.pk, 1),
    }
    product = Product.objects.create(owner=owner, expansion=core, count=2).pk
    # The content type of the loose cards as the decks app had it, with a permission on it.
    ContentType.objects.filter(app_label="collection").delete()
    entry_type, _ = ContentType.objects.get_or_create(app_label="decks", model="collectionentry")
    permission, _ = Permission.objects.get_or_create(
        content_type=entry_type,
        codename="change_collectionentry",
        defaults={"name": "Can change collection entry"},
    )

    new = _migrate(_leaves())
    with pytest.raises(LookupError):
        new.get_model("decks", "CollectionEntry")
    Entry = new.get_model("collection", "CollectionEntry")
    Product = new.get_model("collection", "OwnedProduct")
    assert {e.pk: (e.card_id, e.count) for e in Entry.objects.filter(owner_id=owner.pk)} == loose
    assert list(Product.objects.values_list("pk", "expansion_id", "count")) == [
        (product, core.pk, 2)
    ]
    ContentType = new.get_model("contenttypes", "ContentType")
    moved = ContentType.objects.get(pk=entry_type.pk)
    assert (moved.app_label, moved.model) == ("collection", "collectionentry")
    assert not ContentType.objects.filter(app_label="decks", model="collectionentry").exists()
    assert new.get_model("auth", "Permission").objects.get(pk=permission.pk).content_type_id == (
        entry_type.pk
    )
    # Written under the new app, read back under the old one.
    Product.objects.filter(pk=product).update(count=4)

    back = _migrate(BEFORE)
    assert back.get_model("decks", "OwnedProduct").objects.get(pk=product).count == 4
    assert {
        e.pk: (e.card_id, e.count)
        for e in back.get_model("decks", "CollectionEntry").objects.filter(owner_id=owner.pk)
    } == loose
    ContentType = back.get_model("contenttypes", "ContentType")
    assert ContentType.objects.get(pk=entry_type.pk).app_label == "decks"
    _migrate(_leaves())
