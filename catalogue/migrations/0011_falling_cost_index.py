"""A btree index for the card pages' sort by falling cost, on PostgreSQL only.

The sort "-cost" orders a game's cards by cost from the highest, then by name and id
(`catalogue.search.deep_page` adds the id). `card_game_cost_name_id` (migration 0010) holds
the cost rising: read backwards it gives the names falling too, which is not the sort's
order, so the first page sorted every card of the game and a deep page read every row before
it. `card_game_cost_desc_name_id` holds the game, the cost falling, the name and the id: the
first page is read from its start and the ids before a deep page are read from the index
alone; read backwards, it is the order a page past the middle is counted in (cost rising,
name and id falling).

Built with plain CREATE INDEX (inside the migration's transaction): on a catalogue of a
million cards it takes a few seconds. On SQLite nothing is done.
"""

from django.db import migrations

INDEXES = {
    "card_game_cost_desc_name_id": "(game_id, cost DESC, name, id)",
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
        ("catalogue", "0010_page_order_indexes"),
    ]

    operations = [
        migrations.RunPython(forward, backward, elidable=False),
    ]
