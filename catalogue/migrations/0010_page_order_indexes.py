"""Btree indexes that hold a page's order and the card's id, on PostgreSQL only.

A deep page of cards (`catalogue.search.deep_page`: page 3,000 of a game's cards in name
order, or of its cards by cost) reads the ids of the results before it and then the page's
rows by id. Each index here holds the game, the columns of one of the pages' orders and the
id, so that the reading of the ids is an index-only scan that never visits the table:

- `card_game_name_id`: a game's cards by name (the API's order, the catalogue's default);
- `card_game_kind_name_id`, `card_game_cost_name_id`, `card_game_faction_name_id`: the card
  pages' sorts by kind, by cost and by faction, and a search of one kind by name.

The id comes last, so a page's order (name, then id) is the index's. On SQLite nothing is
done. Built with plain CREATE INDEX (inside the migration's transaction): on a catalogue of a
million cards each takes a few seconds.
"""

from django.db import migrations

INDEXES = {
    "card_game_name_id": "(game_id, name, id)",
    "card_game_kind_name_id": "(game_id, kind, name, id)",
    "card_game_cost_name_id": "(game_id, cost, name, id)",
    "card_game_faction_name_id": "(game_id, faction, name, id)",
}


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name, columns in INDEXES.items():
            schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON catalogue_card {columns}")


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name in INDEXES:
            schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0009_import_job"),
    ]

    operations = [
        migrations.RunPython(forward, backward, elidable=False),
    ]
